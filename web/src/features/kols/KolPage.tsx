import { AlertMeLink } from "../../components/AlertMeLink";
import { FollowButton } from "../../components/FollowButton";
import { NotFoundPage } from "../../components/NotFoundPage";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/errors";
import { useTranslation } from "../../lib/i18n";
import { useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { FeedTimeline } from "../feed";
import { useFollowKol, useFollowedKols } from "./api/follow-kol";
import { useKol } from "./api/get-kol";

/** `/kol/{id}`: the writer, their followers and what they wrote. */
export function KolPage() {
  const { id = "" } = useParams();
  const { t } = useTranslation();
  const valid = /^\d+$/.test(id);
  const kol = useKol(Number(id));
  useDocumentTitle(kol.data?.name);
  const followed = useFollowedKols();
  const toggle = useFollowKol();
  if (!valid) return <NotFoundPage />;
  if (kol.isPending) return <Spinner />;
  if (kol.isError) return isNotFound(kol.error) ? <NotFoundPage /> : <p className="empty">{messageOf(kol.error)}</p>;
  const view = kol.data;
  const following = followed.data?.list.some((k) => k.id === view.id) ?? false;
  return (
    <FeedTimeline scope={{ kol_id: view.id }} live={`kol:${view.id}`}>
      <div>
        <h1>{view.name}</h1>
        <p className="meta">@{view.handle} · {t("web.subject.followers", { count: view.follower_count })}</p>
        <p>{view.bio}</p>
      </div>
      <div className="subject-actions">
        <AlertMeLink kind="kol" value={String(view.id)} />
        <FollowButton following={following} busy={toggle.isPending} onToggle={(follow) => toggle.mutate({ kolId: view.id, follow })} />
      </div>
    </FeedTimeline>
  );
}
