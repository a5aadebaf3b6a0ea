import { useTranslation } from "../../lib/i18n";
import { Link, useSearchParams } from "../../lib/router";

import { TabBar } from "../../components/TabBar";
import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/api";
import { C } from "../../lib/core";
import { useLocalePath } from "../../lib/paths";
import { useDocumentTitle } from "../../lib/title";
import { type SearchKind, useSearch } from "./api/search";

const KINDS: SearchKind[] = ["all", "feed", "tag", "token", "kol"];

export function SearchPage() {
  const { t } = useTranslation();
  useDocumentTitle(t("web.nav.search"));
  const to = useLocalePath();
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const kind = (params.get("kind") as SearchKind | null) ?? "all";
  const results = useSearch(q, kind);
  return (
    <section className="page search">
      <form
        role="search"
        key={q}
        onSubmit={(e) => {
          e.preventDefault();
          setParams({ q: String(new FormData(e.currentTarget).get("q") ?? ""), kind });
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
        onChange={(k) => setParams({ q, kind: k })}
      />
      {q.trim() === "" ? (
        <p className="empty">{t("web.search.prompt")}</p>
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
