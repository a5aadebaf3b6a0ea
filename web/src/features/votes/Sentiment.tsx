import { formatChange } from "../../components/Price";
import { useTranslation } from "../../lib/i18n";
import { useSentiment } from "./api/votes";

/** Readers' bullish and bearish votes on a token's news in the last day, as a bar. */
export function SentimentBar({ symbol }: { symbol: string }) {
  const { t, i18n } = useTranslation();
  const sentiment = useSentiment(symbol);
  const s = sentiment.data;
  if (!s) return null;
  const total = s.bullish + s.bearish;
  const share = (n: number) => formatChange(n * 100, i18n.language).replace(/^\+/, "");
  return (
    <section className="sentiment" aria-label={t("web.votes.sentiment")} data-testid="sentiment">
      <h2>{t("web.votes.sentiment")}</h2>
      {total === 0 ? (
        <p className="muted">{t("web.votes.noVotes")}</p>
      ) : (
        <>
          <div className="sentiment-bar" role="img" aria-label={t("web.votes.shares", { bullish: share(s.bullish_share), bearish: share(s.bearish_share) })}>
            <span className="up" style={{ width: `${s.bullish_share * 100}%` }} />
            <span className="down" style={{ width: `${s.bearish_share * 100}%` }} />
          </div>
          <p className="muted">{t("web.votes.shares", { bullish: share(s.bullish_share), bearish: share(s.bearish_share) })} · {t("web.votes.count", { count: total })}</p>
        </>
      )}
    </section>
  );
}
