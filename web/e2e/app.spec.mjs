// The web app in Chromium against the real server, database and SMTP server.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

import { CHROMIUM_ARGS, openLogin, signIn, startStack } from "./harness.mjs";
import { drawScreens, MAIN_SCREENS } from "./screens.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** The app's App Store page on this site: the download buttons and the rating task open it. */
const STORE = "https://apps.example/app/blockbrief/id6450000001";

let stack;
before(async () => {
  stack = await startStack({ APP_STORE_URL: STORE });
});
after(async () => {
  await stack?.stop();
});

/** A page in a context of its own. Without the service worker unless asked: its download of the
 *  whole app after each first load would only add to the machine's load in the other specs. */
async function newPage(options = {}) {
  const context = await stack.browser.newContext({ viewport: { width: 1024, height: 900 }, serviceWorkers: "block", ...options });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  return page;
}

/** The app has rendered (the server's first paint of the home page is already there before). */
async function appLoaded(page) {
  await page.locator(".app .topnav").waitFor({ state: "attached" });
}

async function skipInvitation(page) {
  const dialog = page.getByRole("dialog", { name: "Got an invitation code?" });
  await dialog.getByRole("button", { name: "Skip" }).click();
  await dialog.waitFor({ state: "hidden" });
}

test("home shows the demo feed in every locale", async () => {
  const page = await newPage();
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
    assert.match(await first.innerText(), new RegExp(`^${marker}`));
    assert.equal(await page.getAttribute("html", "lang"), lang);
    // Large amounts in the language's own units: 7,700萬 and 7,700만, never 77 百萬 or 77백만.
    const text = await page.locator(".app .feed-list").innerText();
    assert.doesNotMatch(text, /\d+ ?(百萬|百万|백만)/, lang);
    if (lang !== "en" && lang !== "vi") assert.match(text, /\d(萬|万|만)/, lang);
  }
  // Tabs: flash news only (the English prefix: the last visit saved Korean).
  await page.goto(`${stack.base}/en/`);
  await appLoaded(page);
  await page.getByRole("tab", { name: "Flash" }).click();
  await page.locator(".feed-card.flash").first().waitFor();
  assert.equal(await page.locator(".feed-card:not(.flash)").count(), 0);
  // Infinite scroll loads the next page.
  await page.getByRole("tab", { name: "For you" }).click();
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
  assert.match(await page.locator(".feed-card .card-title").first().innerText(), /^現貨比特幣 ETF/);
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
    const page = await newPage();
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
    const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  await page.locator(".feed-card.important").first().waitFor();
  assert.equal(await page.locator(".feed-card:not(.important)").count(), 0);
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

test("email sign-in, a task collected, logout", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await signIn(page, stack, "reader@example.com");
  await skipInvitation(page);
  // Follow three tags: the follow task becomes collectable.
  await page.goto(`${stack.base}/recommendTag`);
  for (let i = 0; i < 3; i++) {
    await page.getByRole("button", { name: "Follow", exact: true }).first().click();
    await page.getByRole("button", { name: "Following", exact: true }).nth(i).waitFor();
  }
  await page.goto(`${stack.base}/account`);
  const task = page.locator(".task", { hasText: "Follow 3 tags" });
  await task.getByRole("button", { name: "Claim" }).click();
  await page.getByText("+50 points collected").waitFor();
  await page.getByTestId("balance").getByText("50").waitFor();
  // The leaderboard, reached from the account page, shows the reader's own rank.
  await page.getByRole("link", { name: "Leaderboard" }).click();
  await page.getByTestId("my-rank").getByText(/You are #\d+ with 50 points/).waitFor();
  await page.getByRole("tab", { name: "All time" }).click();
  await page.locator(".rank-row", { hasText: "50" }).first().waitFor();
  await page.goto(`${stack.base}/account`);
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("bb.token")), null);
  await page.context().close();
});

test("task buttons do on the web what the web can do, and say so when only the app can", async () => {
  const page = await newPage();
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.base });
  await page.goto(`${stack.base}/`);
  await signIn(page, stack, "tasks@example.com");
  await skipInvitation(page);
  const task = (title) => page.locator(".task", { hasText: title }).getByRole("button");
  await page.goto(`${stack.base}/account`);
  await task("Read 3 stories").click();
  await page.waitForURL(`${stack.base}/`);
  await page.goto(`${stack.base}/account`);
  await task("Connect your wallet").click();
  await page.waitForURL(/\/account#sign-in-methods$/);
  await page.waitForFunction(() => document.activeElement?.id === "sign-in-methods");
  await task("Share the leaderboard").click();
  await page.waitForURL(/\/leaderboard$/);
  await page.goto(`${stack.base}/account`);
  await task("Send us feedback").click();
  await page.getByRole("dialog", { name: "Feedback on the product" }).waitFor();
  await page.keyboard.press("Escape");
  await task("Invite a friend").click();
  const invite = page.getByRole("dialog", { name: "Invite a friend" });
  const code = await invite.getByTestId("invite-code").innerText();
  assert.match(code, /^\w{4,}$/);
  assert.equal(await invite.getByLabel("Your invitation link").inputValue(), `${stack.base}/?ic=${code}`);
  await invite.getByRole("button", { name: "Copy" }).first().click();
  await invite.getByText("Copied").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  await page.keyboard.press("Escape");
  // Notifications are the web's too: the task opens the Alerts page, and nothing says "could
  // not open the app".
  await page.locator(".task", { hasText: "Turn on notifications" }).getByRole("button").click();
  await page.waitForURL(/\/alerts$/);
  await page.getByRole("heading", { name: "Alerts" }).waitFor();
  assert.equal(await page.getByText("Could not open the app").count(), 0);
  await page.goBack();
  // Sign-in kinds and the theme are named in words.
  await page.locator("#sign-in-methods + ul").getByText("Email", { exact: true }).waitFor();
  const themes = page.getByRole("group", { name: "Theme" });
  await themes.getByRole("button", { name: "Dark" }).click();
  await themes.getByRole("button", { name: "Dark", pressed: true }).waitFor();
  assert.equal(await page.getAttribute("html", "data-theme"), "dark");
  await themes.getByRole("button", { name: "Light" }).click();
  assert.equal(await page.getAttribute("html", "data-theme"), "light");
  // Tokens and topics are followed from their pages; the count moves and Following fills.
  for (const path of ["/token/SOL", "/topic/1"]) {
    await page.goto(`${stack.base}${path}`);
    const head = page.locator(".subject-head");
    await head.getByText(/0 followers/).waitFor();
    await head.getByRole("button", { name: "Follow", exact: true }).click();
    await head.getByRole("button", { name: "Following", exact: true }).waitFor();
    await head.getByText(/1 follower$/).waitFor();
  }
  await page.goto(`${stack.base}/`);
  await page.getByRole("tab", { name: "Following" }).click();
  await page.locator(".app .feed-card").first().waitFor();
  await page.context().close();
});

test("the sign-in dialog offers the methods this site configured, and no others", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await openLogin(page);
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  // Not configured as a test build: no banner says so (whatever the host).
  assert.equal(await page.locator(".debug-banner").count(), 0);
  // This stack sets up Google, X, Apple and Telegram, not LINE.
  for (const name of ["Google", "X (Twitter)", "Apple", "Telegram", "MetaMask"]) await dialog.getByRole("button", { name, exact: true }).waitFor();
  assert.equal(await dialog.getByRole("button", { name: "LINE", exact: true }).count(), 0);
  await page.context().close();
});

test("a dead token logs out on the first 401", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await page.evaluate(() => {
    localStorage.setItem("bb.token", "not-a-real-token");
    localStorage.setItem("bb.user", JSON.stringify({ id: 1, exposed_uid: "x", nickname: "Ghost", avatar: "", invitation_code: "x", prompt_for_code: false, auto_translate: true }));
  });
  await page.goto(`${stack.base}/account`);
  await page.getByRole("button", { name: "Log in" }).first().waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("bb.user")), null);
  await page.context().close();
});

test("the theme toggle is remembered", async () => {
  const page = await newPage({ colorScheme: "light" });
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

test("a visitor sends feedback on a phone: four images keep three, messages are seen above the dialog, focus returns", async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  const opener = page.locator("header").getByRole("button", { name: "Feedback" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Feedback on the product" });
  const send = dialog.getByRole("button", { name: "Send" });
  // Send is available; sent empty, it says why.
  assert.equal(await send.isDisabled(), false);
  await send.click();
  await dialog.getByRole("alert").getByText(/./).waitFor();
  await dialog.getByLabel("What would you like to tell us?").fill("The Korean translations read well.");
  await dialog.locator('input[type="file"]').setInputFiles(
    ["a", "b", "c", "d"].map((n) => ({ name: `${n}.png`, mimeType: "image/png", buffer: PNG })),
  );
  // The refusal is drawn inside the open dialog, so a phone shows it above the dialog.
  const refusal = dialog.locator(".toast", { hasText: "A maximum of three images are supported" });
  await refusal.waitFor();
  assert.equal(await refusal.count(), 1);
  const box = await refusal.boundingBox();
  assert.ok(box && box.y >= 0 && box.y < 844, "the toast is on screen");
  const topmost = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest(".toast") !== null, [box.x + box.width / 2, box.y + box.height / 2]);
  assert.ok(topmost, "nothing covers the toast");
  await dialog.locator('.thumb[data-state="success"]').nth(2).waitFor();
  assert.equal(await dialog.locator(".thumb").count(), 3);
  await send.click();
  await page.getByText("Thank you. We take your feedback seriously").waitFor();
  await dialog.waitFor({ state: "hidden" });
  // Focus is back on the control that opened the dialog.
  assert.equal(await opener.evaluate((el) => el === document.activeElement), true);
  await page.context().close();
});

test("the tab's title follows the page and the language; the language select shows whole names", async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 } });
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
  assert.match(await page.locator(".app .feed-card .translated").first().innerText(), /^譯自(英文|韓文|越南文|簡體中文)$/);
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

test("a phone: bottom navigation, the Me tab signs in", async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36" });
  await page.goto(`${stack.base}/`);
  await appLoaded(page);
  const me = page.locator(".bottomnav").getByRole("link", { name: "Me", exact: true });
  assert.equal(await me.isVisible(), true);
  await me.click();
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  await dialog.waitFor();
  // Android: no MetaMask button, Google is offered.
  assert.equal(await dialog.getByRole("button", { name: "MetaMask" }).count(), 0);
  assert.equal(await dialog.getByRole("button", { name: "Google" }).count(), 1);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  await page.context().close();
});

test("a wrong code is said beside the code field, on a phone clear of the dialog's title, and goes when the code changes", async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  const dialog = await openLogin(page);
  await dialog.getByLabel("Email address").fill("wrong-code@example.com");
  await dialog.getByRole("button", { name: "Send code" }).click();
  await dialog.getByText(/^\d+S$/).waitFor();
  const right = await stack.codeFor("wrong-code@example.com");
  const field = dialog.getByLabel("Verification code");
  await field.fill(right === "111111" ? "222222" : "111111");
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  const said = dialog.locator("#code-error");
  await said.getByText(/./).waitFor();
  assert.equal(await field.getAttribute("aria-invalid"), "true");
  assert.equal(await page.locator(".toast.error").count(), 0, "said in place, not in a toast");
  // A toast on a phone sits low, clear of the dialog's title.
  await field.fill(right);
  await page.waitForFunction(() => document.getElementById("code-error")?.textContent === "");
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  const toast = page.getByText("Log in success");
  await toast.waitFor();
  const box = await toast.boundingBox();
  assert.ok(box && box.y > 844 / 2, `the toast is low on the screen (${box?.y})`);
  await page.context().close();
});

/** A browser wallet in `page`: an EIP-1193 provider whose account is a viem one (real secp256k1
 * signatures). */
async function withWallet(page, account) {
  await page.exposeFunction("__sign", (message) => account.signMessage({ message }));
  await page.addInitScript((address) => {
    window.ethereum = {
      async request({ method, params }) {
        if (method === "eth_accounts" || method === "eth_requestAccounts") return [address];
        if (method === "personal_sign") return window.__sign(params[0]);
        throw Object.assign(new Error("unsupported"), { code: 4200 });
      },
    };
  }, account.address);
}

test("sign out everywhere ends the reader's other sessions too", async () => {
  // Two devices of one reader, signed in with the same browser wallet (no code to wait for).
  const account = privateKeyToAccount(generatePrivateKey());
  const device = async () => {
    const page = await newPage();
    await withWallet(page, account);
    await page.goto(`${stack.base}/en`);
    await appLoaded(page);
    await page.locator("header").getByRole("button", { name: "Log in" }).click();
    await page.getByRole("dialog", { name: "Log in to Blockbrief" }).getByRole("button", { name: "MetaMask" }).click();
    await page.getByRole("button", { name: "OK" }).click();
    await page.getByText("Log in success").waitFor();
    return page;
  };
  const laptop = await device();
  await skipInvitation(laptop);
  const phone = await device();
  await laptop.goto(`${stack.base}/en/account`);
  await laptop.getByRole("button", { name: "Sign out everywhere" }).click();
  await laptop.getByText("Signed out on all devices (sessions ended: 2)").waitFor();
  await laptop.locator("header").getByRole("button", { name: "Log in" }).waitFor();
  // The other device's session is gone: its next page finds it signed out.
  await phone.goto(`${stack.base}/en/account`);
  await phone.locator("header").getByRole("button", { name: "Log in" }).waitFor();
  await laptop.context().close();
  await phone.context().close();
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
    const page = await newPage();
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
  const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
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

test("sign in with a browser wallet (an EIP-1193 provider backed by a viem account)", async () => {
  const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
  const page = await newPage();
  await withWallet(page, account);
  await page.goto(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  await page.getByRole("dialog", { name: "Log in to Blockbrief" }).getByRole("button", { name: "MetaMask" }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await page.getByText("Log in success").waitFor();
  await skipInvitation(page);
  await page.goto(`${stack.base}/account`);
  await page.locator(".ledger li", { hasText: "wallet" }).getByText(account.address).waitFor();
  // Signing up with a wallet completes the wallet task.
  await page.locator(".task", { hasText: "Connect your wallet" }).getByRole("button", { name: "Claim" }).waitFor();
  await page.context().close();
});

test("every task leads somewhere: the store it names, a wallet to bind, the bot to link", async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const page = await newPage();
  await withWallet(page, account);
  // The store is outside this machine: its page is stood in for.
  await page.context().route(`${STORE}**`, (route) => route.fulfill({ contentType: "text/html", body: "<title>App Store</title>" }));
  await page.goto(`${stack.base}/account`);
  await signIn(page, stack, "targets@example.com");
  await skipInvitation(page);
  const task = (title) => page.locator(".task", { hasText: title }).getByRole("button");
  await page.goto(`${stack.base}/account`);
  // Rating opens the configured store page, asks for no stars, and is then collected.
  await page.locator(".task", { hasText: "Rate the app" }).waitFor();
  assert.equal(await page.locator(".task", { hasText: /stars/i }).count(), 0);
  const [store] = await Promise.all([page.waitForEvent("popup"), task("Rate the app").click()]);
  await store.waitForLoadState();
  assert.equal(store.url(), `${STORE}?event_type=rate_app`);
  await store.close();
  await page.locator(".task", { hasText: "Rate the app" }).getByRole("button", { name: "Claim" }).waitFor();
  // The wallet task lands on the sign-in methods, which bind the browser's wallet.
  await task("Connect your wallet").click();
  await page.waitForURL(/\/account#sign-in-methods$/);
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await page.locator(".ledger li", { hasText: "Wallet" }).getByText(account.address).waitFor();
  assert.equal(await page.getByRole("button", { name: "Connect wallet" }).count(), 0);
  await page.locator(".task", { hasText: "Connect your wallet" }).getByRole("button", { name: "Claim" }).waitFor();
  // The community task is done by linking Telegram: it lands on that section, not on a link.
  await task("Connect Telegram to the Blockbrief bot").click();
  await page.waitForURL(/\/account#telegram$/);
  await page.waitForFunction(() => document.activeElement?.id === "telegram");
  await page.context().close();
  // On an iPhone, /download opens the configured App Store page.
  const phone = await newPage({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148" });
  await phone.context().route(`${STORE}**`, (route) => route.fulfill({ contentType: "text/html", body: "<title>App Store</title>" }));
  await phone.goto(`${stack.base}/download`);
  await phone.waitForURL(STORE);
  await phone.context().close();
});

test("a wide screen gets side panels beside the page; a phone neither shows nor loads them", async () => {
  const page = await newPage({ viewport: { width: 1366, height: 900 } });
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
  const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
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
    const page = await newPage();
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

test("Google sign-in in a 400×500 popup against the local provider", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  const [popup] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("dialog", { name: "Log in to Blockbrief" }).getByRole("button", { name: "Google" }).click(),
  ]);
  assert.deepEqual(await popup.evaluate(() => [window.outerWidth > 0, typeof window.opener]), [true, "object"]);
  await popup.getByRole("link", { name: "Allow" }).click();
  await page.getByText("Log in success").waitFor();
  await skipInvitation(page);
  await page.goto(`${stack.base}/account`);
  // Signed in; the first nickname is a generated handle, not the provider's email address.
  await page.getByRole("heading", { level: 1, name: /^user_\w{6}$/ }).waitFor();
  await page.locator(".ledger").getByText("Google", { exact: true }).waitFor();
  await page.context().close();
});

test("Sign in with Apple in Apple's popup against the local provider; a closed popup is a cancel", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  const [closed] = await Promise.all([page.waitForEvent("popup"), dialog.getByRole("button", { name: "Apple" }).click()]);
  await closed.close();
  const [popup] = await Promise.all([page.waitForEvent("popup"), dialog.getByRole("button", { name: "Apple" }).click()]);
  const asked = new URL(popup.url());
  assert.equal(asked.searchParams.get("response_mode"), "web_message");
  assert.equal(asked.searchParams.get("state"), asked.searchParams.get("nonce"));
  await Promise.all([popup.waitForEvent("close"), popup.getByRole("button", { name: "Continue" }).click()]);
  await page.getByText("Log in success").waitFor();
  await skipInvitation(page);
  await page.goto(`${stack.base}/account`);
  await page.locator(".ledger").getByText("Apple", { exact: true }).waitFor();
  await page.context().close();
});

test("X binding from the account page, and a closed X popup is a denial", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await signIn(page, stack, "binder@example.com");
  await skipInvitation(page);
  await page.goto(`${stack.base}/account`);
  const status = page.getByTestId("twitter-status");
  await status.getByText("Not linked").waitFor();
  const [popup] = await Promise.all([page.waitForEvent("popup"), status.getByRole("button", { name: "Link" }).click()]);
  await popup.getByRole("link", { name: "Allow" }).click();
  await status.getByText("Linked", { exact: true }).waitFor();
  assert.equal(await status.getAttribute("data-status"), "BOUND");
  await page.locator(".task", { hasText: "Link your X (Twitter) account" }).getByRole("button", { name: "Claim" }).waitFor();
  await page.getByRole("button", { name: "Log out" }).click();

  const login = await openLogin(page);
  const [denied] = await Promise.all([page.waitForEvent("popup"), login.getByRole("button", { name: "X (Twitter)" }).click()]);
  await denied.close();
  await page.getByText("You cancelled the sign-in").waitFor();
  await page.context().close();
});

test("the popup page posts only to our own origin", async () => {
  const page = await newPage();
  for (const to of ["https://evil.example", "//evil.example", "javascript:alert(1)", `${stack.base}@evil.example`]) {
    await page.goto(`${stack.base}/oauth/by/web?to=${encodeURIComponent(to)}&code=x&state=y`);
    await page.getByText("Refused: the return address is not ours.").waitFor();
  }
  await page.context().close();
});

test("share sheet: as tall as its content with its handle on top, closes when dragged down; the download dialog shows its QR code", async () => {
  const page = await newPage({ viewport: { width: 390, height: 844 } });
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

test("an in-app browser that must sign in is sent to the download page", async () => {
  const page = await newPage({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126 Safari/537.36 MicroMessenger/3.9 WindowsWechat" });
  await page.goto(`${stack.base}/explore`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  await page.waitForURL(`${stack.base}/download`);
  await page.getByRole("heading", { name: "Blockbrief in your pocket" }).waitFor();
  await page.context().close();
});

test("a reader links a Telegram chat from the account page, collects the community award, and unlinks it", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await signIn(page, stack, "telegram-reader@example.com");
  await skipInvitation(page);
  await page.goto(`${stack.base}/account`);
  // The link opens Telegram in a new window; the page shows it while it waits.
  const opened = page.context().waitForEvent("page");
  await page.getByRole("button", { name: "Connect Telegram" }).click();
  (await opened).close();
  const link = page.getByTestId("telegram-link");
  const href = await link.getAttribute("href");
  const code = /^https:\/\/t\.me\/BlockbriefE2EBot\?start=([\w-]{22,})$/.exec(href)?.[1];
  assert.ok(code, href);
  await page.getByRole("status").getByText("Waiting for you to press Start").waitFor();
  // The reader presses Start in Telegram: Telegram sends the bot `/start <code>`.
  await stack.telegramUpdate({
    update_id: 1,
    message: { message_id: 1, date: 0, text: `/start ${code}`, chat: { id: 5150, type: "private" }, from: { id: 5150, is_bot: false, first_name: "R", language_code: "en" } },
  });
  // The bot asks the chat to confirm, naming the account; the reader presses the button.
  assert.ok(stack.telegram.sent.some((m) => m.chat_id === "5150" && /Link this chat/.test(m.text)));
  await stack.telegramUpdate({
    update_id: 2,
    callback_query: {
      id: "q2", chat_instance: "x", data: `link ${code}`,
      from: { id: 5150, is_bot: false, first_name: "R", language_code: "en" },
      message: { message_id: 2, date: 0, chat: { id: 5150, type: "private" } },
    },
  });
  await page.getByText("Telegram chat linked").waitFor();
  await page.getByTestId("telegram-chats").getByText("Private chat").waitFor();
  assert.ok(stack.telegram.sent.some((m) => m.chat_id === "5150" && /linked to your Blockbrief account/.test(m.text)));
  // The community task was done by linking: its award is collected at once (not sent to Telegram).
  await page.locator(".task", { hasText: "Connect Telegram to the Blockbrief bot" }).getByRole("button").click();
  await page.getByText("+50 points collected").waitFor();
  // Unlinking removes it.
  await page.getByTestId("telegram-chats").getByRole("button", { name: "Unlink" }).click();
  await page.getByTestId("telegram-chats").locator("li").first().waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Connect Telegram" }).waitFor();
  await page.context().close();
});

test("in Telegram's in-app browser the login offers Telegram; the footer finds the bot guide by name", async () => {
  const page = await newPage({ userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36 Telegram-Android/11.2.0" });
  await page.goto(`${stack.base}/explore`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  await dialog.getByRole("button", { name: "Telegram" }).waitFor();
  assert.equal(page.url(), `${stack.base}/explore`);
  await page.keyboard.press("Escape");
  await page.goto(`${stack.base}/vi/`);
  // The app takes over the painted page: a press on the painted footer can be lost with it, and
  // under load one was lost even after the app's top bar was there (CI, 2026-11-27). The app's own
  // footer, pressed again if the first press went nowhere.
  await appLoaded(page);
  const guide = page.locator(".app footer").getByRole("link", { name: "Hướng dẫn tích hợp Telegram Bot" });
  for (let presses = 0; !/\/vi\/feed\/\d+$/.test(page.url()); presses++) {
    assert.ok(presses < 3, `three presses on the guide's link left the page at ${page.url()}`);
    await guide.click();
    await page.waitForURL(/\/vi\/feed\/\d+$/, { timeout: 5_000 }).catch(() => {});
  }
  await page.getByRole("heading", { name: "Hướng dẫn tích hợp Bot Telegram" }).first().waitFor();
  await page.context().close();
});

test("a visitor is asked to sign in to like; a reader likes an item and it stays liked", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await page.locator(".feed-card .card-title a").first().click();
  const like = page.getByRole("button", { name: /Like/ });
  const before = Number((await like.getByTestId("like-count").innerText()).replace(/,/g, ""));
  await like.click();
  await page.getByRole("dialog", { name: "Log in to Blockbrief" }).waitFor();
  await page.keyboard.press("Escape");
  await signIn(page, stack, "liker@example.com");
  await skipInvitation(page);
  await page.reload();
  await like.click();
  await page.getByRole("button", { name: /Like/, pressed: true }).waitFor();
  assert.equal(Number((await like.getByTestId("like-count").innerText()).replace(/,/g, "")), before + 1);
  await page.reload();
  await page.getByRole("button", { name: /Like/, pressed: true }).waitFor();
  await page.context().close();
});

test("a reader votes on a card and on the item page, bullish clearing bearish, and sorts the home feed by Hot", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  const firstCard = page.locator(".app .feed-card").first();
  await firstCard.getByRole("button", { name: /^Bearish: \d+$/ }).click();
  await page.getByRole("dialog", { name: "Log in to Blockbrief" }).waitFor();
  await page.keyboard.press("Escape");
  await signIn(page, stack, "voter@example.com");
  await skipInvitation(page);
  const title = await firstCard.locator(".card-title a").innerText();
  const count = async (card, kind) => Number((await card.getByRole("button", { name: new RegExp(`^${kind}: \\d+$`) }).getAttribute("aria-label")).split(": ")[1]);
  const bearish = await count(firstCard, "Bearish");
  await firstCard.getByRole("button", { name: /^Bearish: / }).click();
  await firstCard.getByRole("button", { name: `Bearish: ${bearish + 1}`, pressed: true }).waitFor();
  // On the item page, bullish clears bearish at once and the server agrees.
  await firstCard.locator(".card-title a").click();
  await page.getByRole("heading", { name: title }).waitFor();
  const votes = page.locator(".feed-page > .vote-bar");
  await votes.getByRole("button", { name: `Bearish: ${bearish + 1}`, pressed: true }).waitFor();
  const bullish = await count(votes, "Bullish");
  await votes.getByRole("button", { name: /^Bullish: / }).click();
  await votes.getByRole("button", { name: `Bullish: ${bullish + 1}`, pressed: true }).waitFor();
  await votes.getByRole("button", { name: `Bearish: ${bearish}`, pressed: false }).waitFor();
  await page.reload();
  await page.locator(".feed-page > .vote-bar").getByRole("button", { name: `Bullish: ${bullish + 1}`, pressed: true }).waitFor();
  // Hot: the list comes from the ranking, each card once.
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  await page.getByRole("group", { name: "Order" }).getByRole("button", { name: "Hot" }).click();
  await page.getByRole("group", { name: "Order" }).getByRole("button", { name: "Hot", pressed: true }).waitFor();
  // The same list as the page asked for (the reader's languages), from the same ranking.
  const hot = await page.evaluate(async () => {
    const headers = { "content-type": "application/json", "X-TOKEN": localStorage.getItem("bb.token") };
    const post = async (path, body) => (await (await fetch(path, { method: "POST", headers, body: JSON.stringify(body) })).json()).data;
    const { read_langs } = await post("/api/user/info", {});
    return (await post("/api/feed/list", { tab: "for_you", langs: read_langs, sort: "hot", limit: 5 })).list.map((i) => i.title);
  });
  await page.locator(".app .feed-card .card-title").first().getByText(hot[0], { exact: true }).waitFor();
  await page.context().close();
});

test("a story's card says how many sources reported it, and opens them with the language that had it first", async () => {
  const now = Math.floor(Date.now() / 1000);
  const report = (slug, lang, source_name, title, ago) =>
    stack.admin("/admin/feed/upsert", { source_url: `https://news.example/kestrel-${slug}`, kind: "flash", lang, source_name, title, tokens: ["KSTR"], published_at: now - ago });
  await report("ko", "ko", "코인뉴스24", "케스트럴 거래소 해킹…Kestrel 13억7000만 달러 유출", 700);
  await report("en", "en", "BlockWire", "Exchange Kestrel hacked for $1.37 billion", 400);
  await report("zh", "zh-Hans", "链上快讯", "交易所 Kestrel 被盗约 13.7亿美元", 100);
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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
  const page = await newPage();
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

test("wallet sign-in without a wallet, and with a connection request already pending", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  await dialog.getByRole("button", { name: "MetaMask" }).click();
  await page.getByText("Please install the MetaMask plugin!").waitFor();

  const pending = await newPage();
  await pending.addInitScript(() => {
    window.ethereum = {
      async request({ method }) {
        if (method === "eth_accounts") return [];
        throw Object.assign(new Error("Request already pending"), { code: -32002 });
      },
    };
  });
  await pending.goto(`${stack.base}/`);
  await pending.getByRole("button", { name: "Log in" }).first().click();
  await pending.getByRole("dialog", { name: "Log in to Blockbrief" }).getByRole("button", { name: "MetaMask" }).click();
  await pending.getByRole("button", { name: "OK" }).click();
  await pending.getByText("Please allow in your wallet").waitFor();
  await page.context().close();
  await pending.context().close();
});

test("live: a new item waits under an \"N new\" pill on the open home page; a comment reaches another reader's open thread the same way", async () => {
  const home = await newPage();
  const streaming = (page) => page.waitForResponse((r) => r.url().includes("/api/stream?"));
  const homeStream = streaming(home);
  await home.goto(`${stack.base}/en`);
  await home.locator(".feed-list").waitFor();
  await homeStream;
  const { id } = await stack.admin("/admin/feed/upsert", {
    source_url: "https://news.test/live-wombat",
    kind: "flash",
    lang: "en",
    title: "Live wombat flash",
    published_at: Math.floor(Date.now() / 1000),
  });
  const feedList = home.locator(".feed-list");
  assert.equal(await feedList.getByText("Live wombat flash").count(), 0, "the list does not move by itself");
  await home.getByRole("button", { name: /1 new/ }).click();
  await feedList.getByText("Live wombat flash").waitFor();
  await home.context().close();
  // Two readers on one item: one comments, the other sees it without reloading (the count at
  // once, the comment under a pill, so the thread does not move under them).
  const item = `${stack.base}/en/feed/${id}`;
  const watcher = await newPage();
  const watcherStream = streaming(watcher);
  await watcher.goto(item);
  await watcherStream;
  const writer = await newPage();
  await writer.goto(item);
  await signIn(writer, stack, "live-writer@example.com");
  await skipInvitation(writer);
  await writer.getByRole("combobox", { name: /Add a comment/ }).fill("Seen live by the other reader");
  await writer.getByRole("button", { name: "Post" }).click();
  await watcher.getByRole("heading", { name: "Comments (1)" }).waitFor();
  const seen = watcher.getByTestId("comment").filter({ hasText: "Seen live by the other reader" });
  assert.equal(await seen.count(), 0, "the thread does not move by itself");
  await watcher.getByRole("button", { name: "New comments: 1 — show" }).click();
  await seen.waitFor();
  assert.equal(await watcher.getByRole("button", { name: /New comments/ }).count(), 0, "the pill is gone");
  // The writer's own comment showed at once, under no pill.
  await writer.getByTestId("comment").filter({ hasText: "Seen live by the other reader" }).waitFor();
  assert.equal(await writer.getByRole("button", { name: /New comments/ }).count(), 0);
  await writer.context().close();
  await watcher.context().close();
});

test("two readers converse: a reply with a mention, one unread message, a block, a removal, an unblock", async () => {
  const { id } = await stack.admin("/admin/feed/upsert", {
    source_url: "https://news.test/conversation",
    kind: "article",
    lang: "en",
    title: "Talk about this",
    summary: "A story to discuss",
    published_at: Math.floor(Date.now() / 1000),
  });
  const item = `${stack.base}/en/feed/${id}`;
  // A comments.
  const a = await newPage();
  await a.goto(item);
  await signIn(a, stack, "talker-a@example.com");
  await skipInvitation(a);
  const aName = await a.evaluate(() => JSON.parse(localStorage.getItem("bb.user") ?? "{}").nickname);
  const box = a.getByRole("combobox", { name: /Add a comment/ });
  await box.fill("Hello from A, see https://example.com/a");
  await a.getByRole("button", { name: "Post" }).click();
  const aComment = a.getByTestId("comment").filter({ hasText: "Hello from A" });
  await aComment.waitFor();
  await a.getByRole("heading", { name: "Comments (1)" }).waitFor();
  assert.equal(await aComment.getByRole("link", { name: "https://example.com/a" }).getAttribute("rel"), "noopener noreferrer nofollow ugc");
  // B replies, picking A from the suggestions after typing "@".
  const b = await newPage();
  await b.goto(item);
  await signIn(b, stack, "talker-b@example.com");
  await skipInvitation(b);
  const bSeesA = b.getByTestId("comment").filter({ hasText: "Hello from A" }).first();
  await bSeesA.getByRole("button", { name: "Reply" }).click();
  const reply = b.getByRole("combobox", { name: `Reply to ${aName}` });
  await reply.pressSequentially(`@${aName.slice(0, 3)}`);
  await b.getByRole("option", { name: `@${aName}` }).waitFor();
  await reply.press("Enter");
  await reply.pressSequentially("agreed");
  assert.equal(await reply.inputValue(), `@${aName} agreed`);
  await b.getByRole("button", { name: "Reply", exact: true }).last().click();
  await b.getByTestId("comment").filter({ hasText: "agreed" }).last().waitFor();
  // A sees one unread message, opens it and lands on the reply.
  await a.reload();
  const badge = a.getByTestId("unread-badge");
  await badge.waitFor();
  assert.equal(await badge.innerText(), "1");
  await a.getByRole("link", { name: "Messages, 1 unread" }).click();
  const message = a.getByTestId("message").first();
  await message.getByText(/replied to you/).waitFor();
  await message.getByRole("button").click();
  await a.waitForURL(/\/feed\/\d+\?comment=\d+/);
  await a.locator(".comment.focused").filter({ hasText: `@${aName} agreed` }).waitFor();
  await badge.waitFor({ state: "detached" });
  // B blocks A and no longer sees A's comments.
  await bSeesA.getByRole("button", { name: "Block" }).click();
  await b.getByRole("dialog").getByRole("button", { name: "OK" }).click();
  await b.getByText(`${aName} is blocked`).waitFor();
  await b.getByText("Hello from A").waitFor({ state: "detached" });
  await b.reload();
  await b.getByRole("heading", { name: /Comments/ }).waitFor();
  assert.equal(await b.getByText("Hello from A").count(), 0);
  // A reports B's reply; a moderator removes it; it is gone for everyone.
  await a.reload();
  const bReply = a.getByTestId("comment").filter({ hasText: "agreed" }).last();
  await bReply.getByRole("button", { name: "Report" }).click();
  await a.getByRole("group", { name: /Why are you reporting/ }).getByRole("button", { name: "Spam" }).click();
  await a.getByText("Thanks, the team will look at it").waitFor();
  const reports = await stack.admin("/admin/report/list", {});
  const reported = reports.list.find((r) => r.content === `@${aName} agreed`);
  assert.ok(reported, JSON.stringify(reports));
  await stack.admin("/admin/remove", { kind: "comment", id: reported.target_id, reason: "Testing removal" });
  const visitor = await newPage();
  for (const page of [a, visitor]) {
    await page.goto(item);
    await page.getByText("Hello from A").waitFor();
    assert.equal(await page.getByText(`@${aName} agreed`).count(), 0);
  }
  // B changes their mind on the account page: A's comment shows again.
  await b.goto(`${stack.base}/en/account`);
  await b.getByRole("button", { name: "Unblock" }).click();
  await b.getByText(`${aName} is unblocked`).waitFor();
  await b.goto(item);
  await b.getByText("Hello from A").waitFor();
  for (const page of [a, b, visitor]) await page.context().close();
});

test("a reader chooses a nickname by the shared rule and anyone sees their profile", async () => {
  const page = await newPage();
  await page.goto(`${stack.base}/en/account`);
  await signIn(page, stack, "named@example.com");
  await skipInvitation(page);
  const nickname = page.getByLabel("Nickname");
  await nickname.fill("a");
  await page.getByText("A nickname has 2 to 24 characters").waitFor();
  assert.equal(await page.getByRole("button", { name: "Save profile" }).isDisabled(), true);
  await nickname.fill("Chain Reader 42");
  await page.getByLabel("Bio").fill("Reads every unlock");
  await page.getByRole("button", { name: "Save profile" }).click();
  await page.getByText("Profile saved").waitFor();
  await page.getByRole("link", { name: "View my public profile" }).click();
  await page.getByRole("heading", { name: "Chain Reader 42" }).waitFor();
  const url = page.url();
  const visitor = await newPage();
  await visitor.goto(url);
  await visitor.getByText("Reads every unlock").waitFor();
  for (const p of [page, visitor]) await p.context().close();
});

test("a reader asks with a bounty, another answers, the asker accepts: both balances change on screen", async () => {
  const asker = await newPage();
  await asker.goto(`${stack.base}/en/account`);
  await signIn(asker, stack, "asker@example.com");
  await skipInvitation(asker);
  // 100 points from the rating task, collected as the task panel does.
  await asker.evaluate(async () => {
    const token = localStorage.getItem("bb.token");
    const post = (path, body) =>
      fetch(`/api${path}`, { method: "POST", headers: { "content-type": "application/json", "X-TOKEN": token }, body: JSON.stringify(body) }).then((r) => r.json());
    await post("/point/task_event_report", { event_type: "rate_app", param: '{"from":"task"}' });
    const tasks = await post("/point/task/list", { group: "novice" });
    const rate = tasks.data.list.find((t) => t.event_type === "rate_app");
    await post("/point/collect", { point_id: rate.point_id });
  });
  await asker.goto(`${stack.base}/en/ask`);
  await asker.getByLabel("Question (10 to 150 characters)").fill("Will the token unlock move the price?");
  await asker.locator(".chips .chip").first().click();
  const bounty = asker.getByLabel(/Bounty in points/);
  await asker.getByText("your balance: 100").waitFor();
  await bounty.fill("110");
  await asker.getByText("Your balance is short of this bounty").waitFor();
  await bounty.fill("40");
  await asker.getByRole("button", { name: "Post question" }).click();
  await asker.waitForURL(/\/question\/\d+$/);
  await asker.getByTestId("bounty").getByText(/Bounty 40 points · until/).waitFor();
  const questionUrl = asker.url();
  await asker.goto(`${stack.base}/en/account`);
  await asker.getByTestId("balance").getByText("60", { exact: true }).waitFor();
  // Another reader answers.
  const helper = await newPage();
  await helper.goto(questionUrl);
  await signIn(helper, stack, "helper@example.com");
  await skipInvitation(helper);
  await helper.getByLabel("Your answer").fill("Unlocks are priced in weeks before; watch the OTC desks.");
  await helper.getByRole("button", { name: "Post answer" }).click();
  await helper.getByTestId("answer").getByText("watch the OTC desks").waitFor();
  // The asker accepts it; the bounty moves.
  await asker.goto(questionUrl);
  await asker.getByRole("button", { name: "Accept this answer" }).click();
  await asker.getByText("Answer accepted; the bounty is paid").waitFor();
  await asker.getByTestId("answer").getByText("Accepted").waitFor();
  // The asker thanks the helper under the answer, in the answer's own thread.
  const answer = asker.getByTestId("answer");
  await answer.getByRole("button", { name: "Comments" }).click();
  await answer.getByLabel(/Add a comment/).fill("Thanks, the OTC tip helped");
  await answer.getByRole("button", { name: "Post", exact: true }).click();
  await answer.locator(".comment-list").getByText("Thanks, the OTC tip helped").waitFor();
  await helper.goto(`${stack.base}/en/account`);
  await helper.getByTestId("balance").getByText("40", { exact: true }).waitFor();
  for (const page of [asker, helper]) await page.context().close();
});

test("a reader writes a post with an image and a preview, finds it in the Community tab and in search, and another follows them", async () => {
  const writer = await newPage();
  await writer.goto(`${stack.base}/en/write`);
  await signIn(writer, stack, "writer@example.com");
  await skipInvitation(writer);
  await writer.getByRole("heading", { name: "Write a post" }).waitFor();
  await writer.getByLabel("Title (optional)").fill("Quokkachain unlock notes");
  await writer.getByLabel("Your post").fill("The **quokkachain** unlock is <b>tomorrow</b>.\n\n- watch OTC\n- watch funding");
  // The preview is the server's rendering: Markdown applied, raw HTML shown as text.
  await writer.getByRole("button", { name: "Preview" }).click();
  const preview = writer.locator(".post-preview");
  await preview.locator("strong", { hasText: "quokkachain" }).waitFor();
  await preview.getByText("<b>tomorrow</b>").waitFor();
  assert.equal(await preview.locator("b").count(), 0);
  assert.equal(await preview.locator("li").count(), 2);
  await writer.locator('.write input[type="file"]').setInputFiles({ name: "chart.png", mimeType: "image/png", buffer: PNG });
  await writer.locator(".post-images img").waitFor();
  const tags = writer.getByRole("group", { name: "Tags" });
  await tags.locator(".chip").first().click();
  await writer.getByRole("button", { name: "Publish" }).click();
  await writer.waitForURL(/\/feed\/\d+$/);
  await writer.getByRole("heading", { level: 1, name: "Quokkachain unlock notes" }).waitFor();
  await writer.locator(".post-gallery img").waitFor();
  const postUrl = writer.url();
  // The writer edits it: the editor starts from the post as published, tags included.
  await writer.getByRole("link", { name: "Edit post" }).click();
  await writer.getByRole("heading", { name: "Edit post" }).waitFor();
  assert.equal(await writer.getByLabel("Title (optional)").inputValue(), "Quokkachain unlock notes");
  await tags.locator(".chip[aria-pressed=true]").waitFor();
  assert.equal(await tags.locator(".chip[aria-pressed=true]").count(), 1);
  await writer.getByLabel("Your post").fill("The **quokkachain** unlock moved to Friday.");
  await writer.getByRole("button", { name: "Save changes" }).click();
  await writer.waitForURL(postUrl);
  await writer.locator(".article-body").getByText("moved to Friday").waitFor();
  await writer.getByRole("button", { name: "Edit history (1)" }).waitFor();
  // The writer also asks a question (as the ask page does), which followers see beside Following.
  const asked = await writer.evaluate(async () => {
    const token = localStorage.getItem("bb.token");
    const post = (path, body) =>
      fetch(`/api${path}`, { method: "POST", headers: { "content-type": "application/json", "X-TOKEN": token }, body: JSON.stringify(body) }).then((r) => r.json());
    const tags = await post("/tag/list", {});
    const asked = await post("/question/create", { title: "Who watches the quokkachain OTC desk?", tags: [tags.data.list[0].id] });
    return asked.code;
  });
  assert.equal(asked, 2000);
  // A visitor finds it in the Community tab and in search, and its author's page.
  const reader = await newPage();
  await reader.goto(`${stack.base}/en`);
  await appLoaded(reader);
  await reader.getByRole("tab", { name: "Community" }).click();
  const card = reader.locator(".feed-card", { hasText: "Quokkachain unlock notes" });
  // The card names its writer.
  await card.locator(".card-meta .kind").filter({ hasText: /\S/ }).waitFor();
  await reader.goto(`${stack.base}/en/search?q=quokkachain`);
  await reader.locator(".hit", { hasText: "Quokkachain unlock notes" }).waitFor();
  await reader.goto(postUrl);
  await reader.locator(".feed-page .card-meta a").click();
  await reader.waitForURL(/\/user\/\d+$/);
  await reader.locator(".feed-card", { hasText: "Quokkachain unlock notes" }).waitFor();
  // Signed in, the reader follows the writer, and the post comes into the Following tab.
  await signIn(reader, stack, "follower@example.com");
  await skipInvitation(reader);
  await reader.getByRole("button", { name: "Follow" }).click();
  await reader.getByRole("button", { name: "Unfollow" }).waitFor();
  await reader.goto(`${stack.base}/en`);
  await appLoaded(reader);
  await reader.getByRole("tab", { name: "Following" }).click();
  await reader.locator(".feed-card", { hasText: "Quokkachain unlock notes" }).waitFor();
  await reader.getByRole("region", { name: "Questions from people you follow" }).getByText("Who watches the quokkachain OTC desk?").waitFor();
  // The reader reports the post; the team takes it down, and it leaves the open home page live.
  await reader.goto(postUrl);
  await reader.locator(".feed-actions").getByRole("button", { name: "Report" }).click();
  await reader.getByRole("group", { name: /Why are you reporting/ }).getByRole("button", { name: "Spam" }).click();
  await reader.getByText("Thanks, the team will look at it").waitFor();
  const reports = await stack.admin("/admin/report/list", {});
  const reported = reports.list.find((r) => r.kind === "post");
  assert.ok(reported, JSON.stringify(reports));
  await reader.goto(`${stack.base}/en`);
  await appLoaded(reader);
  await reader.getByRole("tab", { name: "Following" }).click();
  const followed = reader.locator(".feed-card", { hasText: "Quokkachain unlock notes" });
  await followed.waitFor();
  await stack.admin("/admin/remove", { kind: "post", id: reported.target_id, reason: "Testing removal" });
  await followed.waitFor({ state: "detached" });
  await writer.goto(`${stack.base}/en/messages`);
  await writer.getByText("Your post was removed").waitFor();
  await writer.getByText("Reason: Testing removal").waitFor();
  for (const page of [writer, reader]) await page.context().close();
});

test("a reader chooses the languages they read and the home feed keeps to them; subject pages link their RSS feeds", async () => {
  const now = Math.floor(Date.now() / 1000);
  for (const [lang, title] of [["vi", "Tin chỉ có tiếng Việt về wombat"], ["en", "English-only wombat flash"]]) {
    await stack.admin("/admin/feed/upsert", { source_url: `https://news.example/langs-${lang}`, kind: "flash", lang, title, published_at: now });
  }
  const page = await newPage();
  await page.goto(`${stack.base}/en/account`);
  await signIn(page, stack, "polyglot@example.com");
  await skipInvitation(page);
  const langs = page.getByRole("group", { name: "Languages I read" });
  // The interface's language (and English) to start with.
  assert.equal(await langs.getByRole("checkbox", { name: "English" }).isChecked(), true);
  assert.equal(await langs.getByRole("checkbox", { name: "Tiếng Việt" }).isChecked(), false);
  await langs.getByRole("checkbox", { name: "Tiếng Việt" }).check();
  await langs.getByRole("checkbox", { name: "English" }).uncheck();
  // The page says when the choice is kept; then a reload shows the account as the server has it.
  await langs.getByRole("status").getByText("Saved").waitFor();
  await page.reload();
  await langs.getByRole("checkbox", { name: "Tiếng Việt" }).waitFor();
  assert.equal(await langs.getByRole("checkbox", { name: "English" }).isChecked(), false);
  assert.equal(await langs.getByRole("checkbox", { name: "Tiếng Việt" }).isChecked(), true);
  // The last language cannot go: the rule says why and the box stays.
  await langs.getByRole("checkbox", { name: "Tiếng Việt" }).click();
  await page.getByText("Pick at least one language").waitFor();
  assert.equal(await langs.getByRole("checkbox", { name: "Tiếng Việt" }).isChecked(), true);

  // The server paints every visitor's home page; the app then shows this reader's own.
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  const cards = page.locator(".app .feed-card");
  await cards.filter({ hasText: "Tin chỉ có tiếng Việt về wombat" }).waitFor();
  assert.equal(await cards.filter({ hasText: "English-only wombat flash" }).count(), 0);

  // A tag's page shows its feed, in the reader's language, and the feed answers.
  await page.goto(`${stack.base}/vi/tag/btc`);
  const rss = page.getByRole("link", { name: "Nguồn RSS" });
  assert.equal(await rss.getAttribute("href"), "/rss/vi/tag/btc.xml");
  const feed = await page.request.get(`${stack.base}/rss/vi/tag/btc.xml`);
  assert.equal(feed.status(), 200);
  assert.match(feed.headers()["content-type"], /^application\/rss\+xml/);
  assert.match(await feed.text(), /<rss[^>]*version="2.0"/);
  await page.context().close();
});

test("markets: movers and the most mentioned tokens with demo prices, a token page's price and chart, and prices on an item's token chips", async () => {
  const page = await newPage();
  // The demo prices come with the server's first poll, a few seconds after it starts.
  const rows = page.getByTestId("market-row");
  for (let tries = 0; tries < 15 && (await rows.count()) === 0; tries++) {
    await page.goto(`${stack.base}/markets`);
    await page.getByRole("heading", { name: "Markets", level: 1 }).waitFor();
    await rows.first().waitFor({ timeout: 2000 }).catch(() => {});
  }
  await page.getByText("demo prices").first().waitFor();
  const mentioned = page.locator(".market-table").filter({ has: page.getByRole("heading", { name: "Most mentioned in the news, 24 h" }) });
  const first = mentioned.getByTestId("market-row").first();
  assert.match(await first.getByTestId("price").innerText(), /\$[\d,.]+/);
  assert.match(await first.innerText(), /\d+ items?/);
  const symbol = (await first.locator("strong").innerText()).trim();
  await first.getByRole("link").click();
  await page.waitForURL(new RegExp(`/token/${symbol}$`));
  const market = page.getByRole("region", { name: "Market" });
  await market.getByTestId("price").waitFor();
  await market.getByText("Market cap").waitFor();
  const chart = market.getByTestId("chart");
  await chart.waitFor();
  assert.equal(await chart.getAttribute("data-points"), String(7 * 24 + 1));
  await market.getByRole("button", { name: "30 days" }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="chart"]')?.getAttribute("data-points") === String(30 * 6 + 1));
  assert.equal(await market.getByRole("button", { name: "30 days" }).getAttribute("aria-pressed"), "true");
  // An item naming the token shows its price on the chip.
  const listed = await (await fetch(`${stack.base}/api/feed/list`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json();
  const item = listed.data.list.find((card) => card.tokens.some((token) => token.price));
  await page.goto(`${stack.base}/feed/${item.id}`);
  const chip = page.locator(".feed-page .chip.token").first();
  await chip.getByTestId("price").waitFor();
  assert.match(await chip.innerText(), /^\$[A-Z]+\s*\$[\d,.]+/);
  // A cashtag in an article shows the token's price when hovered or tapped.
  const made = await stack.admin("/admin/feed/upsert", { source_url: "https://news.example/cashtag", kind: "flash", lang: "en", title: "Traders watch bitcoin", content: "<p>Traders watch $BTC and $NOPE closely.</p>", tokens: ["BTC"], published_at: Math.floor(Date.now() / 1000) - 60 });
  await page.goto(`${stack.base}/feed/${made.id}`);
  const cashtag = page.locator(".article-body .cashtag");
  await cashtag.waitFor();
  assert.equal(await cashtag.count(), 1, "only tokens the item names, with a price");
  assert.equal(await cashtag.innerText(), "$BTC");
  assert.match(await cashtag.getAttribute("data-price"), /^\$[\d,.]+( [+−-][\d.]+%)?$/);
  await cashtag.focus();
  assert.match(await cashtag.evaluate((node) => getComputedStyle(node, "::after").content), /\$[\d,.]+/);
  // Presales: live ones count down to their end, upcoming ones to their start, under a risk notice.
  await page.goto(`${stack.base}/markets`);
  await page.getByRole("link", { name: "Presales" }).click();
  await page.waitForURL(/\/presales$/);
  const live = page.getByTestId("presale").filter({ hasText: "Quoll Restaking" });
  await live.getByTestId("countdown").getByText(/^Ends in (\d+ d )?\d\d:\d\d:\d\d$/).waitFor();
  await page.getByRole("note").getByText(/Presales are risky/).waitFor();
  await page.getByRole("button", { name: "Upcoming" }).click();
  const upcoming = page.getByTestId("presale").filter({ hasText: "Wombat DEX" });
  await upcoming.getByTestId("countdown").getByText(/^Starts in 1 d \d\d:\d\d:\d\d$/).waitFor();
  // Following needs an account.
  await upcoming.getByRole("button", { name: "Follow" }).click();
  await page.getByRole("dialog", { name: "Log in to Blockbrief" }).waitFor();
  await page.context().close();
});

test("the app installs, opens items read before while offline, shows a pushed alert whose click opens the item, and offers a new version", async (t) => {
  const now = Math.floor(Date.now() / 1000);
  const items = [];
  for (const [slug, title] of [["offline-1", "Bandicoot chain halts block production"], ["offline-2", "Bandicoot chain resumes"]]) {
    items.push(await stack.admin("/admin/feed/upsert", { source_url: `https://news.example/${slug}`, kind: "flash", lang: "en", title, content: `<p>${title} today.</p>`, published_at: now - 60 }));
  }
  // A browser profile of its own: Chromium does not install apps from incognito contexts.
  const profile = mkdtempSync(join(tmpdir(), "bb-profile-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS, viewport: { width: 1024, height: 900 } });
  // Closed even when an assertion fails: a browser left open would keep the spec file running.
  t.after(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await context.grantPermissions(["notifications"], { origin: stack.base });
  const cdp = await context.newCDPSession(page);
  await page.goto(`${stack.base}/feed/${items[0].id}`);
  await appLoaded(page);
  await page.locator(".feed-page h1", { hasText: "Bandicoot chain halts" }).waitFor();
  // The worker installs after the first load and takes the open page over.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
  // Chromium's own installability check (the one Lighthouse's audit reads) finds nothing missing.
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  assert.deepEqual(installabilityErrors, []);

  // Offline: the item read before opens from the app's shelf, under an offline notice that lists
  // what is kept.
  await context.setOffline(true);
  await page.goto(`${stack.base}/feed/${items[0].id}`);
  await page.locator(".feed-page h1", { hasText: "Bandicoot chain halts" }).waitFor();
  assert.equal(await page.locator("#first-feed").count(), 0, "the worker's shell, not the server's painted page");
  const notice = page.getByRole("status").filter({ hasText: "You're offline" });
  await notice.waitFor();
  await notice.getByRole("button", { name: "Read offline" }).click();
  await notice.getByRole("link", { name: "Bandicoot chain halts block production" }).waitFor();
  await context.setOffline(false);

  // A push (as the server sends one) shows a notification; pressing it opens the item in this tab.
  // The registration is the live one for our scope (the first event may list others). A push that
  // reaches the worker while it is still settling after the offline visit is sent again: the
  // notification's tag makes a repeat replace, not add to, the first.
  const registrations = new Promise((resolve) => {
    const seen = ({ registrations }) => {
      const live = registrations.find((r) => !r.isDeleted && r.scopeURL === `${stack.base}/`);
      if (live) {
        cdp.off("ServiceWorker.workerRegistrationUpdated", seen);
        resolve(live);
      }
    };
    cdp.on("ServiceWorker.workerRegistrationUpdated", seen);
  });
  await cdp.send("ServiceWorker.enable");
  const registration = await registrations;
  const alert = { title: "Alert: Bandicoot", body: "Bandicoot chain resumes", url: `/feed/${items[1].id}`, feed_id: items[1].id };
  const shown = async () =>
    page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, url: n.data.url })));
  let notifications = [];
  for (let tries = 0; tries < 100 && notifications.length === 0; tries++) {
    if (tries % 20 === 0) {
      await cdp.send("ServiceWorker.deliverPushMessage", { origin: stack.base, registrationId: registration.registrationId, data: JSON.stringify(alert) });
    }
    notifications = await shown();
    if (notifications.length === 0) await page.waitForTimeout(100);
  }
  assert.deepEqual(notifications, [{ title: alert.title, body: alert.body, url: alert.url }]);
  // Headless Chromium has no notification to press: the worker gets the event the press gives.
  const [worker] = context.serviceWorkers();
  await worker.evaluate(async () => {
    const [notification] = await self.registration.getNotifications();
    self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
  });
  await page.waitForURL(new RegExp(`/feed/${items[1].id}$`));
  await page.locator(".feed-page h1", { hasText: "Bandicoot chain resumes" }).waitFor();
  assert.deepEqual(await shown(), []);

  // A new version deployed: the page offers it, and loads it when the reader agrees.
  const sw = `${stack.webDir}/sw.js`;
  writeFileSync(sw, `${readFileSync(sw, "utf8")}\n// the next version\n`);
  await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
  const offer = page.getByRole("status").filter({ hasText: "A new version of Blockbrief is ready." });
  await offer.waitFor();
  const reloaded = page.waitForEvent("load");
  await offer.getByRole("button", { name: "Reload" }).click();
  await reloaded;
  await page.locator(".feed-page h1", { hasText: "Bandicoot chain resumes" }).waitFor();
  assert.equal(await offer.count(), 0);
});

test("a reader sets up an alert from a token page: the editor counts last week's matches as they type, as the server does", async () => {
  const now = Math.floor(Date.now() / 1000);
  const ids = [];
  for (const [slug, title] of [
    ["alert-1", "Numbat fund files for a spot ETF"],
    ["alert-2", "Numbat fund ETF rejected"],
    ["alert-3", "Quiet markets"],
  ]) {
    const content = `<p>${title}, said the quoll desk.</p>`;
    const made = await stack.admin("/admin/feed/upsert", { source_url: `https://news.example/${slug}`, kind: "flash", lang: "en", title, content, published_at: now - 60 });
    ids.push(made.id);
  }
  const page = await newPage();
  await page.goto(`${stack.base}/en/token/BTC`);
  await signIn(page, stack, "alerts@example.com");
  await skipInvitation(page);
  await page.getByRole("link", { name: "Alert me" }).click();
  await page.waitForURL(/\/alerts\?token=BTC$/);
  await page.getByRole("heading", { name: "Alerts" }).waitFor();
  const tokens = page.getByLabel("Tokens");
  assert.equal(await tokens.inputValue(), "BTC");
  await tokens.fill("");
  // Nothing named: the shared rule says what is missing, and saving waits.
  const count = page.getByTestId("alert-count");
  await count.getByText("Say what to alert you about").waitFor();
  assert.equal(await page.getByRole("button", { name: "Save alert" }).isDisabled(), true);
  const keywords = page.getByLabel("Keywords");
  await keywords.fill("numbat");
  await count.getByText("Would have matched 2 items in the last 7 days").waitFor();
  await keywords.fill("numbat, -rejected");
  await count.getByText("Would have matched 1 item in the last 7 days").waitFor();
  // The server's preview of the same rule says the same.
  const preview = await page.evaluate(async () => {
    const token = localStorage.getItem("bb.token");
    const answer = await fetch("/api/alert/preview", {
      method: "POST",
      headers: { "content-type": "application/json", "X-TOKEN": token },
      body: JSON.stringify({ rule: { keywords: ["numbat", "-rejected"] }, days: 7 }),
    });
    return (await answer.json()).data.count;
  });
  assert.equal(preview, 1);
  await page.getByLabel("Name").fill("Numbat news");
  await page.getByRole("checkbox", { name: "Telegram" }).check();
  await page.getByRole("button", { name: "Save alert" }).click();
  const saved = page.getByTestId("alert").filter({ hasText: "Numbat news" });
  await saved.waitFor();
  await saved.getByText("Browser notifications, Telegram").waitFor();
  // Kept: a reload lists it from the server.
  await page.reload();
  await page.getByTestId("alert").filter({ hasText: "Numbat news" }).waitFor();
  // A token with a price offers a price alert: the shared rule checks its lines, and it goes
  // only where a price crossing can (browsers and email). Demo prices come with the first poll.
  const priceAlert = page.getByRole("link", { name: "Price alert" });
  for (let tries = 0; tries < 15 && !(await priceAlert.isVisible()); tries++) {
    await page.goto(`${stack.base}/en/token/BTC`);
    await priceAlert.waitFor({ timeout: 2000 }).catch(() => {});
  }
  await priceAlert.click();
  await page.waitForURL(/\/alerts\?price=BTC$/);
  assert.equal(await page.getByLabel("Token symbol").inputValue(), "BTC");
  await page.getByLabel("Rises above (USD)").fill("90000");
  await page.getByLabel("Falls below (USD)").fill("100000");
  await count.getByText("The price to rise above must be higher than the price to fall below").waitFor();
  assert.equal(await page.getByRole("button", { name: "Save alert" }).isDisabled(), true);
  await page.getByLabel("Falls below (USD)").fill("");
  await count.getByText("Price alerts come as browser notifications and email.").waitFor();
  assert.equal(await page.getByRole("checkbox", { name: "Telegram" }).count(), 0);
  await page.getByRole("button", { name: "Save alert" }).click();
  await page.getByTestId("alert-price").filter({ hasText: "$BTC · ↑ $90,000" }).waitFor();
  // Words selected in an article start an alert about them.
  await page.goto(`${stack.base}/en/feed/${ids[2]}`);
  await appLoaded(page);
  const body = page.locator(".article-body");
  await body.getByText("quoll desk").waitFor();
  const alertMe = page.getByRole("link", { name: "Alert me about “quoll”" });
  // The server paints the article before the app takes the page over: a selection made in the
  // painted one is gone with it, so select again until the app offers the alert.
  for (let attempt = 0; attempt < 10 && !(await alertMe.isVisible()); attempt++) {
    await body.evaluate((node) => {
      const text = node.querySelector("p").firstChild;
      const at = text.textContent.indexOf("quoll");
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + "quoll".length);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
    }).catch(() => {}); // the painted article may be leaving just then
    await alertMe.waitFor({ timeout: 1000 }).catch(() => {});
  }
  await alertMe.click();
  await page.waitForURL(/\/alerts\?keyword=quoll$/);
  assert.equal(await page.getByLabel("Keywords").inputValue(), "quoll");
  await page.getByTestId("alert-count").getByText("Would have matched 3 items in the last 7 days").waitFor();
  // The header's bell leads to them too.
  await page.locator(".topbar").getByRole("link", { name: "Messages" }).click();
  await page.getByRole("heading", { name: "Messages" }).waitFor();
  await page.getByRole("link", { name: "Alerts", exact: true }).click();
  await page.waitForURL(/\/alerts$/);
  await page.getByTestId("alert").filter({ hasText: "Numbat news" }).waitFor();
  // Installable: the page names its language's manifest, whose icons are served.
  await page.goto(`${stack.base}/ko/alerts`);
  assert.equal(await page.locator('link[rel="manifest"]').getAttribute("href"), "/ko/manifest.webmanifest");
  const manifest = await (await page.request.get(`${stack.base}/ko/manifest.webmanifest`)).json();
  assert.equal(manifest.start_url, "/ko");
  for (const icon of manifest.icons) {
    const served = await page.request.get(`${stack.base}${icon.src}`);
    assert.equal(served.status(), 200, icon.src);
    assert.equal(served.headers()["content-type"], "image/png");
  }
  await page.context().close();
});
