// Runs client-core/tests/cases.json against the wasm package (its Node ESM build, case by case;
// entries.test.mjs runs them through every entry of the packed package); the Rust test
// client-core/tests/shared_cases.rs runs the same file natively, so both builds must agree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { core } from "./core.mjs";
import { expand, runnersFor } from "./shared-cases.mjs";

const cases = JSON.parse(readFileSync(new URL("../client-core/tests/cases.json", import.meta.url)));

const runners = runnersFor(core, cases);

for (const [fn, list] of Object.entries(cases)) {
  if (fn.startsWith("_")) continue;
  test(`${fn}: ${list.length} shared cases`, () => {
    const run = runners[fn];
    assert.ok(run, `no wasm runner for ${fn}`);
    for (const raw of list) {
      const c = expand(raw);
      const want = "out" in c ? { out: c.out } : { error: c.error };
      assert.deepStrictEqual(run(c.in), want, `${fn}(${JSON.stringify(c.in).slice(0, 200)})`);
    }
  });
}

// loadLinkCatalogue is called by `linkText`'s runner.
test("every export of the package has a shared-case runner or is a constant table", () => {
  const untested = Object.keys(core).filter(
    (k) => typeof core[k] === "function" && !(k in runners) && !["constants", "errorKey", "loadLinkCatalogue"].includes(k),
  );
  assert.deepStrictEqual(untested, []);
});

test("constants carry the spec's numbers", () => {
  const c = core.constants();
  assert.equal(c.otpResendSeconds, 60);
  assert.equal(c.feedbackContentMaxChars, 300);
  assert.equal(c.feedbackImageMaxBytes, 5242880);
  assert.deepStrictEqual(c.locales, ["en", "zh-Hans", "zh-Hant", "vi", "ko"]);
  assert.equal(c.defaultDialCode, "886");
  assert.equal(core.errorKey(4103), "error.invalidCode");
  assert.equal(core.errorKey(1), undefined);
  assert.equal(c.errorCodes.notFound, 4040);
  assert.equal(c.searchQueryMaxChars, 100);
  assert.deepStrictEqual(c.feedTabs, ["for_you", "news", "articles", "community", "following"]);
});
