// `make bench` (wasm part): each module's size, time to instantiate both in Node, and 100,000
// isValidEmail + mapLink calls through wasm against the same checks written directly in JS.
import { readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";

const MODULES = ["client_core", "client_core_more", "client_core_link"];
const wasmUrl = (module) => new URL(`../pkg/bundler/${module}_bg.wasm`, import.meta.url);

// Instantiation: compile + instantiate the modules and load the glue, as a page load does.
const t0 = performance.now();
const { core } = await import("./core.mjs");
const instantiateMs = performance.now() - t0;

// The same rules written directly in JavaScript, as a reference point.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const jsIsValidEmail = (s) => typeof s === "string" && s.length <= 254 && EMAIL.test(s);
function jsMapLink(link) {
  const m = /^blockbrief:\/\/([A-Za-z0-9_]+)(?:\?(.*))?$/i.exec(link);
  if (!m) return { kind: "invalid" };
  const screen = m[1];
  let path = screen === "TabHome" ? "/" : screen === "UserProfile" ? "/account" : "/" + screen[0].toLowerCase() + screen.slice(1);
  const params = new URLSearchParams(m[2] ?? "");
  const id = params.get("id");
  params.delete("id");
  if (id) path += "/" + encodeURIComponent(id);
  const rest = params.toString();
  if (rest) path += "/" + Buffer.from(rest).toString("base64url");
  return { kind: "internal", path };
}

const emails = ["reader@example.org", "not-an-email", "a@b.co", "x".repeat(40) + "@host.io"];
const links = ["blockbrief://Benefit?id=42&from=home", "blockbrief://Explore", "/feed/7", "blockbrief://Feed?id=9"];
const N = 100_000;

function timeIt(fn) {
  for (let i = 0; i < 5_000; i++) fn(i); // warm-up
  const start = performance.now();
  for (let i = 0; i < N; i++) fn(i);
  return performance.now() - start;
}

const runs = 5;
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const measure = (fn) => median(Array.from({ length: runs }, () => timeIt(fn)));
const pairs = {
  "isValidEmail": [(i) => core.isValidEmail(emails[i & 3]), (i) => jsIsValidEmail(emails[i & 3])],
  "mapLink": [(i) => core.mapLink(links[i & 3]), (i) => jsMapLink(links[i & 3])],
  "both": [
    (i) => { core.isValidEmail(emails[i & 3]); core.mapLink(links[i & 3]); },
    (i) => { jsIsValidEmail(emails[i & 3]); jsMapLink(links[i & 3]); },
  ],
};

const kb = (n) => (n / 1024).toFixed(1) + " KiB";
for (const module of MODULES) {
  const gz = gzipSync(readFileSync(wasmUrl(module)), { level: 9 }).length;
  console.log(`${`${module}:`.padEnd(22)}${kb(statSync(wasmUrl(module)).size)} raw, ${kb(gz)} gzipped (-9)`);
}
console.log(`instantiate (Node):   ${instantiateMs.toFixed(1)} ms, both modules`);
for (const [name, [wasmFn, jsFn]] of Object.entries(pairs)) {
  const wasmMs = measure(wasmFn);
  const jsMs = measure(jsFn);
  console.log(`100k ${name.padEnd(13)} wasm ${wasmMs.toFixed(1)} ms, plain JS ${jsMs.toFixed(1)} ms, ratio ${(wasmMs / jsMs).toFixed(2)}x (median of ${runs})`);
}
