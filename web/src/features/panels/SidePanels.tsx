import { useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import type { ReactNode } from "react";

import { Price } from "../../components/Price";
import { call } from "../../lib/api";
import type { FeedView, MarketToken, Page, QuestionView } from "../../lib/api-types";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { Link } from "../../lib/router";
import { userAtom } from "../../lib/session";
import { timeAgo } from "../../lib/time";
import { useFollowedTokens, useOverview } from "../markets";
import { useFollowedTags } from "../tags";

/** How many rows a panel shows, and how long its list is kept before it is asked again. */
const ROWS = 5;
const PANEL_LIFE_MS = 60_000;

/** The wide screen's right column: what is hot now, the market, hot questions and the reader's
 * follows. Loaded only where the screen is wide enough (the shell decides), so a phone neither
 * downloads nor asks for any of it. */
export default function SidePanels() {
  const { t } = useTranslation();
  const signedIn = useAtomValue(userAtom) !== null;
  return (
    <aside className="side-panels" aria-label={t("web.panels.label")}>
      <Trending />
      <MarketPanel />
      <HotQuestions />
      {signedIn && <Follows />}
    </aside>
  );
}

function Panel({ id, title, more, children }: { id: string; title: string; more?: ReactNode; children: ReactNode }) {
  return (
    <section className="card panel" aria-labelledby={`panel-${id}`} data-testid={`panel-${id}`}>
      <div className="panel-head">
        <h2 id={`panel-${id}`}>{title}</h2>
        {more}
      </div>
      {children}
    </section>
  );
}

/** The first rows of a list call, in the reader's language, kept a minute. */
function usePanelList<T>(path: string, body: object) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ["panels", path, i18n.language],
    queryFn: () => call<Page<T>>(path, { ...body, limit: ROWS }),
    staleTime: PANEL_LIFE_MS,
  });
}

function Trending() {
  const { t } = useTranslation();
  const to = useLocalePath();
  // The hot ranking: reads, comments, likes and votes of the last hours, over age.
  const hot = usePanelList<FeedView>("/feed/list", { sort: "hot" });
  const list = hot.data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <Panel id="trending" title={t("web.panels.trending")} more={<Link to={`${to("/")}?sort=hot`}>{t("web.panels.more")}</Link>}>
      <ol className="panel-list ranked">
        {list.map((item) => (
          <li key={item.id}>
            <Link to={to(`/feed/${item.id}`)}>{item.title}</Link>
            <span className="meta">
              {timeAgo(item.published_at, t)} · {t("web.feed.views", { count: item.views })}
            </span>
          </li>
        ))}
      </ol>
    </Panel>
  );
}

function MarketPanel() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const overview = useOverview();
  // Room for prices only when there are some.
  const rows = overview.data?.most_mentioned.slice(0, ROWS) ?? [];
  if (rows.length === 0) return null;
  return (
    <Panel id="market" title={t("web.panels.market")} more={<Link to={to("/markets")}>{t("web.panels.more")}</Link>}>
      <ul className="panel-list">
        {rows.map((row) => <TokenRow key={row.id} token={row} />)}
      </ul>
    </Panel>
  );
}

/** A token and its price, linking to its page. */
function TokenRow({ token }: { token: MarketToken }) {
  const to = useLocalePath();
  return (
    <li className="panel-row">
      <Link to={to(`/token/${encodeURIComponent(token.symbol)}`)}><strong>{token.symbol}</strong></Link>
      <Price quote={token.price} compact />
    </li>
  );
}

function HotQuestions() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const hot = usePanelList<QuestionView>("/question/list", { sort: "hot" });
  if (!hot.data) return null;
  const list = hot.data.list;
  return (
    <Panel id="questions" title={t("web.panels.questions")} more={<Link to={to("/questions")}>{t("web.panels.more")}</Link>}>
      {list.length === 0 && (
        <p className="meta">
          {t("web.panels.noQuestions")} <Link to={to("/ask")}>{t("web.panels.ask")}</Link>
        </p>
      )}
      <ul className="panel-list">
        {list.map((q) => (
          <li key={q.id}>
            <Link to={to(`/question/${q.id}`)}>{q.title}</Link>
            <span className="meta">
              {t("web.questions.answers", { count: q.answer_count })}
              {q.bounty_state === "open" && <> · {t("web.panels.bounty", { n: formatNumber(q.bounty) })}</>}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function Follows() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const tags = useFollowedTags().data?.list ?? [];
  const tokens = useFollowedTokens(true).data?.list ?? [];
  return (
    <Panel id="follows" title={t("web.panels.follows")}>
      {tags.length === 0 && tokens.length === 0 ? (
        <p className="meta">
          {t("web.panels.noFollows")} <Link to={to("/recommendTag")}>{t("web.panels.findTags")}</Link>
        </p>
      ) : (
        <>
          <ul className="panel-list">
            {tokens.slice(0, ROWS).map((token) => <TokenRow key={token.id} token={token} />)}
          </ul>
          <div className="chips">
            {tags.map((tag) => (
              <Link key={tag.id} className="chip" to={to(`/tag/${encodeURIComponent(tag.code)}`)}>#{tag.name}</Link>
            ))}
          </div>
        </>
      )}
    </Panel>
  );
}
