// `make bench-web`: first load of `/`, of a shared feed page (`/feed/{id}`, target: LCP within
// 10 % of the home page's) and of Explore (target: LCP under 1.5 s) in headless Chromium on a throttled mobile profile (4× CPU
// slowdown, 150 ms latency, 1.6 Mbps down / 750 kbps up, a 412×915 phone viewport): bytes of JS,
// wasm and CSS transferred (compressed, as served), LCP, total blocking time and CLS from the
// Performance API. Prints a Markdown table. Then Lighthouse's own mobile run (its simulated
// throttling) for the performance score, fetched by npm on first use: a benchmark-only tool.
import { spawnSync } from "node:child_process";
import { CHROMIUM_ARGS, startStack } from "./harness.mjs";

const LIGHTHOUSE = "lighthouse@12.8.2";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** `BENCH_LIGHTHOUSE_RUNS=0` leaves Lighthouse out (it is fetched by npm on first use). */
const LH_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? RUNS);
const stack = await startStack();
const results = { home: [], feed: [], explore: [] };
const lighthouse = [];

/** One cold load of `path`, ready when `ready` is on the page: bytes, FCP, LCP, TBT and CLS. */
async function coldLoad(path, ready) {
  const context = await stack.browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const sizes = { js: 0, wasm: 0, css: 0 };
  const requests = new Map();
  cdp.on("Network.loadingFinished", (e) => {
    const kind = requests.get(e.requestId);
    if (kind) sizes[kind] += e.encodedDataLength;
  });
  cdp.on("Network.responseReceived", (e) => {
    const url = e.response.url;
    const kind = url.endsWith(".js") ? "js" : url.endsWith(".wasm") ? "wasm" : url.endsWith(".css") ? "css" : null;
    if (kind) requests.set(e.requestId, kind);
  });
  await page.addInitScript(() => {
    window.__perf = { lcp: 0, cls: 0, longTasks: [] };
    new PerformanceObserver((l) => l.getEntries().forEach((e) => (window.__perf.lcp = e.startTime))).observe({ type: "largest-contentful-paint", buffered: true });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => { if (!e.hadRecentInput) window.__perf.cls += e.value; })).observe({ type: "layout-shift", buffered: true });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__perf.longTasks.push([e.startTime, e.duration]))).observe({ type: "longtask", buffered: true });
  });
  await page.goto(`${stack.base}${path}`, { waitUntil: "networkidle" });
  await page.locator(ready).first().waitFor();
  await page.waitForTimeout(1500);
  const perf = await page.evaluate(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0;
    const tbt = window.__perf.longTasks.filter(([start]) => start >= fcp).reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
    return { fcp, lcp: window.__perf.lcp, tbt, cls: window.__perf.cls };
  });
  await context.close();
  return { ...sizes, ...perf };
}

try {
  const first = await (await fetch(`${stack.base}/api/feed/list`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json();
  const feedPath = `/feed/${first.data.list[0].id}`;
  for (let run = 0; run < RUNS; run++) {
    results.home.push(await coldLoad("/", ".feed-card"));
    results.feed.push(await coldLoad(feedPath, ".feed-page h1"));
    results.explore.push(await coldLoad("/explore", ".page.explore .card.topic"));
  }
  for (let run = 0; run < LH_RUNS; run++) {
    const flags = [`${stack.base}/`, "--quiet", "--only-categories=performance", "--output=json", "--output-path=stdout", `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(" ")}`];
    const lh = spawnSync("npm", ["exec", "--yes", `--package=${LIGHTHOUSE}`, "--", "lighthouse", ...flags], { env: { ...process.env, CHROME_PATH: "/usr/bin/chromium" }, encoding: "utf8", maxBuffer: 64 << 20 });
    if (lh.status !== 0) throw new Error(`Lighthouse failed: ${lh.stderr}`);
    const { categories, audits } = JSON.parse(lh.stdout);
    const value = (audit) => audits[audit].numericValue;
    lighthouse.push({ score: categories.performance.score * 100, fcp: value("first-contentful-paint"), lcp: value("largest-contentful-paint"), tbt: value("total-blocking-time"), cls: value("cumulative-layout-shift") });
  }
} finally {
  await stack.stop();
}
const median = (key, rows) => rows.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`First loads on a throttled phone profile, median of ${RUNS} cold loads each:\n`);
console.log("| page | JS (as sent) | wasm (as sent) | CSS (as sent) | FCP | LCP | TBT | CLS |");
console.log("|---|---|---|---|---|---|---|---|");
for (const [name, rows] of [["home `/`", results.home], ["shared feed page", results.feed], ["Explore `/explore`", results.explore]]) {
  console.log(`| ${name} | ${kb(median("js", rows))} | ${kb(median("wasm", rows))} | ${kb(median("css", rows))} | ${median("fcp", rows).toFixed(0)} ms | ${median("lcp", rows).toFixed(0)} ms | ${median("tbt", rows).toFixed(0)} ms | ${median("cls", rows).toFixed(3)} |`);
}
for (const [name, rows] of Object.entries(results)) {
  console.log(`\nEach ${name} load: LCP ${rows.map((r) => r.lcp.toFixed(0)).join(", ")} ms; TBT ${rows.map((r) => r.tbt.toFixed(0)).join(", ")} ms`);
}
const ratio = median("lcp", results.feed) / median("lcp", results.home);
console.log(`\nFeed page LCP / home LCP: ${ratio.toFixed(2)} (target ≤ 1.10: ${ratio <= 1.1 ? "met" : "missed"})`);
const exploreLcp = median("lcp", results.explore);
console.log(`Explore LCP: ${exploreLcp.toFixed(0)} ms (target < 1500 ms: ${exploreLcp < 1500 ? "met" : "missed"})`);
if (LH_RUNS > 0) {
  console.log(`\n${LIGHTHOUSE}, mobile, simulated throttling, median of ${RUNS} runs:\n`);
  console.log("| performance score | FCP | LCP | TBT | CLS |");
  console.log("|---|---|---|---|---|");
  const lhMedian = (key) => median(key, lighthouse);
  console.log(`| ${lhMedian("score").toFixed(0)} | ${lhMedian("fcp").toFixed(0)} ms | ${lhMedian("lcp").toFixed(0)} ms | ${lhMedian("tbt").toFixed(0)} ms | ${lhMedian("cls").toFixed(3)} |`);
  console.log(`\nEach run: score ${lighthouse.map((r) => r.score.toFixed(0)).join(", ")}`);
}
