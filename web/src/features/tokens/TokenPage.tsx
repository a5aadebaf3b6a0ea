import { AlertMeLink } from "../../components/AlertMeLink";
import { FeedLink } from "../../components/FeedLink";
import { FollowButton } from "../../components/FollowButton";
import { NotFoundPage } from "../../components/NotFoundPage";
import { Spinner } from "../../components/ui";
import { isNotFound, messageOf } from "../../lib/errors";
import { useTranslation } from "../../lib/i18n";
import { useFollow } from "../../lib/follow";
import { useParams } from "../../lib/router";
import { useDocumentTitle } from "../../lib/title";
import { FeedTimeline } from "../feed";
import { TokenMarket } from "../markets";
import { SentimentBar } from "../votes";
import { tokenKeys, useToken } from "./api/get-token";

/** `/token/{symbol}`: the token, its chain and its news. */
export function TokenPage() {
  const { symbol = "" } = useParams();
  const { t } = useTranslation();
  const token = useToken(symbol);
  useDocumentTitle(token.data && `${token.data.name} (${token.data.symbol})`);
  if (token.isPending) return <Spinner />;
  if (token.isError) return isNotFound(token.error) ? <NotFoundPage /> : <p className="empty">{messageOf(token.error)}</p>;
  const view = token.data;
  return (
    <FeedTimeline scope={{ token_id: view.id }} live={`token:${view.symbol}`}>
      <div>
        <h1>
          {view.name} <span className="symbol">${view.symbol}</span>
        </h1>
        <p className="meta">
          {t("web.subject.chain", { chain: view.chain })} · {t("web.subject.followers", { count: view.follower_count })}
        </p>
      </div>
      <TokenMarket symbol={view.symbol} market={view.market} />
      <SentimentBar symbol={view.symbol} />
      <div className="subject-actions">
        <FeedLink kind="token" code={view.symbol} />
        <AlertMeLink kind="token" value={view.symbol} />
        {view.market && <AlertMeLink kind="price" value={view.symbol} label={t("web.alerts.priceAlert")} />}
        <TokenFollow id={view.id} />
      </div>
    </FeedTimeline>
  );
}

function TokenFollow({ id }: { id: number }) {
  const { following, toggle } = useFollow("token", id, tokenKeys.details());
  return <FollowButton following={following} busy={toggle.isPending} onToggle={(follow) => toggle.mutate(follow)} />;
}
