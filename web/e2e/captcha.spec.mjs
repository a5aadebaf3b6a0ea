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
let translator;
before(async () => {
  // A LibreTranslate-shaped service: each text comes back marked with its target language.
  translator = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const { q, target } = JSON.parse(raw);
    const one = (text) => `${text} [${target}]`;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ translatedText: Array.isArray(q) ? q.map(one) : one(q) }));
  });
  await new Promise((resolve) => translator.listen(0, "127.0.0.1", resolve));
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
    TRANSLATE_URL: `http://127.0.0.1:${translator.address().port}`,
  });
});
after(async () => {
  await stack?.stop();
  siteverify?.close();
  translator?.close();
});

/** A call as a reader using the site in `locale`; the envelope's data. */
async function api(path, body, { token, locale = "en" } = {}) {
  const headers = { "content-type": "application/json", cookie: `NEXT_LOCALE=${locale}` };
  if (token) headers["x-token"] = token;
  const response = await fetch(`${stack.base}/api${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const envelope = await response.json();
  if (envelope.code !== 2000) throw new Error(`${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

/** Signs `email` in through the API (the checkbox's answer and the mailed code); its token. */
async function apiSignIn(email) {
  await api("/otp/email", { email, purpose: "login", captcha_token: "token-from-checkbox" });
  const otp = await stack.codeFor(email);
  return (await api("/user/login/email", { email, otp })).token;
}

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

test("a reader's question and comment in Korean read in English, with the originals a click away", async () => {
  const token = await apiSignIn("korean-asker@example.com");
  const tag = (await api("/tag/list", {})).list[0].id;
  const title = "스테이킹 수익은 어디서 오나요?";
  const question = { title, content: "궁금합니다", tags: [tag] };
  const { id } = await api("/question/create", question, { token, locale: "ko" });
  await api("/comment/add", { question_id: id, content: "좋은 질문" }, { token, locale: "ko" });
  // The translator gets to them after the newest items; an English page then shows the translation.
  let translated = false;
  for (let tries = 0; tries < 120 && !translated; tries++) {
    const detail = await api("/question/detail", { id });
    translated = detail.original !== undefined;
    if (!translated) await new Promise((r) => setTimeout(r, 500));
  }
  assert.ok(translated, "the question was translated");
  const page = await (await stack.browser.newContext()).newPage();
  let asked = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/question/detail") || r.url().includes("/api/comment/list")) asked++;
  });
  await page.goto(`${stack.base}/question/${id}`);
  const heading = page.locator(".question-page h1");
  await heading.getByText(`${title} [en]`, { exact: true }).waitFor();
  const note = page.locator(".question-page > .translated");
  assert.equal(await note.innerText(), "Translated from Korean · Show original");
  const comment = page.locator(".comment", { hasText: "좋은 질문" });
  await comment.getByText("좋은 질문 [en]", { exact: true }).waitFor();
  const before = asked;
  await note.getByRole("button", { name: "Show original" }).click();
  await heading.getByText(title, { exact: true }).waitFor();
  assert.equal(await heading.getAttribute("lang"), "ko");
  await page.locator(".question-page .comment-text", { hasText: "궁금합니다" }).first().waitFor();
  await comment.getByRole("button", { name: "Show original" }).click();
  await comment.getByText("좋은 질문", { exact: true }).waitFor();
  await comment.getByRole("button", { name: "Show translation", pressed: true }).click();
  await comment.getByText("좋은 질문 [en]", { exact: true }).waitFor();
  assert.equal(asked, before, "the toggles ask the server nothing");
  await page.context().close();
});
