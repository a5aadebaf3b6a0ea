import { AlertMeLink } from "../../components/AlertMeLink";
import { FeedLink } from "../../components/FeedLink";
import { NotFoundPage } from "../../components/NotFoundPage";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/errors";
import { useTranslation } from "../../lib/i18n";
import { useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { FeedTimeline } from "../feed";
import { useTag } from "./api/get-tag";
import { FollowTagButton } from "./FollowTagButton";

/** `/tag/{code}`: the tag, its followers and its news. */
export function TagPage() {
  const { code = "" } = useParams();
  const { t } = useTranslation();
  const tag = useTag(code);
  useDocumentTitle(tag.data && `#${tag.data.name}`);
  if (tag.isPending) return <Spinner />;
  if (tag.isError) return isNotFound(tag.error) ? <NotFoundPage /> : <p className="empty">{messageOf(tag.error)}</p>;
  const view = tag.data;
  return (
    <FeedTimeline scope={{ tag_id: view.id }} live={`tag:${view.code}`}>
      <div>
        <h1>#{view.name}</h1>
        {view.description && <p>{view.description}</p>}
        <p className="meta">{t("web.subject.followers", { count: view.follower_count })}</p>
      </div>
      <div className="subject-actions">
        <FeedLink kind="tag" code={view.code} />
        <AlertMeLink kind="tag" value={view.code} />
        <FollowTagButton tagId={view.id} />
      </div>
    </FeedTimeline>
  );
}
