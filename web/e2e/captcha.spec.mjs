// The reCAPTCHA step in the browser, with the server in v2 mode verifying answers at a local
// siteverify endpoint. Google's script is stood in for inside the browser (never fetched).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";

import { startStack } from "./harness.mjs";

const SCRIPT = "https://www.google.com/recaptcha/api.js**";
const FAKE_GRECAPTCHA = `window.grecaptcha = {
  render(el, o) { const b = document.createElement("button"); b.type = "button"; b.textContent = "I'm not a robot";
    b.onclick = () => o.callback("token-from-checkbox"); el.append(b); return 0; },
  reset() {}, execute() { return Promise.resolve("v3"); } };`;

let stack;
let siteverify;
before(async () => {
  siteverify = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const form = new URLSearchParams(raw);
    const ok = form.get("secret") === "local-secret" && form.get("response") === "token-from-checkbox";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ success: ok, hostname: "127.0.0.1" }));
  });
  await new Promise((resolve) => siteverify.listen(0, "127.0.0.1", resolve));
  stack = await startStack({
    CAPTCHA: "v2",
    RECAPTCHA_SITE_KEY: "local-site-key",
    RECAPTCHA_SECRET: "local-secret",
    RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${siteverify.address().port}/siteverify`,
    // A test site, which says so; no third-party sign-in on it: the dialog must not offer any.
    TEST_BUILD: "true",
    GOOGLE_CLIENT_ID: "",
    TWITTER_CLIENT_ID: "",
    APPLE_CLIENT_ID: "",
    TELEGRAM_BOT_TOKEN: "",
  });
});
after(async () => {
  await stack?.stop();
  siteverify?.close();
});

async function openLogin(route) {
  const context = await stack.browser.newContext();
  await context.route(SCRIPT, route);
  const page = await context.newPage();
  await page.goto(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  await dialog.getByLabel("Email address").fill("captcha@example.com");
  return { page, dialog };
}

test("a site with no third-party sign-in offers none, and asks nothing about Telegram", async () => {
  const context = await stack.browser.newContext();
  await context.route(SCRIPT, (route) => route.fulfill({ contentType: "text/javascript", body: FAKE_GRECAPTCHA }));
  const page = await context.newPage();
  const asked = [];
  page.on("request", (r) => asked.push(new URL(r.url()).pathname));
  await page.goto(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  await dialog.getByRole("button", { name: "MetaMask" }).waitFor();
  assert.equal(await page.locator(".debug-banner").count(), 1, "a test build says so");
  for (const name of ["Google", "LINE", "X (Twitter)", "Apple", "Telegram"]) {
    assert.equal(await dialog.getByRole("button", { name, exact: true }).count(), 0, name);
  }
  assert.ok(!asked.includes("/api/user/login/telegram/start"), "no Telegram start call");
  await context.close();
});

test("the checkbox gates sending a code, and the server checks its answer", async () => {
  const { page, dialog } = await openLogin(async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.fulfill({ contentType: "text/javascript", body: FAKE_GRECAPTCHA });
  });
  await dialog.getByText("Loading Google reCAPTCHA ...").waitFor();
  const send = dialog.getByRole("button", { name: "Send code" });
  await dialog.getByRole("button", { name: "I'm not a robot" }).waitFor();
  assert.equal(await send.isDisabled(), true);
  await dialog.getByRole("button", { name: "I'm not a robot" }).click();
  await send.click();
  await dialog.getByText(/^\d+S$/).waitFor();
  assert.match(await stack.codeFor("captcha@example.com"), /^\d{4}$/);
  await page.context().close();
});

test("a missing script is reported", async () => {
  const { page } = await openLogin((route) => route.abort());
  await page.getByText("Google reCAPTCHA load failed").waitFor();
  await page.context().close();
});

test("a script that never arrives shows Network Error 0 after 10 s", async () => {
  const { page, dialog } = await openLogin(() => {});
  await dialog.getByText("Network Error 0").waitFor({ timeout: 15_000 });
  assert.equal(await dialog.getByRole("button", { name: "Send code" }).isDisabled(), true);
  await page.context().close();
});

test("a site with no app in a store and no third-party sign-in offers no task or download that leads there", async () => {
  const context = await stack.browser.newContext();
  const page = await context.newPage();
  // A visitor sees the tasks: only those this site can lead to.
  await page.goto(`${stack.base}/account`);
  await page.locator(".task", { hasText: "Connect your wallet" }).waitFor();
  const titles = await page.locator(".task strong").allInnerTexts();
  for (const missing of ["Rate the app", "Connect Telegram to the Blockbrief bot", "Link your X (Twitter) account", "Follow Blockbrief on X"]) {
    assert.ok(!titles.includes(missing), `${missing} in ${titles}`);
  }
  // No store: the footer offers no download.
  await page.locator("footer").getByRole("link", { name: "News bot" }).waitFor();
  assert.equal(await page.locator("footer").getByRole("button", { name: "Get the app" }).count(), 0);
  await context.close();
  // On an iPhone, /download stays here and says so, with no store button.
  const phone = await stack.browser.newContext({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148" });
  const download = await phone.newPage();
  await download.goto(`${stack.base}/download`);
  await download.getByText("The Blockbrief app is not in the stores yet", { exact: false }).waitFor();
  assert.equal(new URL(download.url()).pathname, "/download");
  assert.equal(await download.locator('a[href*="apps.apple.com"], a[href*="play.google.com"]').count(), 0);
  await phone.close();
});
