// What readers do: feedback, likes and votes, live updates, conversations, questions with
// bounties, posts, their languages, markets, the installed app with its pushed alerts, and alerts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

import { appLoaded, CHROMIUM_ARGS, newPage, PNG, signedInPage, signIn, skipInvitation, stackForFile, STORE } from "./harness.mjs";

const stack = stackForFile({ APP_STORE_URL: STORE });

test("a visitor sends feedback on a phone: four images keep three, messages are seen above the dialog, focus returns", async () => {
  const page = await newPage(stack, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
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

test("a visitor is asked to sign in to like; a reader likes an item and it stays liked", async () => {
  const page = await newPage(stack);
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
  const page = await newPage(stack);
  await page.goto(`${stack.base}/en`);
  await appLoaded(page);
  const firstCard = page.locator(".app .feed-card").first();
  await firstCard.getByRole("button", { name: /^Bearish: \d+$/ }).click();
  await page.getByRole("dialog", { name: "Log in to Blockbrief" }).waitFor();
  await page.keyboard.press("Escape");
  await signIn(page, stack, "voter@example.com");
  await skipInvitation(page);
  const title = await firstCard.locator(".card-title a").textContent();
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
  // The buttons change before the server answers: the reload waits for its answer, as a reload
  // before it could land before the vote.
  const saved = page.waitForResponse((r) => r.url().includes("/api/vote/set") && r.ok());
  await votes.getByRole("button", { name: /^Bullish: / }).click();
  await votes.getByRole("button", { name: `Bullish: ${bullish + 1}`, pressed: true }).waitFor();
  await votes.getByRole("button", { name: `Bearish: ${bearish}`, pressed: false }).waitFor();
  await saved;
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

test("live: a new item waits under an \"N new\" pill on the open home page; a comment reaches another reader's open thread the same way", async () => {
  const home = await newPage(stack);
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
  const watcher = await newPage(stack);
  const watcherStream = streaming(watcher);
  await watcher.goto(item);
  await watcherStream;
  const writer = await signedInPage(stack, "live-writer@example.com", item);
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
  const a = await signedInPage(stack, "talker-a@example.com", item);
  const aName = await a.evaluate(() => JSON.parse(localStorage.getItem("bb.user") ?? "{}").nickname);
  const box = a.getByRole("combobox", { name: /Add a comment/ });
  await box.fill("Hello from A, see https://example.com/a");
  await a.getByRole("button", { name: "Post" }).click();
  const aComment = a.getByTestId("comment").filter({ hasText: "Hello from A" });
  await aComment.waitFor();
  await a.getByRole("heading", { name: "Comments (1)" }).waitFor();
  assert.equal(await aComment.getByRole("link", { name: "https://example.com/a" }).getAttribute("rel"), "noopener noreferrer nofollow ugc");
  // B replies, picking A from the suggestions after typing "@".
  const b = await signedInPage(stack, "talker-b@example.com", item);
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
  const visitor = await newPage(stack);
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
  const page = await signedInPage(stack, "named@example.com", `${stack.base}/en/account`);
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
  const visitor = await newPage(stack);
  await visitor.goto(url);
  await visitor.getByText("Reads every unlock").waitFor();
  for (const p of [page, visitor]) await p.context().close();
});

test("a reader asks with a bounty, another answers, the asker accepts: both balances change on screen", async () => {
  const asker = await signedInPage(stack, "asker@example.com", `${stack.base}/en/account`);
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
  const helper = await signedInPage(stack, "helper@example.com", questionUrl);
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
  const writer = await signedInPage(stack, "writer@example.com", `${stack.base}/en/write`);
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
  const reader = await newPage(stack);
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

test("the Write page suggests the tokens and tags the text names, with the linker's own wasm module, and keeps the writer's choice", async () => {
  const writer = await signedInPage(stack, "linker@example.com", `${stack.base}/en/write`);
  await writer.getByRole("heading", { name: "Write a post" }).waitFor();
  await writer.getByLabel("Title (optional)").fill("Bitcoin ETF inflows hit record as BTC nears $100K");
  const suggested = writer.locator(".field", { hasText: "Your text names" });
  await suggested.getByRole("button", { name: "+ $BTC" }).waitFor();
  await suggested.getByRole("button", { name: "+ #etf" }).waitFor();
  // The linker came in its own module, with the Write page.
  const modules = await writer.evaluate(() =>
    performance.getEntriesByType("resource").map((e) => /(client_core\w*)_bg-[\w-]+\.wasm$/.exec(e.name)?.[1]).filter(Boolean),
  );
  assert.ok(modules.includes("client_core_link"), JSON.stringify(modules));
  // Nothing is taken until the writer presses it.
  const tags = writer.getByRole("group", { name: "Tags" });
  assert.equal(await tags.locator(".chip[aria-pressed=true]").count(), 0);
  await suggested.getByRole("button", { name: "+ $BTC" }).click();
  await suggested.getByRole("button", { name: "+ #etf" }).click();
  await writer.getByRole("group", { name: "Tokens" }).getByRole("button", { name: "$BTC" }).waitFor();
  assert.equal(await tags.locator(".chip[aria-pressed=true]").count(), 1);
  // Offered once taken: the suggestions are gone; more text suggests more.
  await writer.getByLabel("Your post").fill("Ethereum funds saw outflows.");
  await suggested.getByRole("button", { name: "+ $ETH" }).waitFor();
  assert.equal(await suggested.getByRole("button", { name: "+ $BTC" }).count(), 0);
  await writer.getByRole("button", { name: "Publish" }).click();
  await writer.waitForURL(/\/feed\/\d+$/);
  await writer.locator(".card-tags .chip.token", { hasText: "$BTC" }).first().waitFor();
  assert.equal(await writer.locator(".card-tags .chip.token", { hasText: "$ETH" }).count(), 0, "only what the writer chose");
  await writer.context().close();
});

test("a reader chooses the languages they read and the home feed keeps to them; subject pages link their RSS feeds", async () => {
  const now = Math.floor(Date.now() / 1000);
  for (const [lang, title] of [["vi", "Tin chỉ có tiếng Việt về wombat"], ["en", "English-only wombat flash"]]) {
    await stack.admin("/admin/feed/upsert", { source_url: `https://news.example/langs-${lang}`, kind: "flash", lang, title, published_at: now });
  }
  const page = await signedInPage(stack, "polyglot@example.com", `${stack.base}/en/account`);
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
  const page = await newPage(stack);
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
  const page = await signedInPage(stack, "alerts@example.com", `${stack.base}/en/token/BTC`);
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
  // A keyword that names a token, by the rule the server links items with, offers the token.
  await keywords.fill("比特币");
  await page.getByRole("button", { name: "+ $BTC token" }).click();
  assert.equal(await tokens.inputValue(), "BTC");
  assert.equal(await page.getByRole("button", { name: "+ $BTC token" }).count(), 0);
  await tokens.fill("");
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
