import { useQuery } from "@tanstack/react-query";

import { call } from "../../../lib/api";
import type { LinkCatalogue } from "../../../lib/core-link";

/** The catalogue as the entity linker reads it (tokens with their aliases, tags and topics with
 * their keywords): the server links every item with the same rule. */
export const linkCatalogueKeys = { all: () => ["link-catalogue"] as const };

export function useLinkCatalogue() {
  return useQuery({
    queryKey: linkCatalogueKeys.all(),
    queryFn: () => call<LinkCatalogue>("/catalogue/linking", {}),
    // The catalogue changes rarely; one read a visit to the editor is enough.
    staleTime: 10 * 60_000,
  });
}
