import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n";
import { useParams } from "../../app/router";

import { call } from "../../lib/api";
import { FeedList } from "../feed/FeedList";

export function ChannelPage() {
  const { code = "" } = useParams();
  const { i18n } = useTranslation();
  const channel = useQuery({
    queryKey: ["channel", code, i18n.language],
    queryFn: () => call<{ name: string }>("/channel/detail", { code }),
  });
  return (
    <section className="page">
      <h1>{channel.data?.name ?? code}</h1>
      <FeedList scope={{ channel: code }} />
    </section>
  );
}
