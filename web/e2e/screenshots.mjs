// `make screenshots`: the main screens in light and dark, on a phone and a desktop, written to
// `bench-out/screenshots/` for review.
import { startStack } from "./harness.mjs";
import { drawScreens, MAIN_SCREENS } from "./screens.mjs";

const out = new URL("../../bench-out/screenshots/", import.meta.url).pathname;
const screens = [
  ...MAIN_SCREENS,
  ["home-zh-Hant", "/zh-Hant/"],
  ["search-bitcoin", `/search?q=${encodeURIComponent("bitcoin")}`],
  ["tags", "/recommendTag"],
  ["benefit", "/benefit/1"],
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
const stack = await startStack();
try {
  await drawScreens(stack, screens, out);
} finally {
  await stack.stop();
}
console.log(`screenshots in ${out}`);
