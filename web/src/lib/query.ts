// TanStack Query's cache of what the API answered, and how its lists page.
import { QueryClient } from "@tanstack/react-query";

import { shouldRetry } from "./core";
import { ApiError } from "./errors";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 7 * 24 * 3600 * 1000,
      staleTime: 1000,
      refetchOnWindowFocus: false,
      retry: (failures, error) => shouldRetry(failures, error instanceof ApiError ? error.status : 0),
    },
  },
});

/** How every cursor-paged list (`{list, next_cursor}`) asks for its next page. */
export const cursorPaging = {
  initialPageParam: null as string | null,
  getNextPageParam: (last: { next_cursor: string | null }) => last.next_cursor,
};
