import { useQuery } from "@tanstack/react-query";

import { call } from "../../lib/api";
import type { ExchangeView } from "../../lib/api-types";
import { useTranslation } from "../../lib/i18n";
import { marketKeys } from "./api/markets";

/** Partner exchanges with the reader's own referral links (none set up: nothing shown). */
export function ExchangeList() {
  const { t, i18n } = useTranslation();
  const exchanges = useQuery({
    queryKey: marketKeys.exchanges(i18n.language),
    queryFn: () => call<{ list: ExchangeView[] }>("/exchange/list", {}),
  });
  const list = exchanges.data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <section className="exchanges" aria-labelledby="exchanges-heading">
      <h2 id="exchanges-heading">{t("web.markets.exchanges")}</h2>
      <ul>
        {list.map((exchange) => (
          <li key={exchange.code} className="card exchange" data-testid="exchange">
            {exchange.logo && <img src={exchange.logo} alt="" width="32" height="32" loading="lazy" />}
            <div>
              <strong>{exchange.name}</strong>
              {exchange.perks && <p className="meta">{exchange.perks}</p>}
            </div>
            {exchange.link && (
              <a className="button small" href={exchange.link} target="_blank" rel="noopener noreferrer sponsored">
                {t("web.markets.register")}
              </a>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
