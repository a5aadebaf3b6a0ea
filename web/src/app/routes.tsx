// The app's pages: which component shows each of client-core's page patterns (`C.pages`, the
// list the server also answers 404 by); `lib/router.tsx` does the navigating.
import { type ComponentType, use } from "react";

import { HomePage } from "../features/feed";
import { matchPage } from "../lib/core";
import type { Matcher } from "../lib/router";

type Page = ComponentType & { preload: () => Promise<unknown> };

/** A page's code, loaded when the page is first visited, or before the app's first render for
 * the page it opens on (`preloadPage`), so the server's first paint is not replaced by nothing
 * while the code arrives. */
function page<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): Page {
  let loaded: ComponentType | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= load().then((m) => {
      loaded = pick(m);
    }));
  function LazyPage() {
    if (!loaded) use(preload());
    const Loaded = loaded as ComponentType;
    return <Loaded />;
  }
  return Object.assign(LazyPage, { preload });
}

/** Loads the code of the page `path` shows (locale prefix removed), if it is not loaded yet. */
export async function preloadPage(path: string): Promise<void> {
  const [component] = match(path);
  if ("preload" in component && typeof component.preload === "function") await component.preload();
}

/** Every page pattern's component; a vitest checks that each of `C.pages` has one. */
export const PAGES: Record<string, ComponentType> = {
  "/": HomePage,
  "/explore": page(() => import("../features/explore"), (m) => m.ExplorePage),
  "/search": page(() => import("../features/search"), (m) => m.SearchPage),
  "/recommendTag": page(() => import("../features/tags"), (m) => m.RecommendTagPage),
  "/account": page(() => import("../features/account/AccountPage"), (m) => m.AccountPage),
  "/download": page(() => import("../features/download/DownloadPage"), (m) => m.DownloadPage),
  "/leaderboard": page(() => import("../features/leaderboard"), (m) => m.LeaderboardPage),
  "/favorites": page(() => import("../features/library"), (m) => m.FavoritesPage),
  "/history": page(() => import("../features/library"), (m) => m.HistoryPage),
  "/messages": page(() => import("../features/messages"), (m) => m.MessagesPage),
  "/alerts": page(() => import("../features/alerts"), (m) => m.AlertsPage),
  "/markets": page(() => import("../features/markets"), (m) => m.MarketsPage),
  "/presales": page(() => import("../features/markets"), (m) => m.PresalesPage),
  "/questions": page(() => import("../features/questions"), (m) => m.QuestionsPage),
  "/question/:id": page(() => import("../features/questions"), (m) => m.QuestionPage),
  "/ask": page(() => import("../features/questions"), (m) => m.AskPage),
  "/write": page(() => import("../features/posts"), (m) => m.WritePage),
  "/write/:id": page(() => import("../features/posts"), (m) => m.WritePage),
  "/user/:id": page(() => import("../features/profiles"), (m) => m.ProfilePage),
  "/feed/:id": page(() => import("../features/feed/FeedPage"), (m) => m.FeedPage),
  "/benefit/:benefitId/*": page(() => import("../features/benefits/BenefitPage"), (m) => m.BenefitPage),
  "/channel/:code": page(() => import("../features/channels"), (m) => m.ChannelPage),
  "/tag/:code": page(() => import("../features/tags"), (m) => m.TagPage),
  "/token/:symbol": page(() => import("../features/tokens"), (m) => m.TokenPage),
  "/topic/:id": page(() => import("../features/topics"), (m) => m.TopicPage),
  "/kol/:id": page(() => import("../features/kols"), (m) => m.KolPage),
};
const NotFound = page(() => import("../components/NotFoundPage"), (m) => m.NotFoundPage);

export const match: Matcher = (path) => {
  const found = matchPage(path);
  const component = found && PAGES[found.pattern];
  return component ? [component, found.params] : [NotFound, {}];
};
