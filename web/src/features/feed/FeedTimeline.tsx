import type { ReactNode } from "react";

import type { FeedScope } from "./api/get-feeds";
import { FeedControls } from "./FeedControls";
import { FeedList } from "./FeedList";
import { useFeedParams } from "./useFeedParams";

/** One subject's news (a tag, token, topic or KOL): its header, its order and the
 * only-important filter, and the endless list. */
export function FeedTimeline({ scope, live, children }: { scope: FeedScope; /** Its stream subject (`tag:btc`). */ live: string; children: ReactNode }) {
  const { filter, change } = useFeedParams();
  return (
    <section className="page subject">
      <header className="card subject-head">{children}</header>
      <FeedControls filter={filter} onChange={(next) => change({ filter: next })} />
      <FeedList key={`${filter.sort}-${filter.onlyImportant}`} scope={scope} filter={filter} live={{ subject: live }} />
    </section>
  );
}
