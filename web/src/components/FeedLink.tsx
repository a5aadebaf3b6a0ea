import { feedPath, type Locale } from "../lib/core";
import { useTranslation } from "../lib/i18n";

/** A link to a tag's, token's or channel's RSS feed, in the reader's language. */
export function FeedLink(props: { kind: "tag" | "token" | "channel"; code: string }) {
  const { t, i18n } = useTranslation();
  return (
    <a
      className="feed-link"
      href={feedPath(i18n.language as Locale, props.kind, props.code, false)}
      type="application/rss+xml"
      title={t("web.rss.hint")}
      aria-label={t("web.rss.label")}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <circle cx="6" cy="18" r="2" fill="currentColor" />
        <path d="M4 10a10 10 0 0 1 10 10h-3a7 7 0 0 0-7-7zm0-6a16 16 0 0 1 16 16h-3A13 13 0 0 0 4 7z" fill="currentColor" />
      </svg>
      <span>RSS</span>
    </a>
  );
}
