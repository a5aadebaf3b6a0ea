import { useTranslation } from "../../lib/i18n";
import { Link } from "../../lib/router";

import { Spinner } from "../../components/ui";
import { FallbackMark } from "../../components/FallbackMark";
import { useLocalePath } from "../../lib/paths";
import { useDocumentTitle } from "../../lib/title";
import { useBenefits } from "../benefits";
import { useExplore } from "./api/get-explore";

export function ExplorePage() {
  const { t } = useTranslation();
  useDocumentTitle(t("web.nav.explore"));
  const to = useLocalePath();
  const explore = useExplore();
  const benefits = useBenefits();
  if (explore.isPending) return <Spinner />;
  if (explore.isError) return null;
  const e = explore.data;
  return (
    <section className="page explore">
      <h2>{t("web.explore.topics")}</h2>
      <div className="grid topics">
        {e.topics.map((topic, i) => (
          <Link key={topic.id} className="card topic" to={to(`/topic/${topic.id}`)}>
            <span className="rank">{i + 1}</span>
            <h3 lang={topic.lang}>{topic.title} <FallbackMark lang={topic.lang} /></h3>
            <p lang={topic.lang}>{topic.description}</p>
          </Link>
        ))}
      </div>
      <div className="section-head">
        <h2>{t("web.explore.tags")}</h2>
        <Link to={to("/recommendTag")}>{t("web.explore.more")}</Link>
      </div>
      <div className="chips">
        {e.tags.map((tag) => (
          <Link key={tag.id} className="chip" to={to(`/tag/${encodeURIComponent(tag.code)}`)}>#{tag.name}</Link>
        ))}
      </div>
      <h2>{t("web.explore.channels")}</h2>
      <div className="chips">
        {e.channels.map((c) => (
          <Link key={c.id} className="chip" to={to(`/channel/${c.code}`)}>{c.name}</Link>
        ))}
      </div>
      <h2>{t("web.explore.benefits")}</h2>
      <div className="grid">
        {benefits.data?.list.slice(0, 6).map((b) => (
          <Link key={b.id} className="card benefit" to={to(`/benefit/${b.id}`)}>
            <strong>{b.project}</strong>
            <span lang={b.lang}>{b.title} <FallbackMark lang={b.lang} /></span>
            <span className="reward" lang={b.ended ? undefined : b.lang}>{b.ended ? t("web.benefit.ended") : b.reward}</span>
          </Link>
        ))}
      </div>
      <h2>{t("web.explore.kols")}</h2>
      <div className="grid">
        {e.kols.map((k) => (
          <Link key={k.id} className="card kol" to={to(`/kol/${k.id}`)}>
            <span className="avatar" aria-hidden="true">{k.name.slice(0, 1)}</span>
            <div>
              <strong>{k.name}</strong>
              <p>{k.bio}</p>
            </div>
          </Link>
        ))}
      </div>
    </section>
  );
}
