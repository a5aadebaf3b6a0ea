import { useQueryClient } from "@tanstack/react-query";

import { useTranslation } from "../../lib/i18n";
import { Link } from "../../lib/router";

import { useLocalePath } from "../../lib/paths";
import { track } from "../../lib/track";
import type { FeedView } from "../../lib/api-types";
import { cardLayout } from "../../lib/core";
import { timeAgo } from "../../lib/time";
import { StorySources } from "../stories";
import { translatedFrom } from "../translation";
import { VoteBar } from "../votes";
import { feedKeys } from "./api/keys";
import { ImportantBadge } from "./ImportantBadge";

/** Who wrote it: the reader of a post, else the author, else the source (as the first paint says). */
export const byline = (item: FeedView) => item.user?.nickname ?? item.author?.name ?? item.source_name;

/** The card; the server writes the same markup for the home page's first paint (`first_paint.rs`),
 * and a Chromium spec compares the two. */
export function FeedCard({ item }: { item: FeedView }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const queryClient = useQueryClient();
  const layout = cardLayout(item.kind, item.summary, item.tags.length);
  return (
    <article className={`card feed-card ${item.kind}${item.important ? " important" : ""}`}>
      <div className="card-meta">
        <ImportantBadge item={item} />
        <span className="kind">{byline(item)}</span>
        <time dateTime={new Date(item.published_at * 1000).toISOString()}>{timeAgo(item.published_at, t)}</time>
      </div>
      <h3 className="card-title">
        <Link to={to(`/feed/${item.id}`)} onClick={() => track("click", "feed_card", { id: String(item.id) })}>
          {item.title}
        </Link>
      </h3>
      {layout.showsSummary ? <p className="card-summary">{item.summary}</p> : null}
      <div className="card-tags">
        {item.tags.slice(0, layout.tagCount).map((tag) => (
          <Link key={tag.id} className="chip" to={to(`/tag/${encodeURIComponent(tag.code)}`)}>
            #{tag.name}
          </Link>
        ))}
        {item.translated && (
          <span className="translated">{translatedFrom(item.lang, t)}</span>
        )}
      </div>
      <div className="card-stats">
        <span aria-label={t("web.social.likeCount", { count: item.like_count })}>♡ {item.like_count}</span>
        <span aria-label={t("web.social.commentCount", { count: item.comment_count })}>💬 {item.comment_count}</span>
      </div>
      <VoteBar id={item.id} votes={item.votes} mine={item.mine} onVoted={() => void queryClient.invalidateQueries({ queryKey: feedKeys.item(item.id) })} />
      {item.story && <StorySources story={item.story} itemId={item.id} />}
    </article>
  );
}
