import { FallbackMark } from "../../components/FallbackMark";
import { FollowButton } from "../../components/FollowButton";
import { NotFoundPage } from "../../components/NotFoundPage";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/errors";
import { useFollow } from "../../lib/follow";
import { useTranslation } from "../../lib/i18n";
import { useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { FeedTimeline } from "../feed";
import { topicKeys, useTopic } from "./api/get-topic";

/** `/topic/{id}`: the topic and its news. */
export function TopicPage() {
  const { id = "" } = useParams();
  const { t } = useTranslation();
  const valid = /^\d+$/.test(id);
  const topic = useTopic(Number(id));
  useDocumentTitle(topic.data?.title);
  if (!valid) return <NotFoundPage />;
  if (topic.isPending) return <Spinner />;
  if (topic.isError) return isNotFound(topic.error) ? <NotFoundPage /> : <p className="empty">{messageOf(topic.error)}</p>;
  const view = topic.data;
  return (
    <FeedTimeline scope={{ topic_id: view.id }} live={`topic:${view.id}`}>
      <div>
        <h1 lang={view.lang}>
          {view.title} <FallbackMark lang={view.lang} />
        </h1>
        <p lang={view.lang}>{view.description}</p>
        <p className="meta">{t("web.subject.followers", { count: view.follower_count })}</p>
      </div>
      <TopicFollow id={view.id} />
    </FeedTimeline>
  );
}

function TopicFollow({ id }: { id: number }) {
  const { following, toggle } = useFollow("topic", id, topicKeys.details());
  return <FollowButton following={following} busy={toggle.isPending} onToggle={(follow) => toggle.mutate(follow)} />;
}
