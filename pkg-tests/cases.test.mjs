// Runs client-core/tests/cases.json against the wasm package; the Rust test
// client-core/tests/shared_cases.rs runs the same file natively, so both builds must agree.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as core from "../pkg/client_core.js";

const cases = JSON.parse(readFileSync(new URL("../client-core/tests/cases.json", import.meta.url)));

/** Expands {"repeat": s, "times": n, "then"?: t} into a string, anywhere in a value. */
function expand(v) {
  if (Array.isArray(v)) return v.map(expand);
  if (v && typeof v === "object") {
    if ("repeat" in v) return v.repeat.repeat(v.times) + (v.then ?? "");
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x)]));
  }
  return v;
}

const pairs = (p) => Object.fromEntries(p);
const paramsOut = (r) => (r.ok ? { out: Object.entries(r.value) } : { error: r.error });
const out = (v) => ({ out: v });

/** The wasm answer for one case, shaped like the expectation (`out` or `error`). */
const runners = {
  mapLink: (i) => out(core.mapLink(i)),
  encodeExt: (i) => out(core.encodeExt(pairs(i))),
  decodeExt: (i) => paramsOut(core.decodeExt(i)),
  mergeExtQuery: ([q, s]) => paramsOut(core.mergeExtQuery(pairs(q), s)),
  isValidEmail: (i) => out(core.isValidEmail(i)),
  emailError: (i) => out(core.emailError(i) ?? null),
  sanitizePhone: (i) => out(core.sanitizePhone(i)),
  isValidPhone: (i) => out(core.isValidPhone(i)),
  otpPhoneNumber: ([d, p]) => out(core.otpPhoneNumber(d, p)),
  sanitizeCode: (i) => out(core.sanitizeCode(i)),
  canSendEmailCode: (i) => out(core.canSendEmailCode(i)),
  canLoginWithEmail: ([e, c]) => out(core.canLoginWithEmail(e, c)),
  canLoginWithPhone: ([d, p, c]) => out(core.canLoginWithPhone(d, p, c)),
  validateFeedback: (i) => out(core.validateFeedback(i)),
  contentCounter: (i) => out(core.contentCounter(i)),
  checkImage: ([f, n]) => out(core.checkImage(f, n) ?? null),
  taskButton: (i) => out(core.taskButton(i)),
  taskPress: (i) => out(core.taskPress(i)),
  webTaskPress: (i) => out(core.webTaskPress(i)),
  appLinkErrorKey: (i) => out(core.appLinkErrorKey(i)),
  unwrapResponse: ([s, t, b]) => out(core.unwrapResponse(s, t, b)),
  checkEndpoint: ([p, t]) => out(core.checkEndpoint(p, t)),
  shouldRetry: ([n, s]) => out(core.shouldRetry(n, s)),
  deviceHeader: (i) => out(JSON.parse(core.deviceHeader(i))),
  normalizeLocale: (i) => out(core.normalizeLocale(i)),
  usesChineseType: (i) => out(core.usesChineseType(i)),
  splitLocalePath: (i) => out(core.splitLocalePath(i)),
  initialTheme: (i) => out(core.initialTheme(i)),
  parseTheme: (i) => {
    try {
      return out(core.parseTheme(i));
    } catch (e) {
      assert.ok(e instanceof Error, "a fault is thrown as an Error");
      return { error: e.message };
    }
  },
  isSchemeLink: (i) => out(core.isSchemeLink(i)),
  localePath: ([l, p]) => out(core.localePath(l, p)),
  pickLocale: (i) => out(core.pickLocale(i)),
  tabKinds: (i) => out(core.tabKinds(i) ?? null),
  cardLayout: ([k, s, n]) => out(core.cardLayout(k, s, n)),
  matchPage: (i) => out(core.matchPage(i) ?? null),
  checkComment: (i) => out(core.checkComment(i)),
  mentionQuery: (i) => out(core.mentionQuery(i) ?? null),
  canEditComment: ([c, n]) => out(core.canEditComment(c, n)),
  commentSegments: (i) => out(core.commentSegments(i)),
  checkNickname: (i) => out(core.checkNickname(i) ?? null),
  checkBio: (i) => out(core.checkBio(i) ?? null),
  checkQuestion: ([t, x, n, b, bal]) => out(core.checkQuestion(t, x, n, b, bal) ?? null),
  checkAnswer: (i) => out(core.checkAnswer(i) ?? null),
  checkPost: ([t, x, g, k, i]) => out(core.checkPost(t, x, g, k, i) ?? null),
  feedPath: ([l, k, c, a]) => out(core.feedPath(l, k, c, a)),
  checkReadLangs: (i) => out(core.checkReadLangs(i) ?? null),
  defaultReadLangs: (i) => out(core.defaultReadLangs(i)),
  settleBounty: ([b, a]) => out(core.settleBounty(b, a)),
  timeAgo: ([p, n]) => out(core.timeAgo(p, n)),
  trackBatchLen: (i) => out(core.trackBatchLen(i)),
  cutDescription: (i) => out(core.cutDescription(i)),
  safeRedirectOrigin: ([to, allowed]) => out(core.safeRedirectOrigin(to, allowed) ?? null),
};

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

test("every export of the package has a shared-case runner or is a constant table", () => {
  const untested = Object.keys(core).filter(
    (k) => typeof core[k] === "function" && !(k in runners) && !["constants", "errorKey"].includes(k),
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
