import { useTranslation } from "../../lib/i18n";
import { useParams, useSearchParams } from "../../lib/router";

import { Spinner } from "../../components/ui";
import { FallbackMark } from "../../components/FallbackMark";
import { NotFoundPage } from "../../components/NotFoundPage";
import { isNotFound, messageOf } from "../../lib/errors";
import { mergeExtQuery } from "../../lib/core-more";
import { useDocumentTitle } from "../../lib/title";
import { useBenefit } from "./api/get-benefit";

/** `/benefit/{id}/{ext}`: the ext segment's parameters are merged into the query by client-core. */
export function BenefitPage() {
  const { benefitId, "*": ext = "" } = useParams();
  const [query] = useSearchParams();
  const { t, i18n } = useTranslation();
  const merged = mergeExtQuery(Object.fromEntries(query), ext);
  const params = merged.ok ? merged.value : Object.fromEntries(query);
  const benefit = useBenefit(Number(benefitId));
  useDocumentTitle(benefit.data?.title);
  if (!/^\d+$/.test(benefitId ?? "") || (benefit.isError && isNotFound(benefit.error))) return <NotFoundPage />;
  if (benefit.isPending) return <Spinner />;
  if (benefit.isError) return <p className="empty">{messageOf(benefit.error)}</p>;
  const b = benefit.data;
  const link = new URL(b.link);
  for (const [k, v] of Object.entries(params)) link.searchParams.set(k, v);
  return (
    <article className="page benefit-page">
      <p className="kind">{b.project}</p>
      <h1 lang={b.lang}>
        {b.title} <FallbackMark lang={b.lang} />
      </h1>
      <p className="reward">
        {t("web.benefit.reward")}: <strong lang={b.lang}>{b.reward}</strong> ·{" "}
        {b.ended ? t("web.benefit.ended") : t("web.benefit.deadline", { date: new Date(b.deadline * 1000).toLocaleDateString(i18n.language) })}
      </p>
      <h2>{t("web.benefit.steps")}</h2>
      <ol lang={b.lang}>
        {b.steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
      {!b.ended && (
        <a className="button" href={link.toString()} target="_blank" rel="noopener noreferrer">{t("web.benefit.join")}</a>
      )}
    </article>
  );
}
