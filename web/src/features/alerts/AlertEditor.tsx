import { useMemo, useState } from "react";

import { messageOf } from "../../lib/errors";
import type { AlertView } from "../../lib/api-types";
import { type AlertRule } from "../../lib/core";
import { checkAlertRule, countAlertMatches } from "../../lib/core-more";
import { formatNumber, useTranslation } from "../../lib/i18n";
import { useLinks } from "../../lib/linking";
import { type AlertInput, newRule, useSample } from "./api/alerts";
import { PriceFields, priceDraft, priceRule } from "./PriceFields";

const DELIVERIES = ["push", "email", "telegram", "line"] as const;
/** A price crossing has no item to carry: it goes to browsers and email, at once. */
const PRICE_DELIVERIES: readonly string[] = ["push", "email"];

/** Words as typed, split on commas and line breaks (a quoted phrase keeps its spaces). */
const words = (text: string) =>
  text
    .split(/[,\n]/)
    .map((w) => w.trim())
    .filter(Boolean);

/** Creates or edits an alert: what to match, where and when; the count of last week's items it
 * matches shows as the reader types, counted in the browser by the same rule the server uses. */
export function AlertEditor({ editing, seed, onSaved, onCancel }: { editing?: AlertView; seed?: Partial<AlertRule>; onSaved: (alert: AlertInput) => Promise<unknown>; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const start = editing?.rule ?? newRule(seed);
  const [name, setName] = useState(editing?.name ?? "");
  const [keywords, setKeywords] = useState(start.keywords.join(", "));
  const [tokens, setTokens] = useState(start.tokens.join(", "));
  const [tags, setTags] = useState(start.tags.join(", "));
  const [important, setImportant] = useState(start.only_important);
  const [deliver, setDeliver] = useState<AlertInput["deliver"]>(editing?.deliver ?? ["push"]);
  const [mode, setMode] = useState<AlertInput["mode"]>(editing?.mode ?? "instant");
  const [quiet, setQuiet] = useState(editing?.quiet ?? null);
  const [price, setPrice] = useState(priceDraft(start.price));
  const [error, setError] = useState<string | null>(null);
  const rule: AlertRule = { ...start, keywords: words(keywords), tokens: words(tokens), tags: words(tags), only_important: important, price: priceRule(price) };
  // Keywords that name a token (by the rule the server links items with) offer the token itself,
  // which also matches items that name it another way ("比特币", "$BTC").
  const linked = useLinks(i18n.language, keywords);
  const named = (linked?.links.tokens ?? [])
    .map((id) => linked?.catalogue.tokens.find((k) => k.id === id)?.symbol)
    .filter((s): s is string => !!s && !rule.tokens.some((k) => k.toUpperCase() === s));
  const pricing = rule.price !== null;
  const watchesItems = important || [rule.keywords, rule.tokens, rule.tags, rule.channels, rule.kols].some((l) => l.length > 0);
  const offered = pricing ? DELIVERIES.filter((d) => PRICE_DELIVERIES.includes(d)) : DELIVERIES;
  const chosen = deliver.filter((d) => offered.includes(d));
  const problem = checkAlertRule(rule);
  const sample = useSample(true);
  const facts = useMemo(() => sample.data?.items.map((i) => i.facts) ?? [], [sample.data]);
  const count = sample.data && !problem ? countAlertMatches(rule, facts) : null;
  const toggle = (d: (typeof DELIVERIES)[number]) => setDeliver((on) => (on.includes(d) ? on.filter((x) => x !== d) : [...on, d]));
  const save = () => {
    setError(null);
    const time_zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const named = name.trim() || words(keywords)[0] || tokens || tags || rule.price?.symbol || "";
    onSaved({ name: named, rule, deliver: chosen, mode: pricing ? "instant" : mode, quiet, time_zone }).catch((e: unknown) => setError(messageOf(e)));
  };
  return (
    <form
      className="card settings alert-editor"
      onSubmit={(e) => {
        e.preventDefault();
        if (!problem) save();
      }}
    >
      <label className="field">
        <span>{t("web.alerts.name")}</span>
        <input value={name} maxLength={60} onChange={(e) => setName(e.target.value)} placeholder={t("web.alerts.namePlaceholder")} />
      </label>
      <label className="field">
        <span>{t("web.alerts.keywords")}</span>
        <input value={keywords} onChange={(e) => setKeywords(e.target.value)} placeholder={t("web.alerts.keywordsPlaceholder")} aria-describedby="alert-keywords-help" />
        <small id="alert-keywords-help" className="muted">{t("web.alerts.keywordsHelp")}</small>
      </label>
      <label className="field">
        <span>{t("web.alerts.tokens")}</span>
        <input value={tokens} onChange={(e) => setTokens(e.target.value)} placeholder="BTC, ETH" />
      </label>
      {named.length > 0 && (
        <div className="chips" aria-live="polite">
          {named.map((symbol) => (
            <button key={symbol} type="button" className="chip" onClick={() => setTokens([...words(tokens), symbol].join(", "))}>
              {t("web.alerts.addToken", { symbol })}
            </button>
          ))}
        </div>
      )}
      <label className="field">
        <span>{t("web.alerts.tags")}</span>
        <input value={tags} onChange={(e) => setTags(e.target.value)} />
      </label>
      {(start.channels.length > 0 || start.kols.length > 0) && (
        <p className="muted">
          {[...start.channels.map((c) => t("web.alerts.channel", { code: c })), ...start.kols.map((k) => t("web.alerts.kol", { id: k }))].join(" · ")}
        </p>
      )}
      <label className="check">
        <input type="checkbox" checked={important} onChange={(e) => setImportant(e.target.checked)} /> {t("web.alerts.onlyImportant")}
      </label>
      <PriceFields draft={price} onChange={setPrice} />
      <p className="alert-count" aria-live="polite" data-testid="alert-count">
        {problem
          ? t(problem.key, { defaultValue: problem.message })
          : !watchesItems
            ? t("web.alerts.priceDeliver")
            : count === null
              ? t("web.alerts.counting")
              : t("web.alerts.lastWeek", { count, n: formatNumber(count) })}
      </p>
      <fieldset className="field">
        <legend>{t("web.alerts.where")}</legend>
        {offered.map((d) => (
          <label key={d} className="check">
            <input type="checkbox" checked={deliver.includes(d)} onChange={() => toggle(d)} /> {t(`web.alerts.deliver.${d}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="field">
        <legend>{t("web.alerts.when")}</legend>
        {(["instant", "daily"] as const).map((m) => (
          <label key={m} className="check">
            <input type="radio" name="alert-mode" checked={(pricing ? "instant" : mode) === m} disabled={pricing} onChange={() => setMode(m)} /> {t(`web.alerts.mode.${m}`)}
          </label>
        ))}
        <label className="check">
          <input type="checkbox" checked={quiet !== null} onChange={(e) => setQuiet(e.target.checked ? { from: "22:00", to: "07:00" } : null)} /> {t("web.alerts.quiet")}
        </label>
        {quiet && (
          <span className="quiet-hours">
            <input type="time" aria-label={t("web.alerts.quietFrom")} value={quiet.from} onChange={(e) => setQuiet({ ...quiet, from: e.target.value })} />
            <input type="time" aria-label={t("web.alerts.quietTo")} value={quiet.to} onChange={(e) => setQuiet({ ...quiet, to: e.target.value })} />
          </span>
        )}
      </fieldset>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={Boolean(problem) || chosen.length === 0}>
          {t("web.alerts.save")}
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          {t("web.alerts.cancel")}
        </button>
      </div>
    </form>
  );
}
