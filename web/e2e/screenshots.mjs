// `make screenshots`: the main screens in light and dark, on a phone and a desktop, written to
// `bench-out/screenshots/` for review.
import { mkdirSync } from "node:fs";

import { startStack } from "./harness.mjs";

const out = new URL("../../bench-out/screenshots/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const screens = [
  ["home", "/"],
  ["home-zh-Hant", "/zh-Hant/"],
  ["feed", "/feed/1"],
  ["explore", "/explore"],
  ["search", `/search?q=${encodeURIComponent("bitcoin")}`],
  ["tags", "/recommendTag"],
  ["benefit", "/benefit/1"],
  ["account", "/account"],
  // Issue 15's pages, in three languages.
  ...["en", "zh-Hant", "ko"].flatMap((locale) => {
    const prefix = locale === "en" ? "" : `/${locale}`;
    return [
      ["tag", "/tag/btc"],
      ["token", "/token/BTC"],
      ["topic", "/topic/1"],
      ["kol", "/kol/1"],
      ["leaderboard", "/leaderboard"],
      ["not-found", "/no/such/page"],
    ].map(([name, path]) => [`${name}-${locale}`, `${prefix}${path}`]);
  }),
];
const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } };
const stack = await startStack();
try {
  for (const theme of ["light", "dark"]) {
    for (const [size, viewport] of Object.entries(sizes)) {
      const context = await stack.browser.newContext({ viewport, isMobile: size === "phone", deviceScaleFactor: size === "phone" ? 2 : 1 });
      const page = await context.newPage();
      for (const [name, path] of screens) {
        // Each screen in the language its path names: no language saved by the one before.
        await context.clearCookies();
        await page.goto(`${stack.base}${path}${path.includes("?") ? "&" : "?"}theme=${theme === "dark" ? 1 : 0}`);
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${out}${name}-${theme}-${size}.png` });
      }
      await context.close();
    }
  }
} finally {
  await stack.stop();
}
console.log(`screenshots in ${out}`);
