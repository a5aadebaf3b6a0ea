import { useAtomValue } from "jotai";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "../../lib/i18n";
import { cameFromApp, Link, useNavigate, useParams } from "../../lib/router";

import { BottomSheet } from "../../components/BottomSheet";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/errors";
import { localePath } from "../../lib/core";
import { mapLink } from "../../lib/core-more";
import { useLocalePath } from "../../lib/paths";
import { useDocumentTitle } from "../../lib/title";
import { toast } from "../../lib/toast";
import { track } from "../../lib/track";
import { useFeed } from "./api/get-feed";
import { byline, FeedCard } from "./FeedCard";
import { timeAgo } from "../../lib/time";
import { NotFoundPage } from "../../components/NotFoundPage";
import { CommentThread, isShown, threadChanged } from "../comments";
import { useLive } from "../stream";
import { queryClient } from "../../lib/query";
import type { CommentView, FeedDetail } from "../../lib/api-types";
import { userAtom } from "../../lib/session";
import { feedKeys } from "./api/keys";
import { PostTools } from "../posts";
import { FavoriteButton, LikeButton, ReportButton } from "../social";
import { StorySources } from "../stories";
import { TranslationNote } from "../translation";
import { VoteBar } from "../votes";
import { AlertMeLink } from "../../components/AlertMeLink";
import { formatChange, formatUsd, Price } from "../../components/Price";
import { keepForOffline } from "../offline";
import { ImportantBadge } from "./ImportantBadge";

/**
 * The article's HTML with its links mapped by client-core's rule: `blockbrief://` screens become
 * in-app links (locale-prefixed), `external:` and web links open a new window, anything else
 * loses its address.
 */
function articleHtml(html: string, to: (path: string) => string, prices: Map<string, string>): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  markCashtags(doc, prices);
  for (const anchor of doc.querySelectorAll("a[href]")) {
    const target = mapLink(anchor.getAttribute("href") ?? "");
    if (target.kind === "internal") {
      anchor.setAttribute("href", to(target.path));
      anchor.setAttribute("data-internal", "");
      anchor.removeAttribute("target");
    } else if (target.kind === "external") {
      anchor.setAttribute("href", target.url);
      anchor.setAttribute("target", "_blank");
      anchor.setAttribute("rel", "noopener noreferrer nofollow");
    } else {
      anchor.removeAttribute("href");
    }
  }
  return doc.body.innerHTML;
}

/**
 * `$SYMBOL` of a token the item names, in the article's text, shows its price on hover or on a
 * tap (focus): the text stays text, with the price in an attribute the stylesheet shows.
 */
function markCashtags(doc: Document, prices: Map<string, string>): void {
  if (prices.size === 0) return;
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    if (text.parentElement?.closest("a, code, pre")) continue;
    const parts = (text.textContent ?? "").split(/(\$[A-Z][A-Z0-9]{1,9}\b)/);
    if (parts.length === 1) continue;
    const pieces = parts.map((part) => {
      const price = part.startsWith("$") ? prices.get(part.slice(1)) : undefined;
      if (!price) return doc.createTextNode(part);
      const tag = doc.createElement("span");
      tag.className = "cashtag";
      tag.tabIndex = 0;
      tag.dataset.price = price;
      tag.textContent = part;
      return tag;
    });
    text.replaceWith(...pieces);
  }
}

export function FeedPage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const feed = useFeed(Number(id));
  const me = useAtomValue(userAtom)?.id;
  // Words the reader selects in the article (by mouse, touch or keyboard): "Alert me about" them.
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    const changed = () => {
      const selection = getSelection();
      const inArticle = selection?.anchorNode?.parentElement?.closest(".article-body");
      const words = inArticle ? selectedWords() : null;
      if (words) setSelected(words);
    };
    document.addEventListener("selectionchange", changed);
    return () => document.removeEventListener("selectionchange", changed);
  }, []);
  // Others' new comments, waiting under an "N new" pill so the thread does not move under the
  // reader; edits of what is on screen and the reader's own comments show at once.
  const [fresh, setFresh] = useState<number[]>([]);
  const subject = { kind: "feed", id: Number(id) } as const;
  const showFresh = () => {
    threadChanged(subject);
    setFresh([]);
  };
  // The open thread is live: new comments and counts without a reload.
  useLive(id ? { subject: `feed:${Number(id)}` } : null, (event, data) => {
    if (event === "reset") showFresh();
    // Taken down while open: the page asks again, and says it is gone.
    if (event === "removed" && (data as { feed_id: number }).feed_id === subject.id) void queryClient.invalidateQueries({ queryKey: feedKeys.item(subject.id) });
    if (event === "comment") {
      const comment = data as CommentView;
      if (comment.user?.id === me || isShown(subject, comment.id)) threadChanged(subject);
      else setFresh((waiting) => (waiting.includes(comment.id) ? waiting : [...waiting, comment.id]));
    }
    if (event !== "counts") return;
    const counts = data as { feed_id: number; like_count: number; comment_count: number };
    if (counts.feed_id !== subject.id) return;
    queryClient.setQueriesData<FeedDetail>({ queryKey: feedKeys.item(subject.id) }, (old) =>
      old ? { ...old, like_count: counts.like_count, comment_count: counts.comment_count } : old,
    );
  });
  // "Show original": the original came with the item, so the toggle asks nothing.
  const [showOriginal, setShowOriginal] = useState(false);
  const original = showOriginal ? feed.data?.original : undefined;
  const content = original?.content ?? feed.data?.content;
  const tokens = feed.data?.tokens;
  const language = i18n.language;
  // Parsed once per article and language, not on every render (the share sheet re-renders).
  const body = useMemo(() => {
    if (content === undefined) return "";
    const prices = new Map<string, string>();
    for (const token of tokens ?? []) {
      if (!token.price) continue;
      const change = token.price.change_24h_pct;
      const move = change === null ? "" : ` ${formatChange(change, language)}`;
      prices.set(token.symbol, `${formatUsd(token.price.usd, language)}${move}`);
    }
    return articleHtml(content, (path) => localePath(language, path), prices);
  }, [content, tokens, language]);
  useDocumentTitle(feed.data?.title);
  const [sharing, setSharing] = useState(false);
  useEffect(() => track("view", "feed", { id: String(id) }), [id]);
  // Opened items stay readable offline.
  useEffect(() => {
    if (feed.data) keepForOffline(feed.data);
  }, [feed.data]);
  if (!/^\d+$/.test(id ?? "") || (feed.isError && isNotFound(feed.error))) return <NotFoundPage />;
  if (feed.isPending) return <Spinner />;
  if (feed.isError) return <p className="empty">{messageOf(feed.error)}</p>;
  const item = feed.data;
  return (
    <article className="page feed-page">
      <button type="button" className="link-button back" onClick={() => (cameFromApp() ? history.back() : navigate(to("/")))}>
        ← {t("web.common.back")}
      </button>
      <div className="card-meta">
        <ImportantBadge item={item} />
        {item.user ? (
          <Link to={to(`/user/${item.user.id}`)}>{item.user.nickname}</Link>
        ) : (
          <span>{byline(item)}</span>
        )}
        <time>{timeAgo(item.published_at, t)}</time>
        <span>{t("web.feed.views", { count: item.views })}</span>
      </div>
      <h1 lang={original ? item.lang : item.shown_lang}>{original?.title ?? item.title}</h1>
      {item.translated && (
        <TranslationNote
          lang={item.lang}
          hasOriginal={item.original !== undefined}
          showing={showOriginal}
          onToggle={() => setShowOriginal((on) => !on)}
        />
      )}
      <div
        className="article-body"
        onClick={(e) => {
          // In-app links (written by `articleHtml`) navigate in place on a plain click.
          const anchor = (e.target as HTMLElement).closest<HTMLAnchorElement>("a[data-internal]");
          const modified = e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0;
          if (!anchor || modified) return;
          e.preventDefault();
          navigate(anchor.getAttribute("href") ?? "/");
        }}
        // Sanitized by the server (ammonia) when it was stored; its links mapped here.
        dangerouslySetInnerHTML={{ __html: body }}
      />
      {selected && (
        <div className="selection-alert">
          <AlertMeLink kind="keyword" value={selected} label={t("web.alerts.alertMeAbout", { words: selected })} />
        </div>
      )}
      {item.kind === "post" && item.images.length > 0 && (
        <div className="post-gallery">
          {item.images.map((src) => (
            <a key={src} href={src} target="_blank" rel="noopener noreferrer">
              <img src={src} alt="" loading="lazy" />
            </a>
          ))}
        </div>
      )}
      {item.kind === "post" && <PostTools item={item} />}
      <div className="card-tags">
        {item.tags.map((tag) => (
          <Link key={tag.id} className="chip" to={to(`/tag/${encodeURIComponent(tag.code)}`)}>#{tag.name}</Link>
        ))}
        {item.tokens.map((token) => (
          <Link key={token.id} className="chip token" to={to(`/token/${encodeURIComponent(token.symbol)}`)}>
            ${token.symbol}
            {token.price && <Price quote={token.price} compact />}
          </Link>
        ))}
      </div>
      <VoteBar key={`${item.id}:${item.mine?.join() ?? ""}`} id={item.id} votes={item.votes} mine={item.mine} />
      {item.story && <StorySources key={item.id} story={item.story} itemId={item.id} />}
      <div className="feed-actions">
        <LikeButton key={`${item.id}:${item.liked}`} kind="feed" id={item.id} liked={item.liked ?? false} count={item.like_count} author={item.user?.id} />
        <FavoriteButton key={`${item.id}:${item.favorited}`} feedId={item.id} favorited={item.favorited ?? false} />
        {item.kind !== "post" && (
          <a className="button ghost" href={item.source_url} target="_blank" rel="noopener noreferrer">{t("web.feed.source")}</a>
        )}
        <button type="button" className="button" onClick={() => setSharing(true)}>{t("web.feed.share")}</button>
        {item.kind === "post" && item.user && item.user.id !== me && <ReportButton kind="post" id={item.id} />}
      </div>
      <BottomSheet open={sharing} title={t("web.feed.share")} onClose={() => setSharing(false)}>
        <ShareList title={item.title} onDone={() => setSharing(false)} />
      </BottomSheet>
      {fresh.length > 0 && (
        <button type="button" className="new-pill" onClick={showFresh}>
          {t("web.comments.fresh", { count: fresh.length })}
        </button>
      )}
      <CommentThread subject={subject} count={item.comment_count} />
      {item.related.length > 0 && (
        <section className="related">
          <h2>{t("web.feed.related")}</h2>
          {item.related.map((r) => (
            <FeedCard key={r.id} item={r} />
          ))}
        </section>
      )}
    </article>
  );
}

function ShareList({ title, onDone }: { title: string; onDone: () => void }) {
  const { t } = useTranslation();
  const url = encodeURIComponent(location.href);
  const text = encodeURIComponent(title);
  const targets = [
    ["Telegram", `https://t.me/share/url?url=${url}&text=${text}`],
    ["X", `https://x.com/intent/post?url=${url}&text=${text}`],
    ["LINE", `https://social-plugins.line.me/lineit/share?url=${url}`],
  ];
  return (
    <div className="share-list">
      <button
        type="button"
        className="button"
        onClick={() => {
          void navigator.clipboard?.writeText(location.href).then(() => toast("success", t("web.feed.copied")));
          onDone();
        }}
      >
        {t("web.feed.copyLink")}
      </button>
      {targets.map(([name, href]) => (
        <a key={name} className="button ghost" href={href} target="_blank" rel="noopener noreferrer" onClick={onDone}>
          {name}
        </a>
      ))}
    </div>
  );
}

/** The words selected on the page, when they could be an alert's keyword (1 to 60 characters). */
function selectedWords(): string | null {
  const words = window.getSelection()?.toString().trim().replace(/\s+/g, " ") ?? "";
  return words.length > 0 && [...words].length <= 60 ? words : null;
}
