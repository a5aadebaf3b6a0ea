import { C, type FeedTab } from "../../lib/core";
import { useSearchParams } from "../../lib/router";
import type { FeedFilter, FeedSort } from "./api/get-feeds";

/** A feed's tab, order and only-important switch, kept in the address (`?tab=articles&sort=hot
 * &important=1`, defaults left out): Back to the list, a reload or a shared link shows the same
 * list. Changes replace the entry, so Back leaves the page rather than stepping through them. */
export function useFeedParams(): { tab: FeedTab; filter: FeedFilter; change: (next: { tab?: FeedTab; filter?: FeedFilter }) => void } {
  const [params, setParams] = useSearchParams();
  const pick = <T extends string>(name: string, allowed: readonly T[]): T => {
    const value = params.get(name);
    return allowed.find((a) => a === value) ?? allowed[0];
  };
  const tab = pick("tab", C.feedTabs as FeedTab[]);
  const filter: FeedFilter = { sort: pick("sort", C.feedSorts as FeedSort[]), onlyImportant: params.get("important") === "1" };
  const change = (next: { tab?: FeedTab; filter?: FeedFilter }) => {
    const to = { tab: next.tab ?? tab, ...(next.filter ?? filter) };
    const query: Record<string, string> = {};
    if (to.tab !== C.feedTabs[0]) query.tab = to.tab;
    if (to.sort !== C.feedSorts[0]) query.sort = to.sort;
    if (to.onlyImportant) query.important = "1";
    setParams(query, { replace: true });
  };
  return { tab, filter, change };
}
