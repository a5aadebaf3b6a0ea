import { formatUsd } from "../../components/Price";
import type { PriceRule } from "../../lib/core";
import { useTranslation } from "../../lib/i18n";

/** A price rule's fields as typed: numbers stay text until the rule is built. */
export type PriceDraft = { symbol: string; above: string; below: string; move: string; window: string };

export const priceDraft = (rule: PriceRule | null): PriceDraft => {
  const text = (n: number | null) => (n === null ? "" : String(n));
  return { symbol: rule?.symbol ?? "", above: text(rule?.above ?? null), below: text(rule?.below ?? null), move: text(rule?.move_pct ?? null), window: text(rule?.window_minutes ?? null) };
};

/** The rule a draft makes: none without a symbol; an empty number is no line (a malformed one
 * reaches client-core's check as NaN, which it refuses). */
export function priceRule(draft: PriceDraft): PriceRule | null {
  if (!draft.symbol.trim()) return null;
  const number = (text: string) => (text.trim() === "" ? null : Number(text));
  const move_pct = number(draft.move);
  return { symbol: draft.symbol.trim().toUpperCase(), above: number(draft.above), below: number(draft.below), move_pct, window_minutes: move_pct === null ? null : number(draft.window) };
}

/** The editor's price section: a token, the prices to rise above or fall below, a move within a
 * window. */
export function PriceFields({ draft, onChange }: { draft: PriceDraft; onChange: (draft: PriceDraft) => void }) {
  const { t } = useTranslation();
  const field = (key: keyof PriceDraft, label: string, props: { inputMode?: "decimal" | "numeric"; placeholder?: string } = {}) => (
    <label className="field">
      <span>{label}</span>
      <input value={draft[key]} onChange={(e) => onChange({ ...draft, [key]: e.target.value })} {...props} />
    </label>
  );
  return (
    <fieldset className="field price-fields">
      <legend>{t("web.alerts.price")}</legend>
      {field("symbol", t("web.alerts.priceSymbol"), { placeholder: "BTC" })}
      {draft.symbol.trim() && (
        <>
          {field("above", t("web.alerts.priceAbove"), { inputMode: "decimal" })}
          {field("below", t("web.alerts.priceBelow"), { inputMode: "decimal" })}
          {field("move", t("web.alerts.priceMove"), { inputMode: "decimal" })}
          {draft.move.trim() && field("window", t("web.alerts.priceWindow"), { inputMode: "numeric", placeholder: "60" })}
          <small className="muted">{t("web.alerts.priceHelp")}</small>
        </>
      )}
    </fieldset>
  );
}

/** A price rule in a line: `$BTC ↑ $100,000 · ↓ $90,000 · ±5% / 60 min`. */
export function priceSummary(rule: PriceRule, locale: string): string {
  const parts = [`$${rule.symbol}`];
  if (rule.above !== null) parts.push(`↑ ${formatUsd(rule.above, locale)}`);
  if (rule.below !== null) parts.push(`↓ ${formatUsd(rule.below, locale)}`);
  if (rule.move_pct !== null) parts.push(`±${rule.move_pct}% / ${rule.window_minutes ?? 60} min`);
  return parts.join(" · ");
}
