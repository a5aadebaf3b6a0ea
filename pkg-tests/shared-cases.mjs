// The shared cases (client-core/tests/cases.json) as each wasm function takes them, for any
// build of the package: Node's tests, and the consumer apps of entries.test.mjs (Node ESM and
// CommonJS, a Vite app and a plain page in Chromium). No Node APIs: it runs in browsers too.

/** Expands {"repeat": s, "times": n, "then"?: t} into a string, anywhere in a value. */
export function expand(v) {
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
const micro = (score) => Math.round(score * 1e6) / 1e6 + 0;

/** The wasm answer for one case, shaped like the expectation (`out` or `error`). */
/** `cases` gives what some runners share (`_alertSample`). */
export const runnersFor = (core, cases) => ({
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
      // A fault is thrown as an Error.
      return { error: e instanceof Error ? e.message : `not an Error: ${e}` };
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
  checkAlertRule: (i) => out(core.checkAlertRule(i) ?? null),
  countAlertMatches: (i) => out(core.countAlertMatches(i, cases._alertSample.items)),
  linkText: (i) => {
    core.loadLinkCatalogue(cases._linkCatalogue);
    return out(core.linkText(i));
  },
  applyVote: ([m, k, on]) => out(core.applyVote(m, k, on)),
  // To six decimals: the builds' `powf` may differ in the last bits.
  hotScore: ([s, a]) => out(micro(core.hotScore(s, a))),
  risingScore: ([n, t, a]) => out(micro(core.risingScore(n, t, a))),
  streamSubjects: (i) => {
    const r = core.streamSubjects(i);
    return r.ok ? out(r.value) : { error: r.error };
  },
  safeRedirectOrigin: ([to, allowed]) => out(core.safeRedirectOrigin(to, allowed) ?? null),
});


/** JSON with object keys sorted, so equal values compare equal as text. */
const canonical = (v) =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

/** Runs every case through `core`: how many ran, which disagreed, which functions have no runner. */
export function runAll(core, cases) {
  const runners = runnersFor(core, cases);
  const result = { ran: 0, failures: [], missing: [] };
  for (const [fn, list] of Object.entries(cases)) {
    if (fn.startsWith("_")) continue;
    if (!runners[fn]) {
      result.missing.push(fn);
      continue;
    }
    for (const raw of list) {
      const c = expand(raw);
      const want = "out" in c ? { out: c.out } : { error: c.error };
      let got;
      try {
        got = runners[fn](c.in);
      } catch (e) {
        got = { threw: String(e) };
      }
      result.ran += 1;
      if (canonical(got) !== canonical(want)) result.failures.push({ fn, in: c.in, want, got });
    }
  }
  return result;
}

/** How many shared cases there are. */
export const caseCount = (cases) =>
  Object.entries(cases).reduce((n, [fn, list]) => (fn.startsWith("_") ? n : n + list.length), 0);
