import { queryOptions, useQuery } from "@tanstack/react-query";

import type { CaptchaUse } from "../../../lib/api-types";

type SignInMethod = CaptchaUse["methods"][number];

/** Which captcha guards sending codes: a GET with the action in the query, outside the envelope
 * calls, so it is read here directly. */
export const getCaptchaUse = async (action: string): Promise<CaptchaUse> => {
  const response = await fetch(`/api/service/captcha?action=${action}`);
  return ((await response.json()) as { data: CaptchaUse }).data;
};

export const captchaUseQueryOptions = (action: string) =>
  queryOptions({ queryKey: ["captcha", action], queryFn: () => getCaptchaUse(action), staleTime: Infinity });

export function useCaptchaUse() {
  return useQuery(captchaUseQueryOptions("otpemail"));
}

/** Whether this site offers a sign-in method (the server says which, in the same answer). */
export function useOffers(): (method: SignInMethod) => boolean {
  const methods = useCaptchaUse().data?.methods;
  return (method) => methods?.includes(method) ?? false;
}
