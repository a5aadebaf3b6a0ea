// The app's pages and the paths they answer; `lib/router.tsx` does the navigating.
import { type ComponentType, lazy } from "react";

import { HomePage } from "../features/feed";
import type { Matcher, Params } from "../lib/router";

/** A page's code, loaded when the page is first visited. */
function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): ComponentType {
  return lazy(() => load().then((m) => ({ default: pick(m) })));
}

/** Every page; each also answers under a locale prefix (`/zh-Hant/explore`). `*` takes the rest. */
const ROUTES: [string, ComponentType][] = [
  ["/", HomePage],
  ["/explore", page(() => import("../features/explore"), (m) => m.ExplorePage)],
  ["/feed/:id", page(() => import("../features/feed/FeedPage"), (m) => m.FeedPage)],
  ["/benefit/:benefitId/*", page(() => import("../features/benefits"), (m) => m.BenefitPage)],
  ["/search", page(() => import("../features/search"), (m) => m.SearchPage)],
  ["/recommendTag", page(() => import("../features/tags"), (m) => m.RecommendTagPage)],
  ["/account", page(() => import("../features/account/AccountPage"), (m) => m.AccountPage)],
  ["/channel/:code", page(() => import("../features/channels"), (m) => m.ChannelPage)],
  ["/download", page(() => import("../features/download/DownloadPage"), (m) => m.DownloadPage)],
];
const NotFound = page(() => import("../components/NotFoundPage"), (m) => m.NotFoundPage);

export const match: Matcher = (path) => {
  const segments = path.split("/").filter(Boolean);
  for (const [pattern, component] of ROUTES) {
    const parts = pattern.split("/").filter(Boolean);
    const params: Params = {};
    const fits = parts.every((part, i) => {
      if (part === "*") {
        params["*"] = segments.slice(i).join("/");
        return true;
      }
      const segment = segments[i];
      if (segment === undefined) return false;
      if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(segment);
      return part.startsWith(":") || part === segment;
    });
    if (fits && (parts.at(-1) === "*" || parts.length === segments.length)) return [component, params];
  }
  return [NotFound, {}];
};
