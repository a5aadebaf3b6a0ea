// The package as a consumer gets it: `npm pack` of pkg/, installed into a scratch project, then the
// shared cases run through every entry — Node `import`, Node `require`, a Vite app, a webpack app
// and a plain page (the last three in real Chromium) — and tsc checks the types of each entry.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { build } from "vite";
import wasm from "vite-plugin-wasm";
import webpack from "webpack";
import { caseCount } from "./shared-cases.mjs";

const run = promisify(execFile);
const repo = new URL("..", import.meta.url).pathname;
const cases = JSON.parse(readFileSync(join(repo, "client-core/tests/cases.json")));
const installed = "node_modules/@blockbrief/client-core";
const MODULES = ["client_core", "client_core_more", "client_core_link"];
let project;

before(async () => {
  project = mkdtempSync(join(tmpdir(), "bb-consumer-"));
  const { stdout } = await run("npm", ["pack", join(repo, "pkg"), "--pack-destination", project, "--json"]);
  const [packed] = JSON.parse(stdout);
  mkdirSync(join(project, installed), { recursive: true });
  await run("tar", ["-xzf", join(project, packed.filename), "-C", join(project, installed), "--strip-components=1"]);
  cpSync(join(repo, "pkg-tests/consumers"), project, { recursive: true });
  cpSync(join(repo, "pkg-tests/shared-cases.mjs"), join(project, "shared-cases.mjs"));
  cpSync(join(repo, "client-core/tests/cases.json"), join(project, "cases.json"));
});

after(() => rmSync(project, { recursive: true, force: true }));

/** Every shared case ran through the entry and agreed with the native build. */
function agrees(result, where) {
  assert.deepStrictEqual(result.missing, [], `${where}: functions without a runner`);
  assert.deepStrictEqual(result.failures, [], `${where}: cases that disagree`);
  assert.equal(result.ran, caseCount(cases), `${where}: every case ran`);
}

test("the packed package holds every entry, its types, a README naming every export, and the crate's version", () => {
  const manifest = JSON.parse(readFileSync(join(project, installed, "package.json")));
  const cargo = readFileSync(join(repo, "client-core/Cargo.toml"), "utf8");
  assert.equal(manifest.version, /^version = "(.*)"$/m.exec(cargo)[1]);
  const exports = manifest.exports;
  for (const name of [".", "./more", "./link"]) {
    for (const entry of [exports[name].node.import, exports[name].node.require, exports[name]]) {
      for (const file of [entry.types, entry.default]) assert.ok(readFileSync(join(project, installed, file)).length > 0, file);
    }
  }
  for (const entry of [exports["./web"], exports["./web/more"], exports["./web/link"]]) {
    for (const file of [entry.types, entry.default]) assert.ok(readFileSync(join(project, installed, file)).length > 0, file);
  }
  for (const dir of ["bundler", "esm", "node", "web"]) {
    const files = readdirSync(join(project, installed, dir));
    for (const module of MODULES) assert.ok(files.includes(`${module}_bg.wasm`), `${dir}/${module}`);
  }
  const readme = readFileSync(join(project, installed, "README.md"), "utf8");
  const dts = MODULES.map((m) => readFileSync(join(project, installed, `esm/${m}.d.ts`), "utf8")).join("\n");
  const exported = [...dts.matchAll(/export function (\w+)\(/g)].map((m) => m[1]);
  assert.ok(exported.length > 40);
  assert.deepStrictEqual(exported.filter((name) => !readme.includes(`${name}(`)), [], "exports without an example");
});

test("Node imports it as ES modules without flags", async () => {
  const { stdout } = await run(process.execPath, ["esm.mjs"], { cwd: project });
  const result = JSON.parse(stdout);
  assert.ok(result.entry.endsWith(`${installed}/esm/client_core.js`), result.entry);
  agrees(result, "Node import");
});

test("Node requires it as CommonJS without flags", async () => {
  const { stdout } = await run(process.execPath, ["cjs.cjs"], { cwd: project });
  const result = JSON.parse(stdout);
  assert.ok(result.entry.endsWith(`${installed}/node/client_core.js`), result.entry);
  agrees(result, "Node require");
});

test("each entry's types check with tsc", async () => {
  const tsc = join(repo, "node_modules/.bin/tsc");
  const options = ["--noEmit", "--strict", "--skipLibCheck", "false", "--target", "es2022"];
  await run(tsc, [...options, "--module", "nodenext", "types.mts", "types.cts"], { cwd: project }).catch((e) => {
    assert.fail(`tsc: ${e.stdout}`);
  });
});

/** Serves `dir` on a loopback port; returns its URL and a way to stop. */
async function serve(dir) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };
  const server = createServer((req, res) => {
    const file = decodeURIComponent(req.url.split("?")[0]);
    const path = join(dir, file.endsWith("/") ? `${file}index.html` : file);
    try {
      const body = readFileSync(path);
      res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

/** What a page put in `body[data-result]`, once Chromium has run it. */
async function pageResult(url) {
  const profile = mkdtempSync(join(tmpdir(), "bb-chromium-"));
  try {
    const { stdout } = await run("/usr/bin/chromium", [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      `--user-data-dir=${profile}`, "--virtual-time-budget=15000", "--dump-dom", url,
    ], { timeout: 90_000, maxBuffer: 16 << 20 });
    const found = /data-result="([^"]*)"/.exec(stdout);
    assert.ok(found, `the page ran the cases: ${stdout.slice(0, 300)}`);
    return JSON.parse(found[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

test("a Vite app bundles it by name and Chromium runs it", async () => {
  const out = join(project, "vite-dist");
  await build({
    root: join(project, "vite"),
    configFile: false,
    plugins: [wasm()],
    base: "./",
    logLevel: "warn",
    build: { outDir: out, emptyOutDir: true, target: "esnext" },
  });
  assert.ok(readdirSync(join(out, "assets")).some((f) => f.endsWith(".wasm")), "a wasm asset");
  const site = await serve(out);
  try {
    agrees(await pageResult(site.url), "Vite in Chromium");
  } finally {
    site.close();
  }
});

test("a webpack app bundles it by name and Chromium runs it", async () => {
  const out = join(project, "webpack-dist");
  const compiler = webpack({
    mode: "production",
    context: join(project, "webpack"),
    entry: "./main.js",
    output: { path: out, filename: "main.js" },
    experiments: { asyncWebAssembly: true },
    performance: { hints: false },
  });
  const stats = await new Promise((resolve, reject) => compiler.run((e, s) => (e ? reject(e) : resolve(s))));
  assert.ok(!stats.hasErrors(), stats.toString("errors-only"));
  cpSync(join(project, "webpack/index.html"), join(out, "index.html"));
  assert.ok(readdirSync(out).some((f) => f.endsWith(".wasm")), "a wasm asset");
  const site = await serve(out);
  try {
    agrees(await pageResult(site.url), "webpack in Chromium");
  } finally {
    site.close();
  }
});

test("a plain page imports the web entry, calls init() and Chromium runs it", async () => {
  const site = await serve(project);
  try {
    agrees(await pageResult(`${site.url}page.html`), "plain page in Chromium");
  } finally {
    site.close();
  }
});

