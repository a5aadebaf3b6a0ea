import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";

import { call } from "./api";
import { type LinkCatalogue, type Links, linkText, loadLinkCatalogue } from "./core-link";

/** The catalogue as the entity linker reads it (tokens with their aliases, tags and topics with
 * their keywords), read once a visit: the server links every item with the same rule. */
export const linkCatalogueKeys = { all: () => ["link-catalogue"] as const };

function useLinkCatalogue() {
  return useQuery({
    queryKey: linkCatalogueKeys.all(),
    queryFn: () => call<LinkCatalogue>("/catalogue/linking", {}),
    staleTime: 10 * 60_000,
  });
}

/** What `text` names by client-core's linker, with the catalogue to name it by; null until the
 * catalogue has come. The Write page and the alert editor suggest from it. */
export function useLinks(lang: string, title: string, body = ""): { links: Links; catalogue: LinkCatalogue } | null {
  const catalogue = useLinkCatalogue().data;
  // Compiled once per catalogue read; each keystroke only links.
  const loaded = useMemo(() => {
    if (catalogue) loadLinkCatalogue(catalogue);
    return catalogue;
  }, [catalogue]);
  return useMemo(
    () => (loaded ? { links: linkText({ lang, title, summary: "", body }), catalogue: loaded } : null),
    [loaded, lang, title, body],
  );
}
