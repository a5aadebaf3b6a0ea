// Every export takes any value from JavaScript without killing the module: wrong types, empty and
// huge strings, lone surrogates. A wasm panic would abort the instance, so after all the abuse
// the module must still answer correctly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { core } from "./core.mjs";

const weird = [
  undefined, null, 0, -1, NaN, Infinity, 1e308, true, {}, [], [1, 2], () => 1, Symbol("s"),
  "", "\uD800", "a\uDFFFb", "\u0000", "x".repeat(1_000_000), "%", "=", "&&&", "blockbrief://",
  { type: 5, content: [], images: "no" }, { task: null }, { name: 1, size: "big" },
];

/** Exports that may throw an Error for a malformed object (a caller's fault), never crash. */
const mayThrow = new Set(["encodeExt", "taskButton", "taskPress", "webTaskPress", "deviceHeader", "parseTheme", "checkAlertRule", "countAlertMatches", "hotScore", "risingScore", "loadLinkCatalogue", "linkText"]);

test("no export crashes the module on any input", () => {
  for (const [name, fn] of Object.entries(core)) {
    if (typeof fn !== "function") continue;
    for (const a of weird) {
      for (const b of [undefined, "x", 3]) {
        try {
          fn(a, b, a);
        } catch (e) {
          assert.ok(mayThrow.has(name), `${name} threw on ${String(a).slice(0, 20)}: ${e}`);
          assert.ok(e instanceof Error, `${name} threw a non-Error`);
          assert.doesNotMatch(e.message, /unreachable|panicked/i, `${name} panicked`);
        }
      }
    }
  }
  // Still alive and still right.
  assert.deepStrictEqual(core.mapLink("blockbrief://Benefit?id=42&from=home"), {
    kind: "internal",
    path: "/benefit/42/ZnJvbT1ob21l",
  });
  assert.equal(core.isValidEmail("a@b.co"), true);
});

test("wrong types read as invalid, not as coerced strings", () => {
  assert.equal(core.isValidEmail(123), false);
  assert.equal(core.isValidEmail({ toString: () => "a@b.co" }), false);
  assert.equal(core.mapLink(42).kind, "invalid");
  assert.equal(core.decodeExt(null).ok, false);
  assert.equal(core.mergeExtQuery("a=1", "ZnJvbT1ob21l").ok, false);
  assert.equal(core.mergeExtQuery({ a: 1 }, "ZnJvbT1ob21l").ok, false);
  assert.equal(core.canLoginWithEmail("a@b.co", 1234), false);
  assert.deepStrictEqual(core.validateFeedback("x"), {
    ok: false,
    errors: [{ field: "form", key: "rules.feedback.formInvalid", message: "Invalid feedback form" }],
  });
  assert.equal(core.checkImage(null, 0)?.message, "Only accept type of .png .jpeg .jpg .gif .");
  assert.equal(core.initialTheme(null), "light");
  assert.throws(() => core.parseTheme(7), { message: "Invalid theme name" });
  assert.throws(() => core.taskPress({ task: { status: "bogus" } }), Error);
});

test("objects are read field by field: optional fields missing, null or undefined", () => {
  assert.equal(core.checkImage({ name: "a.png", size: 1024, type: "image/png" }, 0), null);
  assert.equal(core.checkImage({ name: "a.png", size: 1.5, type: "image/png" }, 0)?.key, "rules.image.badType");
  for (const contact of [undefined, null, "me@example.org"]) {
    assert.equal(core.validateFeedback({ type: "bug", content: "It broke", contact, images: [] }).ok, true);
  }
  assert.equal(core.validateFeedback({ type: "bug", content: "It broke", images: [] }).ok, true);
  assert.equal(core.initialTheme({ query: "1" }), "dark");
  assert.equal(core.initialTheme({ query: null, local: "dark" }), "dark");
  assert.deepStrictEqual(core.mergeExtQuery({ z: "1", a: "2" }, "ZnJvbT1ob21l"), { ok: true, value: { z: "1", a: "2", from: "home" } });
});

test("lone surrogates are replaced, never trusted", () => {
  assert.equal(core.isValidEmail("a\uD800@b.co"), false);
  assert.equal(core.sanitizeCode("1\uD8002\uDC003"), "123");
  assert.equal(core.contentCounter("\uD800".repeat(301)).atLimit, true);
});

test("the TypeScript declarations are exact: no `any` in the exported signatures", () => {
  const dts = (module) => readFileSync(new URL(`../pkg/esm/${module}.d.ts`, import.meta.url), "utf8");
  const [main, more] = [dts("client_core"), dts("client_core_more")];
  for (const text of [main, more]) assert.doesNotMatch(text.replace(/\/\*[\s\S]*?\*\//g, ""), /\bany\b/);
  for (const name of ["unwrapResponse", "matchPage", "timeAgo"]) assert.match(main, new RegExp(`export function ${name}\\(`));
  for (const name of ["mapLink", "decodeExt", "validateFeedback", "taskPress", "checkPost"]) {
    assert.match(more, new RegExp(`export function ${name}\\(`));
  }
  assert.match(more, /export function mapLink\(link_text: string\): LinkResult;/);
});

test("the package is named @blockbrief/client-core", () => {
  const meta = JSON.parse(readFileSync(new URL("../pkg/package.json", import.meta.url), "utf8"));
  assert.equal(meta.name, "@blockbrief/client-core");
});

test("unwrapResponse hands back the body's data itself, never a copy", () => {
  const data = { list: Array.from({ length: 1000 }, (_, i) => ({ id: i })) };
  const ok = core.unwrapResponse(200, "OK", { code: 2000, msg: "success", data });
  assert.equal(ok.ok, true);
  assert.equal(ok.data, data);
  const body = { code: 401, msg: "Please log in again", data: null };
  const denied = core.unwrapResponse(401, "Unauthorized", body);
  assert.equal(denied.error.data, body);
  assert.equal(denied.logout, true);
});
