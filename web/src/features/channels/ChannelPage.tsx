import { useParams } from "../../lib/router";

import { FeedList } from "../feed";
import { useChannel } from "./api/get-channel";

export function ChannelPage() {
  const { code = "" } = useParams();
  const channel = useChannel(code);
  return (
    <section className="page">
      <h1>{channel.data?.name ?? code}</h1>
      <FeedList scope={{ channel: code }} />
    </section>
  );
}
