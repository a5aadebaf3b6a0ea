// Signing in every way this site offers (email, wallets, Google, Apple, X, Telegram), sessions,
// and the tasks that lead to each of them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

import { appLoaded, newPage, openLogin, signedInPage, signIn, skipInvitation, stackForFile, STORE, withWallet } from "./harness.mjs";

const stack = stackForFile({ APP_STORE_URL: STORE });

test("email sign-in, a task collected, logout", async () => {
  const page = await signedInPage(stack, "reader@example.com");
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
  const page = await newPage(stack);
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
  const page = await newPage(stack);
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
  const page = await newPage(stack);
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

test("a phone: bottom navigation, the Me tab signs in", async () => {
  const page = await newPage(stack, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36" });
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
  const page = await newPage(stack, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
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

test("sign out everywhere ends the reader's other sessions too", async () => {
  // Two devices of one reader, signed in with the same browser wallet (no code to wait for).
  const account = privateKeyToAccount(generatePrivateKey());
  const device = async () => {
    const page = await newPage(stack);
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

test("sign in with a browser wallet (an EIP-1193 provider backed by a viem account)", async () => {
  const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
  const page = await newPage(stack);
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
  const page = await newPage(stack);
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
  const phone = await newPage(stack, { userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148" });
  await phone.context().route(`${STORE}**`, (route) => route.fulfill({ contentType: "text/html", body: "<title>App Store</title>" }));
  await phone.goto(`${stack.base}/download`);
  await phone.waitForURL(STORE);
  await phone.context().close();
});

test("Google sign-in in a 400×500 popup against the local provider", async () => {
  const page = await newPage(stack);
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
  const page = await newPage(stack);
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
  const page = await signedInPage(stack, "binder@example.com");
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
  const page = await newPage(stack);
  for (const to of ["https://evil.example", "//evil.example", "javascript:alert(1)", `${stack.base}@evil.example`]) {
    await page.goto(`${stack.base}/oauth/by/web?to=${encodeURIComponent(to)}&code=x&state=y`);
    await page.getByText("Refused: the return address is not ours.").waitFor();
  }
  await page.context().close();
});

test("an in-app browser that must sign in is sent to the download page", async () => {
  const page = await newPage(stack, { userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126 Safari/537.36 MicroMessenger/3.9 WindowsWechat" });
  await page.goto(`${stack.base}/explore`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  await page.waitForURL(`${stack.base}/download`);
  await page.getByRole("heading", { name: "Blockbrief in your pocket" }).waitFor();
  await page.context().close();
});

test("a reader links a Telegram chat from the account page, collects the community award, and unlinks it", async () => {
  const page = await signedInPage(stack, "telegram-reader@example.com");
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
  const page = await newPage(stack, { userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36 Telegram-Android/11.2.0" });
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

test("wallet sign-in without a wallet, and with a connection request already pending", async () => {
  const page = await newPage(stack);
  await page.goto(`${stack.base}/`);
  await page.getByRole("button", { name: "Log in" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Log in to Blockbrief" });
  await dialog.getByRole("button", { name: "MetaMask" }).click();
  await page.getByText("Please install the MetaMask plugin!").waitFor();

  const pending = await newPage(stack);
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
