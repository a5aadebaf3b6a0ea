// Generated from client-core's Rust types by `make types`; do not edit.
export type Locale = "en" | "zh-Hans" | "zh-Hant" | "vi" | "ko";
export type FeedKind = "flash" | "article" | "thread" | "research" | "post";
export type FeedTab = "for_you" | "news" | "articles" | "community" | "following";
export type FeedbackType = "suggestion" | "bug" | "other";
export type TwitterStatus = "BOUND" | "UNBOUND" | "LOADING" | "QUERY_ERROR";
export type ErrorName = "badRequest" | "unauthorized" | "loginRequired" | "wrongUrl" | "methodNotAllowed" | "notFound" | "payloadTooLarge" | "rateLimited" | "invalidParam" | "invalidEmail" | "invalidPhone" | "invalidCode" | "codeExpired" | "tooManyAttempts" | "resendTooSoon" | "captchaFailed" | "smsDisabled" | "taskNotCollectable" | "eventNotReportable" | "imageRejected" | "walletMessageInvalid" | "walletSignatureInvalid" | "walletNonceInvalid" | "accountBoundElsewhere" | "lastSignInMethod" | "invitationInvalid" | "invitationUsed" | "providerDisabled" | "identityTokenInvalid" | "userDenied" | "forbidden" | "internal" | "unavailable" | "uploadTooSlow" | "banned" | "blocked" | "duplicateContent" | "editWindowClosed" | "alreadyReported" | "nicknameTaken" | "balanceShort" | "alreadyAccepted" | "alreadyAnswered";
export type Params = Record<string, string>;
export type Theme = "light" | "dark";
/**
 * Where a first load can find a theme; any of them may be missing.
 */
export type ThemeSources = { 
/**
 * The `theme` query parameter: `0` light, `1` dark.
 */
query?: string | null, session?: string | null, local?: string | null, userAgent?: string | null, };
/**
 * What a request says about the reader's language. Any may be missing or empty.
 */
export type LocaleSources = { 
/**
 * The page path (`/zh-Hant/explore`); API calls have none.
 */
path?: string | null, 
/**
 * The saved choice (the `NEXT_LOCALE` cookie).
 */
cookie?: string | null, 
/**
 * The device's language (`navigator.language`, or `X-BPARAM`'s `language`).
 */
device?: string | null, 
/**
 * The `Accept-Language` header; its first tag counts.
 */
acceptLanguage?: string | null, };
/**
 * A path split into its locale prefix and the rest.
 */
export type LocalePath = { locale: Locale | null, path: string, };
export type Message = { key: string, message: string };
/**
 * A link's target, or why it was refused.
 */
export type LinkResult = { "kind": "internal", path: string, } | { "kind": "external", url: string, } | { "kind": "invalid", error: string, };
/**
 * `{ok: true, value}` or `{ok: false, error}`.
 */
export type Outcome<T> = { ok: true, value: T, } | { ok: false, error: string, };
/**
 * The form as both sides see it; missing fields read as empty so they are reported, not fatal.
 */
export type FeedbackForm = { type: string, content: string, contact?: string | null, images: Array<string>, };
/**
 * A form field's error: the field, the message's locale key and its English text.
 */
export type FieldError = { field: string, key: string, message: string, };
export type FeedbackCheck = { ok: boolean, errors: Array<FieldError>, };
export type ContentCounter = { count: number, max: number, 
/**
 * The counter turns to the error colour.
 */
atLimit: boolean, };
/**
 * The state of a comment form: its counter, and the message when it cannot be sent.
 */
export type CommentCheck = { ok: boolean, 
/**
 * Code points after trimming.
 */
count: number, max: number, error: Message | null, };
/**
 * A run of a comment's text as it shows.
 */
export type Segment = { "kind": "text", text: string, } | { "kind": "link", text: string, } | { "kind": "mention", text: string, name: string, };
/**
 * Who gets a bounty no one accepted in time.
 */
export type Settlement = { toAsker: number, toAnswerer: number, };
/**
 * What the browser knows of a chosen file.
 */
export type ImageFile = { name: string, size: number, type: string, };
export type TaskStatus = "not_start" | "in_progress" | "to_receive" | "completed";
export type TaskButtonSpec = { text?: string | null, disabled?: boolean | null, app_link?: string | null, };
/**
 * A task as the server lists it.
 */
export type Task = { point_id: number, event_type: string, status: TaskStatus, award: number, button?: TaskButtonSpec | null, report_time: 0 | 1, };
/**
 * Everything the button depends on.
 */
export type TaskContext = { task: Task, group: string, loggedIn: boolean, mobileOs: boolean, 
/**
 * Twitter binding status: `BOUND`, `UNBOUND`, `LOADING` or `QUERY_ERROR`.
 */
twitter: TwitterStatus | null, };
export type TaskButton = { label: string, disabled: boolean, };
export type TaskPress = { "action": "none" } | { "action": "login" } | { "action": "openMeTab" } | { "action": "collect" } | { "action": "toast", toast: string, } | { "action": "openAppLink", url: string, } | { "action": "reportAndOpen", url: string, } | { "action": "navigate", path: string, } | { "action": "showInvite" } | { "action": "openFeedback" } | { "action": "needsApp" };
export type CallError = { code: number, message: string, data: unknown, };
/**
 * A response as the client sees it.
 */
export type Unwrapped = { ok: true, data: unknown, } | { ok: false, error: CallError, logout: boolean, };
/**
 * Why the client refuses a call before sending it.
 */
export type EndpointError = { code: number, message: string, key: string, };
/**
 * What the browser knows of its device; any field may be missing.
 */
export type DeviceInfo = { os?: string | null, language?: string | null, 
/**
 * As `Date.prototype.getTimezoneOffset` gives it: minutes, positive west of UTC.
 */
timezoneOffsetMinutes?: number | null, vendor?: string | null, model?: string | null, userAgent?: string | null, };
/**
 * A feed card's layout, for callers that hold the item only as JSON (the wasm surface).
 */
export type CardLayout = { showsSummary: boolean, tagCount: number, };
/**
 * How long ago an item was published, as a locale key and its number (`web.time.hours`, 3:
 * "3h ago"); the card's words in the app and in the server's first paint.
 */
export type TimeAgo = { key: string, n: number, };
/**
 * The page a path shows and its parameters (decoded).
 */
export type PageMatch = { pattern: string, params: Record<string, string>, };
/**
 * What a reader wants to hear about.
 */
export type AlertRule = { 
/**
 * Any of these (`"a phrase"`); `-word` excludes.
 */
keywords: Array<string>, 
/**
 * Token symbols (`BTC`).
 */
tokens: Array<string>, 
/**
 * Tag codes.
 */
tags: Array<string>, 
/**
 * Channel codes.
 */
channels: Array<string>, kols: Array<number>, topics: Array<number>, only_important: boolean, 
/**
 * The languages an item is in or translated into (empty: any).
 */
langs: Array<string>, 
/**
 * A token's price to watch (`price_alert`): a rule naming only this matches no item.
 */
price: PriceRule | null, };
/**
 * An item as rules see it.
 */
export type AlertItem = { important: boolean, 
/**
 * Its language and those it was translated into.
 */
langs: Array<string>, tokens: Array<string>, tags: Array<string>, channel: string | null, kol: number | null, topics: Array<number>, 
/**
 * Titles, summaries and bodies as plain text, its own and its translations'.
 */
texts: Array<string>, };
/**
 * What price to alert on: a token and the lines its price may cross.
 */
export type PriceRule = { 
/**
 * The token's symbol (`BTC`).
 */
symbol: string, 
/**
 * Fires when the price rises to this (USD).
 */
above: number | null, 
/**
 * Fires when the price falls to this (USD).
 */
below: number | null, 
/**
 * Fires when the price moves this many percent, up or down, within the window.
 */
move_pct: number | null, 
/**
 * The move's window in minutes (default 60).
 */
window_minutes: number | null, };
/**
 * The catalogue as the linker reads it.
 */
export type LinkCatalogue = { tokens: Array<TokenEntry>, tags: Array<KeywordEntry>, topics: Array<KeywordEntry>, kols: Array<KolEntry>, };
/**
 * A token: its symbol and name always count as aliases.
 */
export type TokenEntry = { id: number, symbol: string, name: string, 
/**
 * Other names, keyed by locale (`{"zh-Hans": ["比特币"]}`).
 */
aliases: { [key in string]: Array<string> }, 
/**
 * Its symbol is also a word: a bare symbol needs its name, a pair or a price beside it.
 */
ambiguous: boolean, };
/**
 * A tag or a topic: the words that say it, keyed by locale.
 */
export type KeywordEntry = { id: number, code: string, keywords: { [key in string]: Array<string> }, 
/**
 * The token a tag stands for: linked with it.
 */
token: number | null, };
/**
 * A KOL: named by handle (`@handle` or bare) or by name.
 */
export type KolEntry = { id: number, handle: string, name: string, };
export type LinkKind = "token" | "tag" | "topic" | "kol";
export type Field = "title" | "summary" | "body";
/**
 * Where a linked thing is named: characters `start..end` of `field`.
 */
export type Evidence = { kind: LinkKind, id: number, field: Field, start: number, end: number, };
/**
 * What a text names, each list by weight (the most prominent first), then id.
 */
export type Links = { tokens: Array<number>, tags: Array<number>, topics: Array<number>, kols: Array<number>, evidence: Array<Evidence>, };
/**
 * A text to link as the browser sends it: plain text and its language.
 */
export type LinkText = { lang: string, title: string, summary: string, body: string, };
/**
 * An item's votes, by kind.
 */
export type VoteCounts = { bullish: number, bearish: number, important: number, lol: number, toxic: number, };
/**
 * What an item has gathered, for ranking.
 */
export type Signals = { votes: VoteCounts, comments: number, likes: number, views: number, 
/**
 * The editors marked it important.
 */
important: boolean, };
/**
 * Why an item is important without an editor saying so.
 */
export type ImportantReason = { "kind": "sources", sources: number, minutes: number, };
/**
 * The spec's numbers and lists that the interface needs (countdowns, limits, tabs, codes).
 */
export type Constants = { successCode: number, otpCodeLength: number, otpResendSeconds: number, emailErrorDebounceMs: number, defaultDialCode: string, feedbackContentMaxChars: number, feedbackMaxImages: number, feedbackImageMaxBytes: number, feedbackTypes: FeedbackType[], logoutThrottleMs: number, trackFlushMs: number, trackMaxEntries: number, trackMaxBodyBytes: number, searchQueryMaxChars: number, 
/**
 * A reader's post: its title's and text's lengths, and how many tags and images it takes.
 */
postTitleMaxChars: number, postContentMaxChars: number, postMaxTags: number, postMaxImages: number, localeCookie: string, locales: Locale[], defaultLocale: Locale, eventTypes: Array<string>, feedTabs: FeedTab[], 
/**
 * The orders a feed list takes (`new`, `hot`, `rising`).
 */
feedSorts: Array<string>, 
/**
 * The votes, in the order cards show them.
 */
voteKinds: Array<string>, 
/**
 * Each vote's mark, in `vote_kinds` order.
 */
voteMarks: Array<string>, 
/**
 * The app's pages (`pages::PAGES`) and the sign-in popup's page.
 */
pages: Array<string>, oauthCallbackPath: string, 
/**
 * Each catalogue error's code by its name (`notFound` → 4040).
 */
errorCodes: Record<ErrorName, number>, };
