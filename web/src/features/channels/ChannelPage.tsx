import { AlertMeLink } from "../../components/AlertMeLink";
import { FeedLink } from "../../components/FeedLink";
import { NotFoundPage } from "../../components/NotFoundPage";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/errors";
import { useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { FeedTimeline } from "../feed";
import { useChannel } from "./api/get-channel";

/** `/channel/{code}`: the channel and its news. */
export function ChannelPage() {
  const { code = "" } = useParams();
  const channel = useChannel(code);
  useDocumentTitle(channel.data?.name);
  if (channel.isPending) return <Spinner />;
  if (channel.isError) return isNotFound(channel.error) ? <NotFoundPage /> : <p className="empty">{messageOf(channel.error)}</p>;
  return (
    <FeedTimeline scope={{ channel: channel.data.code }} live={`channel:${channel.data.code}`}>
      <h1>{channel.data.name}</h1>
      <div className="subject-actions">
        <FeedLink kind="channel" code={channel.data.code} />
        <AlertMeLink kind="channel" value={channel.data.code} />
      </div>
    </FeedTimeline>
  );
}
