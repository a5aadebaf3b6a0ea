import { useState } from "react";

import { useTranslation } from "../../lib/i18n";
import { Link, useSearchParams } from "../../lib/router";

import { TabBar } from "../../components/TabBar";
import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import { C } from "../../lib/core";
import { useLocalePath } from "../../lib/paths";
import { timeAgo } from "../../lib/time";
import { useDocumentTitle } from "../../lib/title";
import { type SearchKind, type SearchSort, useSearch, useTrendingTags } from "./api/search";
import { forgetSearches, readRecent, rememberSearch } from "./recent";

const KINDS: SearchKind[] = ["all", "feed", "tag", "token", "kol"];
const SORTS: SearchSort[] = ["relevance", "new", "hot", "rising"];
/** Kinds whose results can be ordered by time or score: news. */
const sortable = (kind: SearchKind) => kind === "all" || kind === "feed";

export function SearchPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("web.nav.search"));
  const to = useLocalePath();
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [recent, setRecent] = useState(readRecent);
  const kind = (params.get("kind") as SearchKind | null) ?? "all";
  const asked = params.get("sort") as SearchSort | null;
  const sort = asked && SORTS.includes(asked) && sortable(kind) ? asked : "relevance";
  // The address keeps the query, kind and order (Back and shared links return to the same list).
  const go = (next: { q?: string; kind?: SearchKind; sort?: SearchSort }) => {
    const k = next.kind ?? kind;
    const s = sortable(k) ? (next.sort ?? sort) : "relevance";
    if (next.q !== undefined) setRecent(rememberSearch(next.q));
    setParams({ q: next.q ?? q, kind: k, ...(s === "relevance" ? {} : { sort: s }) });
  };
  const results = useSearch(q, kind, sort);
  return (
    <section className="page search">
      <form
        role="search"
        key={q}
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: String(new FormData(e.currentTarget).get("q") ?? "") });
        }}
      >
        <input
          type="search"
          name="q"
          aria-label={t("web.nav.search")}
          placeholder={t("web.search.placeholder")}
          defaultValue={q}
          maxLength={C.searchQueryMaxChars}
        />
        <button type="submit" className="button">{t("web.nav.search")}</button>
      </form>
      <TabBar
        label={t("web.nav.search")}
        items={KINDS.map((k) => ({ key: k, label: t(`web.search.kinds.${k}`) }))}
        value={kind}
        onChange={(k) => go({ kind: k })}
      />
      {sortable(kind) && (
        <div className="segmented" role="group" aria-label={t("web.feed.sort.label")}>
          {SORTS.map((s) => (
            <button key={s} type="button" aria-pressed={sort === s} onClick={() => go({ sort: s })}>
              {s === "relevance" ? t("web.search.relevance") : t(`web.feed.sort.${s}`)}
            </button>
          ))}
        </div>
      )}
      {q.trim() === "" ? (
        <Suggestions
          recent={recent}
          onPick={(picked) => go({ q: picked })}
          onForget={() => {
            forgetSearches();
            setRecent([]);
          }}
        />
      ) : results.isPending ? (
        <Spinner />
      ) : results.isError ? (
        // The server judges the query (too short, too long, only punctuation) and says why.
        <p className="empty" role="alert">{messageOf(results.error)}</p>
      ) : (
        <ul className="hits">
          {results.data.pages.flatMap((p) => p.list).map((hit) => (
            <li key={`${hit.kind}-${hit.id}`} className="card hit">
              <span className="badge">{t(`web.search.kinds.${hit.kind}`)}</span>
              <Link to={to(hit.path)}>{hit.title}</Link>
              {hit.published_at !== undefined && (
                <time dateTime={new Date(hit.published_at * 1000).toISOString()}>{timeAgo(hit.published_at, t)}</time>
              )}
              {/* HTML-escaped by the server, with matches in <mark>. */}
              <p dangerouslySetInnerHTML={{ __html: hit.snippet }} />
            </li>
          ))}
          {results.data.pages[0].list.length === 0 && <p className="empty">{t("web.search.empty", { q })}</p>}
          {results.hasNextPage && (
            <button type="button" className="button ghost" onClick={() => void results.fetchNextPage()}>
              {t("web.explore.more")}
            </button>
          )}
        </ul>
      )}
    </section>
  );
}

/** The empty page: the reader's recent searches (kept in this browser) and the day's trending
 * tags, each a search away. */
function Suggestions({ recent, onPick, onForget }: { recent: string[]; onPick: (q: string) => void; onForget: () => void }) {
  const { t } = useTranslation();
  const trending = useTrendingTags(true).data?.list ?? [];
  return (
    <div className="search-suggestions">
      <p className="empty">{t("web.search.prompt")}</p>
      {recent.length > 0 && (
        <section aria-labelledby="recent-searches">
          <div className="panel-head">
            <h2 id="recent-searches">{t("web.search.recent")}</h2>
            <button type="button" className="link-button" onClick={onForget}>{t("web.search.forget")}</button>
          </div>
          <div className="chips">
            {recent.map((q) => (
              <button key={q} type="button" className="chip" onClick={() => onPick(q)}>{q}</button>
            ))}
          </div>
        </section>
      )}
      {trending.length > 0 && (
        <section aria-labelledby="trending-tags">
          <h2 id="trending-tags">{t("web.search.trending")}</h2>
          <div className="chips">
            {trending.map((tag) => (
              <button key={tag.id} type="button" className="chip" onClick={() => onPick(tag.name)}>#{tag.name}</button>
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
