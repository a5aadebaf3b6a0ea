// The package in a Vite app, loaded by real Chromium: vite-plugin-wasm bundles pkg/ and the
// browser instantiates the module and runs the rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { build } from "vite";

const root = new URL("./vite-app/", import.meta.url).pathname;
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

test("a Vite app bundles the package and Chromium runs it", async () => {
  const out = mkdtempSync(join(tmpdir(), "bb-vite-"));
  const profile = mkdtempSync(join(tmpdir(), "bb-chromium-"));
  const server = createServer((req, res) => {
    const path = join(out, req.url === "/" ? "index.html" : req.url.split("?")[0]);
    try {
      const body = readFileSync(path);
      res.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  try {
    await build({ root, configFile: join(root, "vite.config.js"), base: "./", build: { outDir: out, emptyOutDir: true } });
    const assets = readdirSync(join(out, "assets"));
    assert.ok(assets.some((f) => f.endsWith(".wasm")), `a wasm asset in ${assets}`);

    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${server.address().port}/`;
    const { stdout } = await promisify(execFile)("/usr/bin/chromium", [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      `--user-data-dir=${profile}`, "--virtual-time-budget=10000", "--dump-dom", url,
    ], { timeout: 60_000 });
    const found = /data-result="([^"]*)"/.exec(stdout);
    assert.ok(found, `the page ran the rules: ${stdout.slice(0, 300)}`);
    const result = JSON.parse(found[1].replaceAll("&quot;", '"'));
    assert.deepStrictEqual(result, [
      { kind: "internal", path: "/benefit/42/ZnJvbT1ob21l" },
      true,
      { ok: true, value: { from: "home" } },
    ]);
  } finally {
    server.close();
    rmSync(out, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
});
