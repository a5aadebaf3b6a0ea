// The real thing for browser tests: the server binary over a fresh SQLite database with the demo
// content and the built web app, a real SMTP server (aiosmtpd) on loopback, and Debian's Chromium
// driven by playwright-core.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

import { startProvider } from "./provider.mjs";
import { startTelegram, WEBHOOK_SECRET } from "./telegram.mjs";

const root = new URL("../..", import.meta.url).pathname;

export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it holds: 10 s by default (a debug server seeding the demo content on a
 * loaded machine takes longer to listen), or until `failed` names why it never will. */
async function waitFor(check, what, ms = 10_000, failed = () => null) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    const why = failed();
    if (why) throw new Error(`${what} did not come up: ${why}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not come up in ${ms / 1000} s`);
}

/** Whether something accepts connections on the loopback `port`. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const ADMIN_TOKEN = "e2e-admin-token-0123456789";

/** `env` adds or overrides server settings (e.g. a captcha mode). */
export async function startStack(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), "bb-e2e-"));
  const smtpPort = await freePort();
  const maildir = join(dir, "maildir");
  const smtp = spawn("python3", ["-m", "aiosmtpd", "-n", "-l", `127.0.0.1:${smtpPort}`, "-c", "aiosmtpd.handlers.Mailbox", maildir], { stdio: ["ignore", "ignore", "inherit"] });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const provider = await startProvider();
  const telegram = await startTelegram();
  // The deployed build, a copy of its own: a spec can ship "a new version" into it.
  const webDir = join(dir, "web");
  cpSync(join(root, "web/dist"), webDir, { recursive: true });
  const server = spawn(join(root, "target/debug/blockbrief"), [], {
    env: {
      ...process.env,
      BIND_ADDR: `127.0.0.1:${port}`,
      DATA_DIR: join(dir, "data"),
      DATABASE_URL: "",
      WEB_DIR: webDir,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DEMO_CONTENT: "true",
      // The specs' readers are minutes old; the day's wait is the API tests' to check.
      VOTER_MIN_AGE_HOURS: "0",
      PUBLIC_URL: base,
      RUST_LOG: "warn",
      ADMIN_TOKEN: ADMIN_TOKEN,
      ...provider.env,
      ...telegram.env,
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let exited = null;
  server.on("exit", (code, signal) => (exited = signal ?? code));
  const stopPeers = () => {
    server.kill();
    smtp.kill();
    provider.stop();
    telegram.stop();
  };
  try {
    await waitFor(async () => (await fetch(`${base}/api/health`)).ok, "the server", 60_000, () =>
      exited === null ? null : `it exited (${exited})`);
    // Mail is sent while the reader waits for "Send code": a spec that signs in first thing must
    // not find Python still starting the SMTP server.
    await waitFor(() => listening(smtpPort), "the SMTP server", 30_000, () =>
      smtp.exitCode === null ? null : `it exited (${smtp.exitCode})`);
  } catch (e) {
    // Nothing outlives a stack that never came up.
    stopPeers();
    throw e;
  }
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  return {
    base,
    /** The web build this server serves. */
    webDir,
    /** The local OAuth, OpenID Connect and Apple provider. */
    providerBase: provider.base,
    browser,
    /** An editor's call (`/api/admin/…` with the admin token); the envelope's data. */
    async admin(path, body) {
      const response = await fetch(`${base}/api${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-admin-token": ADMIN_TOKEN },
        body: JSON.stringify(body),
      });
      const envelope = await response.json();
      if (envelope.code !== 2000) throw new Error(`${path}: ${JSON.stringify(envelope)}`);
      return envelope.data;
    },
    /** What the bot sent, as the local Telegram API kept it. */
    telegram,
    /** Telegram delivering `update` to the server's webhook. */
    async telegramUpdate(update) {
      const response = await fetch(`${base}/webhooks/telegram`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": WEBHOOK_SECRET },
        body: JSON.stringify(update),
      });
      if (!response.ok) throw new Error(`webhook: ${response.status}`);
    },
    /** The newest sign-in code mailed to `email`. */
    async codeFor(email) {
      let code = null;
      await waitFor(async () => {
        const files = readdirSync(join(maildir, "new"));
        for (const f of files) {
          const raw = readFileSync(join(maildir, "new", f), "utf8");
          const subject = /^Subject: .*?(\d{4})\s*$/m.exec(raw);
          if (raw.includes(`To: ${email}`) && subject) code = subject[1];
        }
        return code !== null;
      }, "the code mail");
      return code;
    },
    async stop() {
      await browser.close();
      stopPeers();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stack a spec file's specs share: started before the first, stopped after the last. */
export function stackForFile(env = {}) {
  const stack = {};
  before(async () => Object.assign(stack, await startStack(env)));
  after(async () => stack.stop?.());
  return stack;
}

/** The app's App Store page on the specs' site: the download buttons and the rating task open it. */
export const STORE = "https://apps.example/app/blockbrief/id6450000001";

/** A 1×1 PNG. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** A page in a context of its own. Without the service worker unless asked: its download of the
 *  whole app after each first load would only add to the machine's load in the other specs. */
export async function newPage(stack, options = {}) {
  const context = await stack.browser.newContext({ viewport: { width: 1024, height: 900 }, serviceWorkers: "block", ...options });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  return page;
}

/** The app has rendered (the server's first paint of the home page is already there before). */
export async function appLoaded(page) {
  await page.locator(".app .topnav").waitFor({ state: "attached" });
}

/** Waits until the feed list holds cards and every one of them matches `kind` (".flash"):
 * after a tab or filter changes, the list before it, which holds such cards too, may still be
 * on screen for a moment (CI once counted its other cards). */
export async function onlyCards(page, kind) {
  await page.waitForFunction(
    (kind) => document.querySelector(`.feed-card${kind}`) && !document.querySelector(`.feed-card:not(${kind})`),
    kind,
    { timeout: 10_000 },
  );
}

export async function skipInvitation(page) {
  const dialog = page.getByRole("dialog", { name: "Got an invitation code?" });
  await dialog.getByRole("button", { name: "Skip" }).click();
  await dialog.waitFor({ state: "hidden" });
}

/** A browser wallet in `page`: an EIP-1193 provider whose account is a viem one (real secp256k1
 * signatures). */
export async function withWallet(page, account) {
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

/** The login dialog, opened by the header's button unless the page opened it. */
export async function openLogin(page) {
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  // A page that needs a reader (Write, Ask, Account after a logout) opens the dialog itself,
  // possibly while this clicks the header's button: the dialog then takes the click, which is
  // given up after a while, and the dialog is there either way.
  if (!(await dialog.isVisible())) {
    await page.getByRole("button", { name: "Log in" }).first().click({ timeout: 5000 }).catch(() => {});
  }
  await dialog.waitFor();
  return dialog;
}

/** A page of its own for a reader who has just signed in with `email` on `url` (home). */
export async function signedInPage(stack, email, url = `${stack.base}/`) {
  const page = await newPage(stack);
  await page.goto(url);
  await signIn(page, stack, email);
  await skipInvitation(page);
  return page;
}

/** Signs in through the login dialog the way a person does. */
export async function signIn(page, stack, email) {
  const dialog = await openLogin(page);
  await dialog.getByLabel("Email address").fill(email);
  await dialog.getByRole("button", { name: "Send code" }).click();
  await dialog.getByText(/^\d+S$/).waitFor();
  await dialog.getByLabel("Verification code").fill(await stack.codeFor(email));
  await dialog.getByRole("button", { name: "Log in", exact: true }).click();
  await page.getByText("Log in success").waitFor();
}
