import { type ReactNode, useState } from "react";

import { type FeedScope, NEWEST } from "./api/get-feeds";
import { FeedControls } from "./FeedControls";
import { FeedList } from "./FeedList";

/** One subject's news (a tag, token, topic or KOL): its header, its order and the
 * only-important filter, and the endless list. */
export function FeedTimeline({ scope, live, children }: { scope: FeedScope; /** Its stream subject (`tag:btc`). */ live: string; children: ReactNode }) {
  const [filter, setFilter] = useState(NEWEST);
  return (
    <section className="page subject">
      <header className="card subject-head">{children}</header>
      <FeedControls filter={filter} onChange={setFilter} />
      <FeedList key={`${filter.sort}-${filter.onlyImportant}`} scope={scope} filter={filter} live={{ subject: live }} />
    </section>
  );
}
