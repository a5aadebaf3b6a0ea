import { createBrowserRouter, type RouteObject } from "react-router";

import { C } from "../lib/core";
import { HomePage } from "../features/feed/HomePage";
import { Shell } from "./Shell";

/** The pages; all but home load on demand. Each also answers under a locale prefix. */
const pages: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: "explore", lazy: () => import("../features/explore/ExplorePage").then((m) => ({ Component: m.ExplorePage })) },
  { path: "feed/:id", lazy: () => import("../features/feed/FeedPage").then((m) => ({ Component: m.FeedPage })) },
  { path: "benefit/:benefitId/*", lazy: () => import("../features/pages/BenefitPage").then((m) => ({ Component: m.BenefitPage })) },
  { path: "search", lazy: () => import("../features/search/SearchPage").then((m) => ({ Component: m.SearchPage })) },
  { path: "recommendTag", lazy: () => import("../features/pages/RecommendTagPage").then((m) => ({ Component: m.RecommendTagPage })) },
  { path: "account", lazy: () => import("../features/account/AccountPage").then((m) => ({ Component: m.AccountPage })) },
  { path: "channel/:code", lazy: () => import("../features/pages/ChannelPage").then((m) => ({ Component: m.ChannelPage })) },
  { path: "download", lazy: () => import("../features/pages/DownloadPage").then((m) => ({ Component: m.DownloadPage })) },
  { path: "*", lazy: () => import("../features/pages/NotFoundPage").then((m) => ({ Component: m.NotFoundPage })) },
];

export const router = createBrowserRouter([
  ...C.locales.map((locale) => ({ path: `/${locale}`, element: <Shell />, children: pages })),
  { path: "/", element: <Shell />, children: pages },
]);
