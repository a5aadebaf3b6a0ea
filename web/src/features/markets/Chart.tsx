import { useState } from "react";

import { formatUsd, trend } from "../../components/Price";
import { useTranslation } from "../../lib/i18n";
import { useHistory } from "./api/markets";

const RANGES = [1, 7, 30] as const;

/** The points as an SVG path over `width`×`height`. */
function path(points: [number, number][], width: number, height: number): string {
  const [t0, t1] = [points[0][0], points[points.length - 1][0]];
  const prices = points.map(([, usd]) => usd);
  const [low, high] = [Math.min(...prices), Math.max(...prices)];
  const x = (t: number) => ((t - t0) / Math.max(1, t1 - t0)) * width;
  const y = (usd: number) => height - ((usd - low) / Math.max(high - low, Number.EPSILON)) * height;
  return points.map(([t, usd], i) => `${i === 0 ? "M" : "L"}${x(t).toFixed(1)},${y(usd).toFixed(1)}`).join("");
}

/** A small line of a token's last day, for tables. */
export function Sparkline({ symbol }: { symbol: string }) {
  const history = useHistory(symbol, 1);
  const points = history.data?.points ?? [];
  if (points.length < 2) return <span className="sparkline" />;
  const change = points[points.length - 1][1] - points[0][1];
  return (
    <svg className={`sparkline ${trend(change)}`} viewBox="0 0 80 24" width="80" height="24" aria-hidden="true">
      <path d={path(points, 80, 24)} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}

/** A token's chart over 1, 7 or 30 days, with its range chosen by the reader. */
export function PriceChart({ symbol }: { symbol: string }) {
  const { t, i18n } = useTranslation();
  const [days, setDays] = useState<(typeof RANGES)[number]>(7);
  const history = useHistory(symbol, days);
  const points = history.data?.points ?? [];
  const prices = points.map(([, usd]) => usd);
  return (
    <figure className="price-chart">
      <div className="segmented" role="group" aria-label={t("web.markets.range")}>
        {RANGES.map((range) => (
          <button key={range} type="button" aria-pressed={days === range} onClick={() => setDays(range)}>
            {t("web.markets.days", { count: range })}
          </button>
        ))}
      </div>
      {points.length < 2 ? (
        <p className="empty">{t("web.markets.noChart")}</p>
      ) : (
        <svg viewBox="0 0 600 160" preserveAspectRatio="none" role="img" data-testid="chart" data-points={points.length}
          aria-label={t("web.markets.chartLabel", { symbol, low: formatUsd(Math.min(...prices), i18n.language), high: formatUsd(Math.max(...prices), i18n.language) })}>
          <path className={trend(prices[prices.length - 1] - prices[0])} d={path(points, 600, 160)} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
        </svg>
      )}
    </figure>
  );
}
