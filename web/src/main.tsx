import "./styles.css";

import { startTransition } from "react";
import { createRoot } from "react-dom/client";

import { App } from "./app/App";
import { CALLBACK_PATH } from "./features/auth/callbackPath";
import { preloadPage } from "./app/routes";
import { seedFirstExplore } from "./features/explore/api/get-explore";
import { seedFirstFeed, seedFirstPage } from "./features/feed";
import { splitLocalePath } from "./lib/core";
import { detectLocale, initI18n } from "./lib/i18n";
import { applyTheme, themeAtom } from "./lib/theme";
import { store } from "./lib/store";
import { startTracking } from "./lib/track";
import { startServiceWorker } from "./features/offline";

applyTheme(store.get(themeAtom));
// A task of its own for starting the app: the modules (and the wasm module) have just been
// evaluated in one, and a slow phone should not see both as one long task.
await new Promise((resolve) => setTimeout(resolve, 0));

const ic = new URLSearchParams(location.search).get("ic");
if (ic) sessionStorage.setItem("ic", ic);
startTracking();
startServiceWorker();

if (location.pathname === CALLBACK_PATH) {
  // Its own chunk: the rule it checks lives in client-core's second module, which the app's
  // other first pages do not load.
  void import("./features/auth/callbackPage").then((page) => page.runCallbackPage());
} else {
  const locale = detectLocale(location.pathname);
  seedFirstPage(locale);
  seedFirstFeed(locale);
  seedFirstExplore(locale);
  void Promise.all([initI18n(locale), preloadPage(splitLocalePath(location.pathname).path)]).then(() => {
    const root = document.getElementById("root");
    // A transition: React renders in slices, so the page stays responsive while it starts.
    if (root) startTransition(() => createRoot(root).render(<App />));
  });
}
