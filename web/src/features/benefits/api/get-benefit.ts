import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { BenefitView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { benefitKeys } from "./keys";

/** Silent: the page says when there is no such benefit. */
export const getBenefit = (id: number) => call<BenefitView>("/benefit/detail", { id }, { silent: true });

export const benefitQueryOptions = (id: number, locale: string) =>
  queryOptions({ queryKey: benefitKeys.detail(id, locale), queryFn: () => getBenefit(id) });

export function useBenefit(id: number) {
  return useQuery(benefitQueryOptions(id, useTranslation().i18n.language));
}
