import type { Quote } from "../lib/api-types";
import { numberFormat, useTranslation } from "../lib/i18n";
import { timeAgo } from "../lib/time";

/** US dollars in the reader's language: small prices keep their significant digits. */
export function formatUsd(usd: number, locale: string): string {
  const digits = usd >= 1 ? { maximumFractionDigits: 2 } : { maximumSignificantDigits: 4 };
  return numberFormat(locale, `usd${usd >= 1}`, { style: "currency", currency: "USD", ...digits }).format(usd);
}

/** Large dollar amounts, compact (`$1.9T`, `1.9兆美元`). */
export function formatCompactUsd(usd: number, locale: string): string {
  return numberFormat(locale, "compact", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 2 }).format(usd);
}

/** A change in percent with its sign (`+4.25%`, `−2.5%`). */
export function formatChange(pct: number, locale: string): string {
  return numberFormat(locale, "change", { style: "percent", signDisplay: "exceptZero", maximumFractionDigits: 2 }).format(pct / 100);
}

/** `up`, `down` or `flat`: the colour of a change. */
export const trend = (pct: number | null) => (pct === null || pct === 0 ? "flat" : pct > 0 ? "up" : "down");

/** A price and its 24 h change, with the quote's age (and "demo") on hover. */
export function Price({ quote, compact = false }: { quote: Quote; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const age = t("web.markets.asOf", { ago: timeAgo(quote.as_of, t) });
  const title = quote.demo ? `${age} · ${t("web.markets.demo")}` : age;
  return (
    <span className={`price${compact ? " compact" : ""}`} title={title} data-testid="price">
      <span className="usd">{formatUsd(quote.usd, i18n.language)}</span>
      {quote.change_24h_pct !== null && (
        <span className={`change ${trend(quote.change_24h_pct)}`}>
          {quote.change_24h_pct > 0 ? "▲" : quote.change_24h_pct < 0 ? "▼" : ""} {formatChange(quote.change_24h_pct, i18n.language)}
        </span>
      )}
    </span>
  );
}
