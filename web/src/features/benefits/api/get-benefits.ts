import { queryOptions, useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { BenefitView } from "../../../lib/api-types";
import { useTranslation } from "../../../lib/i18n";
import { benefitKeys } from "./keys";

export const getBenefits = () => call<{ list: BenefitView[] }>("/benefit/list");

export const benefitsQueryOptions = (locale: string) =>
  queryOptions({ queryKey: benefitKeys.list(locale), queryFn: getBenefits });

export function useBenefits() {
  return useQuery(benefitsQueryOptions(useTranslation().i18n.language));
}
