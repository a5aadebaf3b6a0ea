// What a visitor sees: the feeds, pages and search in every language, the server's first paint,
// the build as sent, navigation that keeps the reader's place, the looks on a phone and a wide
// screen, and accessibility.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { appLoaded, newPage, onlyCards, signIn, skipInvitation, stackForFile, STORE } from "./harness.mjs";
import { drawScreens, MAIN_SCREENS } from "./screens.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const stack = stackForFile({ APP_STORE_URL: STORE });

test("home shows the demo feed in every locale", async () => {
  const page = await newPage(stack);
  for (const [prefix, lang, marker] of [
    ["", "en", "Spot Bitcoin ETFs"],
    ["/zh-Hans", "zh-Hans", "现货比特币 ETF"],
    ["/zh-Hant", "zh-Hant", "現貨比特幣 ETF"],
    ["/vi", "vi", "ETF Bitcoin giao ngay"],
    ["/ko", "ko", "현물 비트코인 ETF"],
  ]) {
    await page.goto(`${stack.base}${prefix}/`);
    await appLoaded(page);
    const first = page.locator(".feed-card .card-title").first();
    await first.waitFor();
    // The cards' text as written, not as laid out: cards are `content-visibility: auto`, and until
    // Chromium's next frame decides they are on screen (late on a loaded machine) a card just
    // drawn has no rendered text, so `innerText` reads "" (CI failed on it once).
    assert.match(await first.textContent(), new RegExp(`^${marker}`));
    assert.equal(await page.getAttribute("html", "lang"), lang);
    // Large amounts in the language's own units: 7,700萬 and 7,700만, never 77 百萬 or 77백만.
    const text = await page.locator(".app .feed-list").textContent();
    assert.doesNotMatch(text, /\d+ ?(百萬|百万|백만)/, lang);
    if (lang !== "en" && lang !== "vi") assert.match(text, /\d(萬|万|만)/, lang);
  }
  // Tabs: flash news only (the English prefix: the last visit saved Korean).
  await page.goto(`${stack.base}/en/`);
  await appLoaded(page);
  await page.getByRole("tab", { name: "Flash" }).click();
  await onlyCards(page, ".flash");
  assert.equal(await page.getByRole("tab", { name: "Flash" }).getAttribute("aria-selected"), "true");
  // Infinite scroll loads the next page.
  await page.getByRole("tab", { name: "For you" }).click();
  await page.locator(".feed-card:not(.flash)").first().waitFor();
  await page.locator(".feed-card").nth(19).waitFor();
  await page.locator(".feed-card").nth(19).scrollIntoViewIfNeeded();
  await page.locator(".feed-card").nth(39).waitFor();
  await page.context().close();
});

test("the home page shows its news before any script runs", async () => {
  const context = await stack.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${stack.base}/zh-Hant`);
  assert.equal(await page.locator(".feed-card").count(), 20);
  assert.match(await page.locator(".feed-card .card-title").first().textContent(), /^現貨比特幣 ETF/);
  assert.match(await page.locator(".feed-card .card-title a").first().getAttribute("href"), /^\/zh-Hant\/feed\/\d+$/);
  await context.close();
});

test("the server's first paint is the app's card markup, element for element", async () => {
  // Cards as markup, with the relative time's words left out (a minute may turn between the two).
  const cards = (page) =>
    page.locator(".feed-card").evaluateAll((list) =>
      list.slice(0, 20).map((card) => {
        const copy = card.cloneNode(true);
        for (const time of copy.querySelectorAll("time")) time.textContent = "";
        return copy.outerHTML;
      }),
    );
  for (const locale of ["zh-Hant", "ko"]) {
    const still = await stack.browser.newContext({ javaScriptEnabled: false });
    const server = await cards(await still.newPage().then(async (p) => (await p.goto(`${stack.base}/${locale}`), p)));
    await still.close();
    const page = await newPage(stack);
    await page.goto(`${stack.base}/${locale}`);
    await appLoaded(page);
    await page.locator(".app .feed-card").first().waitFor();
    const app = await cards(page);
    await page.context().close();
    assert.equal(server.length, 20);
    assert.ok(server.some((c) => c.includes("card-summary")) && server.some((c) => c.includes("translated")));
    assert.deepEqual(app, server, locale);
  }
});

test("Explore is painted by the server as the app draws it, and the app starts from its data", async () => {
  // The page as markup, the benefits left out (the app asks for them after it starts).
  const explore = (page) =>
    page.locator(".page.explore").evaluate((section) => {
      const copy = section.cloneNode(true);
      for (const benefit of copy.querySelectorAll(".card.benefit")) benefit.remove();
      return copy.outerHTML;
    });
  for (const locale of ["ko", "vi"]) {
    const still = await stack.browser.newContext({ javaScriptEnabled: false });
    const painted = await still.newPage();
    await painted.goto(`${stack.base}/${locale}/explore`);
    assert.ok((await painted.locator(".card.topic").count()) >= 5);
    const server = await explore(painted);
    await still.close();
    const page = await newPage(stack);
    const asked = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`${stack.base}/${locale}/explore`);
    await appLoaded(page);
    await page.locator(".app .page.explore .card.topic").first().waitFor();
    assert.equal(await explore(page), server, locale);
    assert.ok(!asked.includes("/api/explore"), "the app starts from the painted data");
    await page.context().close();
  }
});

test("the build's scripts and wasm are sent as built: brotli to browsers that take it, else gzip, else plain", async () => {
  const page = await newPage(stack);
  const encodings = new Map();
  page.on("response", (r) => {
    if (/^\/assets\/.*\.(js|wasm)$/.test(new URL(r.url()).pathname)) encodings.set(new URL(r.url()).pathname, r.headers()["content-encoding"]);
  });
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  const wasm = [...encodings.keys()].find((path) => path.endsWith(".wasm"));
  assert.ok(wasm, `a wasm module among ${[...encodings.keys()]}`);
  for (const [path, encoding] of encodings) assert.equal(encoding, "br", path);
  // Fonts (woff2) are compressed by their format: sent as they are.
  const font = await fetch(`${stack.base}${await page.evaluate(() => document.querySelector("link[rel=preload][as=font]").getAttribute("href"))}`);
  assert.equal(font.headers.get("content-encoding"), null);
  await page.context().close();
  for (const path of [[...encodings.keys()].find((p) => p.endsWith(".js")), wasm]) {
    const plain = await fetch(`${stack.base}${path}`, { headers: { "accept-encoding": "identity" } });
    assert.equal(plain.headers.get("content-encoding"), null, path);
    const body = Buffer.from(await plain.arrayBuffer());
    for (const encoding of ["br", "gzip"]) {
      const answer = await fetch(`${stack.base}${path}`, { headers: { "accept-encoding": encoding } });
      assert.equal(answer.headers.get("content-encoding"), encoding, path);
      assert.ok(answer.headers.get("vary")?.toLowerCase().includes("accept-encoding"), `${path}: vary`);
      assert.ok(Number(answer.headers.get("content-length")) < body.length, `${path}: ${encoding} is smaller`);
      assert.ok(Buffer.from(await answer.arrayBuffer()).equals(body), `${path}: ${encoding} decodes to the file`);
    }
  }
});

test("pages run under the content security policy: the app works, an injected inline script does not", async () => {
  const page = await newPage(stack);
  const violations = [];
  page.on("console", (m) => {
    if (m.text().includes("Content Security Policy")) violations.push(m.text());
  });
  const response = await page.goto(`${stack.base}/en`);
  const headers = response.headers();
  // Telegram's Login Widget and Apple's sign-in JS are the scripts from elsewhere (this stack has
  // the bot, and Apple at the local provider).
  const apple = new URL(stack.providerBase).origin;
  for (const directive of [`script-src 'self' 'wasm-unsafe-eval' https://telegram.org/js/ ${apple};`, "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
    assert.ok(headers["content-security-policy"].includes(directive), `${directive} in ${headers["content-security-policy"]}`);
  }
  assert.equal(headers["x-content-type-options"], "nosniff");
  assert.equal(headers["referrer-policy"], "strict-origin-when-cross-origin");
  // The build's files carry nosniff but no page policy (a browser applies none to a module); the
  // service worker, a worker, carries it.
  const script = await page.locator("script[type=module][src]").first().getAttribute("src");
  const asset = await fetch(new URL(script, stack.base));
  assert.equal(asset.status, 200);
  assert.equal(asset.headers.get("x-content-type-options"), "nosniff");
  assert.equal(asset.headers.get("content-security-policy"), null);
  const worker = await fetch(`${stack.base}/sw.js`);
  assert.ok(worker.headers.get("content-security-policy")?.includes("object-src 'none'"), `sw.js: ${worker.status}`);
  await appLoaded(page);
  await page.getByRole("link", { name: /Bitcoin/ }).first().click();
  await page.locator("article").first().waitFor();
  assert.deepEqual(violations, [], "the app itself breaks no rule of its policy");
  const injected = await page.evaluate(
    () =>
      new Promise((resolve) => {
        document.addEventListener("securitypolicyviolation", (e) => resolve({ ran: window.__injected === true, directive: e.violatedDirective }), { once: true });
        const script = document.createElement("script");
        script.textContent = "window.__injected = true";
        document.body.append(script);
      }),
  );
  assert.deepEqual(injected, { ran: false, directive: "script-src-elem" });
});

test("a feed page, search and a not-found page", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  await page.locator(".feed-card .card-title a").first().click();
  await page.getByRole("heading", { level: 1, name: /Spot Bitcoin ETFs/ }).waitFor();
  assert.equal(await page.locator(".related .feed-card").count(), 5);
  await page.goto(`${stack.base}/zh-Hant/search?q=${encodeURIComponent("比特幣")}`);
  await page.locator(".hit mark").first().waitFor();
  assert.equal(await page.locator(".hit mark").first().innerText(), "比特幣");
  await page.goto(`${stack.base}/search?q=a`);
  await page.getByRole("alert").getByText(/Search needs at least 2 letters or digits/).waitFor();
  await page.context().close();
});

test("links inside an article: our screens open in the app, outside ones in a new window", async () => {
  const { id } = await stack.admin("/admin/feed/upsert", {
    source_url: "https://e2e.example/links",
    kind: "article",
    lang: "en",
    title: "Links inside an article",
    content: '<p>See <a href="blockbrief://RecommendTag">the tags</a>, <a href="external:https://far.example/x">a source</a> and <a href="/feed/1">another story</a>.</p>',
    published_at: Math.floor(Date.now() / 1000) - 60,
  });
  const page = await newPage(stack);
  await page.goto(`${stack.base}/ko/feed/${id}`);
  const body = page.locator(".app .article-body");
  // The server paints the article first; the app then maps its links.
  await body.locator("a[data-internal]").first().waitFor();
  assert.equal(await body.getByText("the tags").getAttribute("href"), "/ko/recommendTag");
  const outside = body.getByText("a source");
  assert.equal(await outside.getAttribute("href"), "https://far.example/x");
  assert.equal(await outside.getAttribute("target"), "_blank");
  assert.equal(await body.getByText("another story").getAttribute("href"), "/ko/feed/1");
  // In place, not a reload: a mark set on the window survives the click.
  await page.evaluate(() => (window.stayed = true));
  await body.getByText("the tags").click();
  await page.waitForURL(/\/ko\/recommendTag$/);
  assert.equal(await page.evaluate(() => window.stayed), true);
  await page.context().close();
});

test("catalogue texts in the reader's language, and English marked where there is no translation", async () => {
  await stack.admin("/admin/catalogue/upsert", {
    tokens: [], channels: [], tags: [], kols: [], benefits: [],
    topics: [{ code: "e2e-english-only", titles: { en: "An English-only topic" }, descriptions: { en: "Written in English only." }, heat: 1_000_000 }],
  });
  const page = await newPage(stack);
  await page.goto(`${stack.base}/ko/explore`);
  const topic = page.locator("a.topic").first();
  await topic.getByText("An English-only topic").waitFor();
  assert.equal(await topic.locator("h3").getAttribute("lang"), "en");
  assert.equal(await topic.locator(".badge.fallback").innerText(), "영어");
  // A translated topic carries no mark; a reward label is in Korean.
  assert.equal(await page.locator("a.topic").nth(1).locator(".badge.fallback").count(), 0);
  await page.locator(".benefit .reward", { hasText: "500 USDC 보상 풀" }).waitFor();
  await page.context().close();
});

test("unknown pages are HTTP 404 from the server and one friendly page in the app", async () => {
  const page = await newPage(stack);
  for (const path of ["/no/such/page", "/feed/999999", "/feed/abc", "/zh-Hant/tag/no-such-tag", "/token/NOPE", "/kol/abc", "/channel/nope", "/benefit/999999"]) {
    const response = await page.goto(`${stack.base}${path}`);
    assert.equal(response.status(), 404, path);
    await page.locator(".empty-page h1").waitFor();
    const home = page.locator(".empty-page a.button");
    assert.match(await home.getAttribute("href"), /^\/(zh-Hant)?$/, path);
    assert.equal(await page.getByText(/HTTP|Wrong URL/).count(), 0, path);
  }
  for (const path of ["/", "/tag/btc", "/token/BTC", "/leaderboard", "/oauth/by/web"]) {
    assert.equal((await fetch(`${stack.base}${path}`)).status, 200, path);
  }
  await page.context().close();
});

test("every chip, topic, KOL and hit opens its page, with its news and the only-important filter", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  // A card's tag chip opens the tag's page: header, follower count, follow button, its news.
  await page.locator(".app .feed-card .chip").first().click();
  await page.waitForURL(/\/tag\/btc$/);
  await page.getByRole("heading", { level: 1, name: "#Bitcoin" }).waitFor();
  await page.locator(".subject-head").getByText(/\d+ followers?/).waitFor();
  await page.locator(".subject-head").getByRole("button", { name: "Follow" }).waitFor();
  await page.locator(".feed-card").first().waitFor();
  await page.getByLabel("Only important").check();
  await onlyCards(page, ".important");
  // A feed page's token chip opens the token's page, with its chain.
  await page.locator(".feed-card .card-title a").first().click();
  await page.locator(".chip.token").first().click();
  await page.waitForURL(/\/token\/[A-Z]+$/);
  await page.locator(".subject-head").getByText(/^Chain: /).waitFor();
  await page.locator(".feed-card").first().waitFor();
  // Explore: a topic and a KOL open their pages.
  await page.goto(`${stack.base}/explore`);
  const topic = page.locator("a.topic").first();
  const topicTitle = await topic.locator("h3").innerText();
  await topic.click();
  await page.getByRole("heading", { level: 1, name: topicTitle }).waitFor();
  await page.goto(`${stack.base}/explore`);
  const kol = page.locator("a.kol").first();
  const kolName = await kol.locator("strong").innerText();
  await kol.click();
  await page.waitForURL(/\/kol\/\d+$/);
  await page.getByRole("heading", { level: 1, name: kolName }).waitFor();
  await page.locator(".feed-card").first().waitFor();
  // A KOL search hit opens the KOL's page, not an empty one; a tag hit the tag's page.
  await page.goto(`${stack.base}/search?q=${encodeURIComponent(kolName)}&kind=kol`);
  await page.locator(".hit a").first().click();
  await page.getByRole("heading", { level: 1, name: kolName }).waitFor();
  await page.goto(`${stack.base}/search?q=bitcoin&kind=tag`);
  await page.locator(".hit a").first().click();
  await page.getByRole("heading", { level: 1, name: "#Bitcoin" }).waitFor();
  // The server writes each page's head.
  const html = await (await fetch(`${stack.base}/ko/token/BTC`)).text();
  assert.match(html, /<title>[^<]*BTC[^<]*<\/title>/);
  await page.context().close();
});

test("the theme toggle is remembered", async () => {
  const page = await newPage(stack, { colorScheme: "light" });
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  const before = await page.getAttribute("html", "data-theme");
  await page.locator("header").getByRole("button", { name: "Switch theme" }).click();
  const toggled = before === "dark" ? "light" : "dark";
  assert.equal(await page.getAttribute("html", "data-theme"), toggled);
  await page.reload();
  await appLoaded(page);
  assert.equal(await page.getAttribute("html", "data-theme"), toggled);
  await page.context().close();
});

test("the tab's title follows the page and the language; the language select shows whole names", async () => {
  const page = await newPage(stack, { viewport: { width: 390, height: 844 } });
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  assert.equal(await page.title(), "Blockbrief - Crypto and web3 news in your language");
  await page.locator(".app .feed-card .card-title a").first().click();
  await page.waitForFunction(() => document.title.startsWith("Spot Bitcoin ETF"));
  const select = page.locator(".locale-select");
  await select.selectOption("vi");
  await page.waitForFunction(() => /ETF/.test(document.title) && document.title !== "" && !document.title.startsWith("Spot Bitcoin"));
  // The select is wide enough for its longest name.
  const fits = await select.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().width > 60);
  assert.ok(fits, "the whole name shows");
  await select.selectOption("zh-Hant");
  await page.goto(`${stack.base}/zh-Hant/tag/btc`);
  await page.waitForFunction(() => document.title === "#比特幣 - Blockbrief");
  await page.goto(`${stack.base}/zh-Hant`);
  await appLoaded(page);
  assert.match(await page.locator(".app .feed-card .translated").first().textContent(), /^譯自(英文|韓文|越南文|簡體中文)$/);
  const html = await (await fetch(`${stack.base}/ko`)).text();
  assert.match(html, /<meta name="keywords" content="암호화폐 뉴스/);
  // The tag filter keeps one history entry, however much is typed.
  await page.context().clearCookies();
  await page.goto(`${stack.base}/recommendTag`);
  const before = await page.evaluate(() => history.length);
  await page.getByLabel("Filter tags").pressSequentially("bitc");
  for (let i = 0; i < 50 && (await page.evaluate(() => location.search)) !== "?q=bitc"; i++) await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => location.search), "?q=bitc");
  assert.equal(await page.evaluate(() => history.length), before);
  // A focused tab's ring is drawn inside the scrolling strip, so nothing clips it.
  await page.goto(`${stack.base}/`);
  await page.getByRole("tab").first().focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Shift+Tab");
  const ring = await page.getByRole("tab").first().evaluate((el) => [el.matches(":focus-visible"), getComputedStyle(el).outlineOffset]);
  assert.deepEqual(ring, [true, "-3px"]);
  await page.context().close();
});

test("a Vietnamese page gets Manrope's Vietnamese letters, an English page only its Latin ones, both preloaded", async () => {
  // The search page: its words are the interface's alone, no news in other languages.
  for (const [locale, wantsVietnamese] of [["vi", true], ["en", false]]) {
    // The page itself asks for the faces it paints with (preload), before any stylesheet or
    // script, so the first visit already paints in Manrope.
    const html = await (await fetch(`${stack.base}/${locale}/search`)).text();
    const preloads = [...html.matchAll(/<link rel="preload" as="font" type="font\/woff2" href="([^"]+)" crossorigin>/g)].map((m) => m[1]);
    assert.equal(preloads.filter((href) => /manrope-latin-(400|600)-normal/.test(href)).length, 2, `${locale}: ${preloads}`);
    assert.equal(preloads.filter((href) => /manrope-vietnamese-(400|600)-normal/.test(href)).length, wantsVietnamese ? 2 : 0, `${locale}: ${preloads}`);
    const page = await newPage(stack);
    const fonts = [];
    page.on("request", (request) => {
      if (request.resourceType() === "font") fonts.push(new URL(request.url()).pathname);
    });
    const font = (subset) => page.waitForRequest((r) => r.url().includes(`manrope-${subset}-400`));
    const latin = font("latin");
    const vietnamese = wantsVietnamese ? font("vietnamese") : null;
    await page.goto(`${stack.base}/${locale}/search`);
    await appLoaded(page);
    await latin;
    await vietnamese;
    await page.evaluate(() => document.fonts.ready);
    assert.equal(fonts.some((f) => f.includes("manrope-vietnamese")), wantsVietnamese, `${locale}: ${fonts}`);
    await page.context().close();
  }
});

test("a phone reaches every main section in one tap, Q&A and Write included, in Vietnamese too", async () => {
  const page = await newPage(stack, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  const bar = page.locator(".bottomnav");
  for (const name of ["Home", "Explore", "Q&A", "Write", "Markets", "Me"]) {
    assert.equal(await bar.getByRole("link", { name, exact: true }).isVisible(), true, name);
  }
  await bar.getByRole("link", { name: "Q&A", exact: true }).click();
  await page.waitForURL(/\/questions$/);
  await bar.getByRole("link", { name: "Write", exact: true }).click();
  await page.waitForURL(/\/write$/);
  // Search is in the header on a phone.
  await page.locator(".topbar").getByRole("link", { name: "Search" }).click();
  await page.waitForURL(/\/search$/);
  // The longest labels (Vietnamese) fit: no link is wider than its share of the bar.
  await page.goto(`${stack.base}/vi`);
  await appLoaded(page);
  const widths = await page.locator(".bottomnav a").evaluateAll((links) => links.map((a) => [a.scrollWidth, a.clientWidth]));
  assert.equal(widths.length, 6);
  for (const [scroll, client] of widths) assert.ok(scroll <= client, `${scroll} > ${client}`);
  await page.context().close();
});

test("a wide screen gets side panels beside the page; a phone neither shows nor loads them", async () => {
  const page = await newPage(stack, { viewport: { width: 1366, height: 900 } });
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  const panels = page.getByRole("complementary", { name: "More to read" });
  const trending = panels.getByTestId("panel-trending");
  await trending.locator("li").first().waitFor();
  assert.equal(await trending.locator("li").count(), 5);
  await panels.getByTestId("panel-market").getByTestId("price").first().waitFor();
  await panels.getByTestId("panel-questions").waitFor();
  // The page and the column side by side: the screen is used, the page keeps its width.
  const main = await page.locator("main.content").boundingBox();
  const side = await panels.boundingBox();
  assert.ok(side.x >= main.x + main.width - 1 && main.width >= 700 && side.width >= 300, JSON.stringify({ main, side }));
  assert.ok(side.x + side.width >= 1366 - 200, "no wide empty margin");
  // A trending item opens its page; the panels stay.
  const first = trending.locator("li a").first();
  const title = await first.innerText();
  await first.click();
  await page.waitForURL(/\/feed\/\d+$/);
  assert.equal((await page.locator("main h1").first().innerText()).trim(), title.trim());
  // A signed-in reader also gets their follows, here still none, with where to find some.
  await signIn(page, stack, "panels@example.com");
  await skipInvitation(page);
  await panels.getByTestId("panel-follows").getByRole("link", { name: "Find tags" }).waitFor();
  await page.context().close();
  // A phone: no column, no panel code and no panel question asked.
  const phone = await newPage(stack, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const asked = [];
  phone.on("request", (r) => asked.push(new URL(r.url()).pathname));
  await phone.goto(`${stack.base}/`);
  await appLoaded(phone);
  await phone.locator(".app .feed-card").first().waitFor();
  await phone.waitForLoadState("networkidle");
  assert.equal(await phone.locator(".side-panels").count(), 0);
  assert.ok(!asked.includes("/api/question/list") && !asked.some((p) => /SidePanels/.test(p)), asked.join(" "));
  await phone.context().close();
});

test("the main pages in light and dark, on a phone and a desktop, fit their window (screenshots kept as artefacts)", async () => {
  const dir = new URL("../../test-artifacts/screenshots/", import.meta.url).pathname;
  const drawn = await drawScreens(stack, MAIN_SCREENS, dir);
  assert.equal(drawn.length, MAIN_SCREENS.length * 4);
  assert.deepEqual(drawn.filter((d) => d.overflow > 0 || !d.theme), [], "wider than the window, or in the wrong theme");
});

test("axe finds no serious accessibility problem in either theme", async () => {
  for (const theme of ["light", "dark"]) {
    const page = await newPage(stack);
    // The theme query parameter is 0 (light) or 1 (dark), read by client-core's initialTheme.
    await page.goto(`${stack.base}/?theme=${theme === "dark" ? 1 : 0}`);
    await appLoaded(page);
    assert.equal(await page.getAttribute("html", "data-theme"), theme);
    // Evaluated by the test driver, not added as a script: the page's policy forbids inline scripts.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ["violations"] });
      return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
    });
    assert.deepEqual(violations, [], `${theme}: ${violations.join("\n")}`);
    await page.context().close();
  }
});

test("share sheet: as tall as its content with its handle on top, closes when dragged down; the download dialog shows its QR code", async () => {
  const page = await newPage(stack, { viewport: { width: 390, height: 844 } });
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  await page.locator(".feed-card .card-title a").first().click();
  await page.getByRole("button", { name: "Share" }).click();
  const sheet = page.getByRole("dialog", { name: "Share" });
  await sheet.getByRole("link", { name: "Telegram" }).waitFor();
  const box = await sheet.boundingBox();
  assert.ok(box.height < 844 * 0.6 && Math.round(box.y + box.height) === 844, `a sheet at the bottom: ${JSON.stringify(box)}`);
  const handle = await sheet.locator(".sheet-handle").boundingBox();
  const title = await sheet.getByRole("heading", { name: "Share" }).boundingBox();
  assert.ok(handle.y < title.y && handle.height >= 5, "the handle is on top and visible");
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 + 30);
  await page.mouse.up();
  await sheet.waitFor({ state: "hidden" });

  await page.getByRole("button", { name: "Get the app" }).click();
  const download = page.getByRole("dialog", { name: "Get the app" });
  await download.getByRole("img", { name: "Scan to download" }).waitFor();
  // The store pages come from the server's configuration: only the App Store is set here.
  assert.equal(await download.getByRole("link", { name: "App Store" }).getAttribute("href"), STORE);
  assert.equal(await download.getByRole("link", { name: "Google Play" }).count(), 0);
  await page.keyboard.press("Escape");
  await download.waitFor({ state: "hidden" });
  await page.context().close();
});

test("a story's card says how many sources reported it, and opens them with the language that had it first", async () => {
  const now = Math.floor(Date.now() / 1000);
  const report = (slug, lang, source_name, title, ago) =>
    stack.admin("/admin/feed/upsert", { source_url: `https://news.example/kestrel-${slug}`, kind: "flash", lang, source_name, title, tokens: ["KSTR"], published_at: now - ago });
  await report("ko", "ko", "코인뉴스24", "케스트럴 거래소 해킹…Kestrel 13억7000만 달러 유출", 700);
  await report("en", "en", "BlockWire", "Exchange Kestrel hacked for $1.37 billion", 400);
  await report("zh", "zh-Hans", "链上快讯", "交易所 Kestrel 被盗约 13.7亿美元", 100);
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  // One card for the three reports: the earliest, with "3 sources".
  const cards = page.locator(".app .feed-card").filter({ hasText: "Kestrel" });
  await cards.first().waitFor();
  assert.equal(await cards.count(), 1);
  const toggle = cards.getByRole("button", { name: "3 sources" });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  await toggle.press("Enter");
  assert.equal(await toggle.getAttribute("aria-expanded"), "true");
  const sources = cards.getByRole("region", { name: "Reports of this story" });
  await sources.getByText("First reported in Korean, 5 min before other languages").waitFor();
  await sources.getByText(/BlockWire · English/).waitFor();
  await sources.getByText(/链上快讯 · Simplified Chinese/).waitFor();
  await sources.getByRole("link", { name: "Exchange Kestrel hacked for $1.37 billion" }).click();
  await page.getByRole("heading", { name: "Exchange Kestrel hacked for $1.37 billion" }).waitFor();
  // The item page opens the same story.
  await page.locator(".feed-page > .story").getByRole("button", { name: "3 sources" }).click();
  await page.locator(".feed-page > .story").getByRole("region", { name: "Reports of this story" }).getByRole("link", { name: /케스트럴/ }).waitFor();
  await page.context().close();
});

test("search results carry their dates and sort by newest or hot, the order kept in the address", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en/search?q=bitcoin`);
  await appLoaded(page);
  // By relevance: the token first (no date), then news with their dates.
  const hits = page.locator(".hits .hit");
  await hits.first().waitFor();
  assert.equal(await hits.first().locator("time").count(), 0);
  await hits.filter({ has: page.locator("time") }).first().waitFor();
  await page.getByRole("group", { name: "Order" }).getByRole("button", { name: "New" }).click();
  await page.waitForURL(/\/en\/search\?q=bitcoin&kind=all&sort=new$/);
  const newest = await page.evaluate(async () => {
    const res = await fetch("/api/search", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ q: "bitcoin", sort: "new" }) });
    return (await res.json()).data.list.map((h) => h.published_at);
  });
  assert.deepEqual(newest, [...newest].sort((a, b) => b - a), "newest first");
  await page.reload();
  await page.getByRole("group", { name: "Order" }).getByRole("button", { name: "New", pressed: true }).waitFor();
  // Sorted by time, every hit is news with its date (waited for: the list loads after the buttons).
  await page.locator(".hits .hit").first().locator("time").waitFor();
  assert.equal(await page.locator(".hits .hit").count(), await page.locator(".hits .hit time").count());
  // Tags have no time or score: the order goes with them.
  await page.getByRole("tab", { name: "Tags" }).click();
  await page.waitForURL(/kind=tag$/);
  assert.equal(await page.getByRole("group", { name: "Order" }).count(), 0);
  await page.context().close();
});

test("an empty search suggests the day's trending tags and the reader's recent searches", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en/search`);
  await appLoaded(page);
  const trending = page.getByRole("region", { name: "Trending tags" });
  const first = trending.getByRole("button").first();
  await first.waitFor();
  const tag = (await first.innerText()).replace(/^#/, "");
  await first.click();
  await page.waitForURL((url) => url.searchParams.get("q") === tag);
  await page.locator(".hits .hit").first().waitFor();
  // Another search by hand, then back to an empty page: both are remembered, newest first.
  await page.getByRole("searchbox", { name: "Search" }).fill("solana");
  await page.getByRole("searchbox", { name: "Search" }).press("Enter");
  await page.waitForURL(/q=solana/);
  await page.goto(`${stack.base}/en/search`);
  const recent = page.getByRole("region", { name: "Recent searches" });
  await recent.locator(".chip").first().waitFor();
  assert.deepEqual(await recent.locator(".chip").allInnerTexts(), ["solana", tag]);
  await recent.getByRole("button", { name: tag, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("q") === tag);
  await page.goto(`${stack.base}/en/search`);
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByRole("region", { name: "Trending tags" }).waitFor();
  assert.equal(await page.getByRole("region", { name: "Recent searches" }).count(), 0);
  await page.context().close();
});

test("the questions' order lives in the address: Hot survives a reload", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en/questions`);
  await appLoaded(page);
  await page.getByRole("tab", { name: "Hot" }).click();
  await page.waitForURL(/\/en\/questions\?sort=hot$/);
  await page.reload();
  await page.getByRole("tab", { name: "Hot", selected: true }).waitFor();
  await page.getByRole("tab", { name: "Newest" }).click();
  await page.waitForURL(/\/en\/questions$/);
  await page.context().close();
});

test("the home tab and order live in the address: Back from an item returns to the same list", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  await page.getByRole("tab", { name: "Articles" }).click();
  await page.waitForURL(/\/en\?tab=articles$/);
  await page.getByRole("group", { name: "Order" }).getByRole("button", { name: "Hot" }).click();
  await page.waitForURL(/\/en\?tab=articles&sort=hot$/);
  // The hot list replaces the newest one when it arrives: read the card once it has.
  await page.waitForLoadState("networkidle");
  const first = page.locator(".app .feed-list .feed-card .card-title a").first();
  await page.waitForFunction(() => document.querySelector(".app .feed-list .feed-card .card-title a")?.textContent?.trim());
  const title = await first.innerText();
  assert.ok(title.length > 0);
  await first.click();
  await page.getByRole("heading", { name: title }).waitFor();
  // The page's own Back, as the browser's.
  await page.getByRole("button", { name: "← Back" }).click();
  await page.waitForURL(/\/en\?tab=articles&sort=hot$/);
  await page.getByRole("tab", { name: "Articles", selected: true }).waitFor();
  await page.getByRole("group", { name: "Order" }).getByRole("button", { name: "Hot", pressed: true }).waitFor();
  await page.locator(".app .feed-card .card-title a").first().getByText(title, { exact: true }).waitFor();
  // A reload keeps it too.
  await page.reload();
  await page.getByRole("tab", { name: "Articles", selected: true }).waitFor();
  // Opened straight from a link, an item's Back leads home.
  await page.goto(`${stack.base}/en/feed/${await page.locator(".app .feed-card .card-title a").first().getAttribute("href").then((h) => h.split("/").pop())}`);
  await page.getByRole("button", { name: "← Back" }).click();
  await page.getByRole("tab", { name: "For you", selected: true }).waitFor();
  assert.ok(!new URL(page.url()).pathname.includes("/feed/"), page.url());
  await page.context().close();
});

test("Back from an item returns to the same place in the list, and the item page starts at its top", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en?tab=articles`);
  await appLoaded(page);
  await page.locator(".app .feed-card").nth(12).waitFor();
  await page.evaluate(() => window.scrollTo(0, 1500));
  await page.waitForFunction(() => history.state?.scrollY === 1500);
  // The first card whose title is well on screen (clear of the sticky header: no scroll to click it).
  const index = await page.locator(".app .feed-card .card-title a").evaluateAll((links) =>
    links.findIndex((a) => a.getBoundingClientRect().top > 150 && a.getBoundingClientRect().bottom < window.innerHeight - 50),
  );
  assert.ok(index > 0);
  const link = page.locator(".app .feed-card .card-title a").nth(index);
  const title = await link.innerText();
  const top = await link.evaluate((a) => a.getBoundingClientRect().top);
  await link.click();
  await page.getByRole("heading", { name: title }).waitFor();
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await page.goBack();
  await page.getByRole("tab", { name: "Articles", selected: true }).waitFor();
  // The same card at the same height on screen: the place the reader left. (The browser's
  // scroll anchoring may move `scrollY` to keep it there when something above it changes.)
  const back = async () =>
    page.evaluate(
      ([i, t]) => {
        const a = document.querySelectorAll(".app .feed-card .card-title a")[i];
        return { scrollY: window.scrollY, height: document.documentElement.scrollHeight, title: a?.textContent, off: a ? a.getBoundingClientRect().top - t : null };
      },
      [index, top],
    );
  await page
    .waitForFunction(
      ([i, t, want]) => {
        const a = document.querySelectorAll(".app .feed-card .card-title a")[i];
        return a?.textContent === want && Math.abs(a.getBoundingClientRect().top - t) <= 1;
      },
      [index, top, title],
      { timeout: 10_000 },
    )
    .catch(async (e) => assert.fail(`${e.message}: ${JSON.stringify(await back())}`));
  await page.context().close();
});

test("a first visit loads client-core's main wasm module only; an item page loads the second with its code", async () => {
  const page = await newPage(stack);
  const modules = [];
  page.on("request", (r) => {
    const name = /\/assets\/(client_core\w*)_bg-[\w-]+\.wasm$/.exec(new URL(r.url()).pathname)?.[1];
    if (name) modules.push(name);
  });
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  await page.locator(".app .feed-card").first().waitFor();
  await page.waitForLoadState("networkidle");
  assert.deepEqual(modules, ["client_core"]);
  // The item page maps the links inside an article with client_core_more's rule.
  await page.locator(".app .feed-card .card-title a").first().click();
  await page.locator(".feed-page h1").waitFor();
  await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.includes("client_core_more_bg")));
  assert.deepEqual(modules, ["client_core", "client_core_more"]);
  await page.context().close();
});

test("a translated item shows its original and back without asking the server again", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  const card = page.locator(".app .feed-card").filter({ has: page.locator(".translated") }).first();
  await card.locator(".card-title a").click();
  const heading = page.locator(".feed-page h1");
  await heading.waitFor();
  const translated = await heading.innerText();
  let asked = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/feed/detail")) asked++;
  });
  await page.getByRole("button", { name: "Show original" }).click();
  await page.getByRole("button", { name: "Show translation", pressed: true }).waitFor();
  const original = await heading.innerText();
  assert.notEqual(original, translated);
  assert.notEqual(await heading.getAttribute("lang"), "en");
  await page.getByRole("button", { name: "Show translation" }).click();
  await heading.getByText(translated, { exact: true }).waitFor();
  assert.equal(asked, 0);
  await page.context().close();
});
