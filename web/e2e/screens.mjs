// Drawing the app's screens to PNG files, in a theme and at a size: for the Chromium suite's
// artefacts (`test-artifacts/screenshots/`) and for `make screenshots` (`bench-out/`).
import { mkdirSync } from "node:fs";

export const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1366, height: 900 } },
};

/** The main pages, by name and path. */
export const MAIN_SCREENS = [
  ["home", "/"],
  ["feed", "/feed/1"],
  ["explore", "/explore"],
  ["search", "/search"],
  ["questions", "/questions"],
  ["markets", "/markets"],
  ["account", "/account"],
];

/** Draws each of `screens` in both themes at both sizes into `dir`; gives, per file, how much
 * wider than the window its page was (0 when it fits). The four theme and size pairs draw at
 * once, each in a context of its own: one after another, most of the time went to waiting for
 * each page's network to settle. */
export async function drawScreens(stack, screens, dir) {
  mkdirSync(dir, { recursive: true });
  const pairs = ["light", "dark"].flatMap((theme) => Object.entries(SIZES).map(([size, options]) => ({ theme, size, options })));
  const drawn = await Promise.all(
    pairs.map(async ({ theme, size, options }) => {
      const context = await stack.browser.newContext({ serviceWorkers: "block", ...options });
      const page = await context.newPage();
      const files = [];
      for (const [name, path] of screens) {
        // Each screen in the language its path names: no language saved by the one before.
        await context.clearCookies();
        await page.goto(`${stack.base}${path}${path.includes("?") ? "&" : "?"}theme=${theme === "dark" ? 1 : 0}`);
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(300);
        const file = `${name}-${theme}-${size}.png`;
        await page.screenshot({ path: `${dir}${file}` });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        const painted = await page.getAttribute("html", "data-theme");
        files.push({ file, overflow, theme: painted === theme });
      }
      await context.close();
      return files;
    }),
  );
  return drawn.flat();
}
