import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { formatCompactUsd, formatUsd } from "../../components/Price";
import { Spinner } from "../../components/ui";
import { call } from "../../lib/api";
import { messageOf } from "../../lib/errors";
import type { PresalePage, PresaleStatus, PresaleView } from "../../lib/api-types";
import { useMemberAction } from "../../lib/dialogs";
import { useTranslation } from "../../lib/i18n";
import { useDocumentTitle } from "../../lib/title";
import { marketKeys } from "./api/markets";

const STATUSES: PresaleStatus[] = ["live", "upcoming", "ended"];

/** Now, once a second, for countdowns. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** "2 d 03:04:05" until `at` (seconds). */
function countdown(at: number, now: number): string {
  const left = Math.max(0, Math.floor(at - now / 1000));
  const days = Math.floor(left / 86_400);
  const clock = [Math.floor(left / 3600) % 24, Math.floor(left / 60) % 60, left % 60].map((n) => String(n).padStart(2, "0")).join(":");
  return days > 0 ? `${days} d ${clock}` : clock;
}

/** `/presales`: token sales before listing, live, upcoming or ended, with countdowns in the
 *  reader's own time zone and a risk notice. */
export function PresalesPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t("web.presales.title"));
  const [status, setStatus] = useState<PresaleStatus>("live");
  const presales = useInfiniteQuery({
    queryKey: marketKeys.presales(status, i18n.language),
    queryFn: ({ pageParam }) => call<PresalePage>("/presale/list", { status, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
  const list = presales.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <section className="page presales">
      <div className="page-head">
        <h1>{t("web.presales.title")}</h1>
      </div>
      <div className="segmented" role="group" aria-label={t("web.presales.status")}>
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={status === s} onClick={() => setStatus(s)}>
            {t(`web.presales.${s}`)}
          </button>
        ))}
      </div>
      {list[0] && <p className="risk-notice" role="note">{list[0].risk_notice}</p>}
      {presales.isPending ? (
        <Spinner />
      ) : presales.isError ? (
        <p className="empty">{messageOf(presales.error)}</p>
      ) : list.length === 0 ? (
        <p className="empty">{t("web.presales.none")}</p>
      ) : (
        <ul className="presale-list">
          {list.map((presale) => (
            <PresaleCard key={presale.id} presale={presale} />
          ))}
        </ul>
      )}
      {presales.hasNextPage && (
        <button type="button" className="button ghost" onClick={() => void presales.fetchNextPage()}>
          {t("web.presales.more")}
        </button>
      )}
    </section>
  );
}

function PresaleCard({ presale }: { presale: PresaleView }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const queryClient = useQueryClient();
  const { busy, run } = useMemberAction();
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const following = presale.following ?? false;
  const toggle = () =>
    run(async () => {
      await call("/presale/follow", { id: presale.id, follow: !following });
      await queryClient.invalidateQueries({ queryKey: ["market", "presales"] });
    });
  return (
    <li className="card presale" data-testid="presale">
      <div className="presale-head">
        <h2>{presale.project} <span className="symbol">${presale.symbol}</span></h2>
        {presale.status !== "ended" && (
          <button type="button" className={following ? "button small" : "button small ghost"} aria-pressed={following} disabled={busy} onClick={toggle}>
            {following ? t("web.presales.following") : t("web.presales.follow")}
          </button>
        )}
      </div>
      {presale.description && <p>{presale.description}</p>}
      <dl className="market-figures">
        <div><dt>{t("web.presales.chain")}</dt><dd>{presale.chain}</dd></div>
        <div><dt>{t("web.presales.price")}</dt><dd>{formatUsd(presale.price_usd, i18n.language)}</dd></div>
        <div><dt>{t("web.presales.target")}</dt><dd>{formatCompactUsd(presale.target_usd, i18n.language)}</dd></div>
        <div>
          <dt>{t("web.presales.window")}</dt>
          <dd>
            <time dateTime={new Date(presale.starts_at * 1000).toISOString()}>{when.format(presale.starts_at * 1000)}</time>
            {" – "}
            <time dateTime={new Date(presale.ends_at * 1000).toISOString()}>{when.format(presale.ends_at * 1000)}</time>
          </dd>
        </div>
      </dl>
      {presale.status !== "ended" && (
        <p className="countdown" data-testid="countdown">
          {presale.status === "upcoming"
            ? t("web.presales.startsIn", { time: countdown(presale.starts_at, now) })
            : t("web.presales.endsIn", { time: countdown(presale.ends_at, now) })}
        </p>
      )}
      {presale.links.length > 0 && (
        <p className="presale-links">
          {presale.links.map((link) => (
            <a key={link.url} href={link.url} target="_blank" rel="noopener noreferrer nofollow">{link.label}</a>
          ))}
        </p>
      )}
    </li>
  );
}
