// Draws the app's icons (web/public/icon-*.png) from its mark, the favicon's "B", with Chromium:
// 192 and 512 px with rounded corners, and a 512 px maskable one whose mark sits in the middle
// 80 % (the safe zone) on a full green square. Run after changing the mark: node scripts/icons.mjs
import { writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const MARK = "M10 8h8a5 5 0 0 1 0 10h-8zm0 10h9a5 5 0 0 1 0 10h-9z";
const svg = (size, maskable) => {
  // The mark spans x 10–24, y 8–28 of a 32 box; the maskable one is scaled into the safe zone.
  const scale = maskable ? 0.7 : 1;
  const offset = (32 - 32 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">
    <rect width="32" height="32" rx="${maskable ? 0 : 8}" fill="#00b36b"/>
    <path transform="translate(${offset} ${offset}) scale(${scale})" d="${MARK}" fill="white"/></svg>`;
};

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const page = await browser.newPage();
for (const [name, size, maskable] of [
  ["icon-192.png", 192, false],
  ["icon-512.png", 512, false],
  ["icon-maskable-512.png", 512, true],
]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<body style="margin:0;background:transparent">${svg(size, maskable)}</body>`);
  const png = await page.locator("svg").screenshot({ omitBackground: true });
  writeFileSync(new URL(`../web/public/${name}`, import.meta.url), png);
}
await browser.close();
