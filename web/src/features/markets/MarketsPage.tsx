import { useAtomValue } from "jotai";

import { formatCompactUsd, Price } from "../../components/Price";
import { Spinner } from "../../components/ui";
import { messageOf } from "../../lib/errors";
import type { MarketToken, MarketView } from "../../lib/api-types";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLocalePath } from "../../lib/paths";
import { userAtom } from "../../lib/session";
import { Link } from "../../lib/router";
import { timeAgo } from "../../lib/time";
import { useDocumentTitle } from "../../lib/title";
import { useFollowedTokens, useOverview } from "./api/markets";
import { PriceChart, Sparkline } from "./Chart";

/** `/markets`: the day's movers and the tokens the news names most, beside their prices. */
export function MarketsPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  useDocumentTitle(t("web.markets.title"));
  const overview = useOverview();
  const followed = useFollowedTokens(useAtomValue(userAtom) !== null);
  if (overview.isPending) return <Spinner />;
  if (overview.isError) return <p className="empty">{messageOf(overview.error)}</p>;
  const { gainers, losers, most_mentioned: mentioned, as_of } = overview.data;
  const demo = [...gainers, ...losers, ...mentioned].some((row) => row.price.demo);
  return (
    <section className="page markets">
      <div className="page-head">
        <h1>{t("web.markets.title")}</h1>
        <Link to={to("/presales")}>{t("web.presales.title")}</Link>
        {as_of !== null && (
          <p className="meta">
            {t("web.markets.asOf", { ago: timeAgo(as_of, t) })}
            {demo && <span className="badge demo">{t("web.markets.demo")}</span>}
          </p>
        )}
      </div>
      {as_of === null && <p className="empty">{t("web.markets.none")}</p>}
      <MarketTable title={t("web.markets.followed")} rows={followed.data?.list ?? []} mentions />
      <MarketTable title={t("web.markets.mostMentioned")} rows={mentioned} mentions />
      <MarketTable title={t("web.markets.gainers")} rows={gainers} />
      <MarketTable title={t("web.markets.losers")} rows={losers} />
    </section>
  );
}

function MarketTable({ title, rows, mentions = false }: { title: string; rows: MarketToken[]; mentions?: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  if (rows.length === 0) return null;
  return (
    <section className="market-table card">
      <h2>{title}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("web.markets.token")}</th>
            <th scope="col">{t("web.markets.price")}</th>
            <th scope="col" className="wide">{t("web.markets.lastDay")}</th>
            {mentions && <th scope="col">{t("web.markets.mentions")}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="market-row">
              <th scope="row">
                <Link to={to(`/token/${encodeURIComponent(row.symbol)}`)}>
                  <strong>{row.symbol}</strong> <span className="meta">{row.name}</span>
                </Link>
              </th>
              <td><Price quote={row.price} /></td>
              <td className="wide"><Sparkline symbol={row.symbol} /></td>
              {mentions && <td>{t("web.markets.mentionCount", { count: row.mentions, n: formatNumber(row.mentions) })}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A token's price, market figures and chart, on its page. */
export function TokenMarket({ symbol, market }: { symbol: string; market: MarketView | null }) {
  const { t, i18n } = useTranslation();
  if (!market) return null;
  return (
    <section className="token-market card" aria-label={t("web.markets.market")}>
      <div className="token-price">
        <Price quote={market} />
        {market.demo && <span className="badge demo">{t("web.markets.demo")}</span>}
      </div>
      <dl className="market-figures">
        {market.market_cap !== null && (
          <div><dt>{t("web.markets.marketCap")}</dt><dd>{formatCompactUsd(market.market_cap, i18n.language)}</dd></div>
        )}
        {market.volume_24h !== null && (
          <div><dt>{t("web.markets.volume")}</dt><dd>{formatCompactUsd(market.volume_24h, i18n.language)}</dd></div>
        )}
      </dl>
      <PriceChart symbol={symbol} />
    </section>
  );
}
