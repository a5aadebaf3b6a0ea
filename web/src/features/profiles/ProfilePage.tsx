import { NotFoundPage } from "../../components/NotFoundPage";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/api";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { useProfile } from "./api/profile";

/** `/user/:id`: what anyone sees of a reader. */
export function ProfilePage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation();
  const profile = useProfile(Number(id));
  useDocumentTitle(profile.data?.nickname ?? t("web.profile.title"));
  if (!/^\d+$/.test(id ?? "") || (profile.isError && isNotFound(profile.error))) return <NotFoundPage />;
  if (profile.isPending) return <Spinner />;
  if (profile.isError) return <p className="empty">{messageOf(profile.error)}</p>;
  const p = profile.data;
  return (
    <section className="page profile-page">
      <div className="card profile">
        <span className="avatar large" aria-hidden="true">{p.nickname.slice(0, 1).toUpperCase()}</span>
        <div>
          <h1>{p.nickname}</h1>
          <p>{p.bio || t("web.profile.noBio")}</p>
          <p className="muted">{t("web.profile.joined", { date: new Date(p.joined * 1000).toLocaleDateString(i18n.language) })}</p>
        </div>
      </div>
      <dl className="card profile-stats">
        <div>
          <dt>{t("web.profile.points")}</dt>
          <dd>{formatNumber(p.points)}</dd>
        </div>
        <div>
          <dt>{t("web.profile.comments")}</dt>
          <dd>{formatNumber(p.comments)}</dd>
        </div>
        <div>
          <dt>{t("web.profile.likes")}</dt>
          <dd>{formatNumber(p.likes_received)}</dd>
        </div>
      </dl>
    </section>
  );
}
