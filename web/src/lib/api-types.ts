// Generated from the server's Rust types by `make types`; do not edit.
import type { AlertItem, AlertRule, FeedKind, ImportantReason, Locale, TaskStatus, VoteCounts } from "@blockbrief/client-core";
export type MessageKind = "reply" | "mention" | "like" | "points" | "removed" | "removed_post" | "removed_question" | "removed_answer" | "reset_profile" | "announcement" | "answer" | "accepted";
export type Page<T> = { list: Array<T>, 
/**
 * Pass back to get the next page; `null` at the end.
 */
next_cursor: string | null, };
/**
 * What the client keeps of a signed-in user.
 */
export type SessionUser = { 
/**
 * Given once, at sign-in; the client keeps it apart from the user.
 */
token?: string | null, id: number, exposed_uid: string, username: string, nickname: string, avatar: string, invitation_code: string, type: number, 
/**
 * A new user is asked for the invitation code of whoever brought them.
 */
prompt_for_code: boolean, 
/**
 * Feeds come in the reader's language where a translation exists.
 */
auto_translate: boolean, 
/**
 * "Languages I read": feeds, search and linked bots keep to items in them.
 */
read_langs: Locale[], };
/**
 * A sign-in account as the account page lists it.
 */
export type AccountView = { type: string, name: string, id: number, };
/**
 * What the web's popup needs to ask Apple: our Services ID, the Return URL registered with
 * Apple, Apple's script, and a nonce for Apple to sign into the identity token (also the
 * request's `state`).
 */
export type AppleStart = { nonce: string, client_id: string, redirect_uri: string, script_url: string, };
export type TagRef = { id: number, code: string, name: string, };
export type TokenRef = { id: number, symbol: string, 
/**
 * Its latest price, if it has one.
 */
price: Quote | null, };
export type AuthorRef = { id: number, handle: string, name: string, avatar: string, };
/**
 * The story a card stands for: `size` reports of one event, the first in `first_lang`.
 */
export type StoryRef = { id: number, size: number, first_lang: string, first_at: number, };
export type Original = { title: string, summary: string, 
/**
 * The item's page only: its sanitized HTML.
 */
content?: string, 
/**
 * Translated by a machine (the translation service), not the source or an editor.
 */
machine: boolean, };
/**
 * The text as written, beside its translation: "Show original" needs no request.
 */
export type OriginalText = { 
/**
 * A question's title.
 */
title?: string, content: string, };
export type FeedView = { id: number, kind: FeedKind, title: string, summary: string, 
/**
 * The language the item was written in.
 */
lang: string, 
/**
 * The language of `title` and `summary` as returned.
 */
shown_lang: string, translated: boolean, source_name: string, source_url: string, author: AuthorRef | null, 
/**
 * The reader who wrote a `post`.
 */
user: UserRef | null, channel: string | null, images: Array<string>, important: boolean, 
/**
 * Why it is important without an editor: its story broke (`client_core::breaking`).
 */
important_reason?: ImportantReason, published_at: number, views: number, like_count: number, comment_count: number, tags: Array<TagRef>, tokens: Array<TokenRef>, 
/**
 * The story it reports with other items, if any.
 */
story?: StoryRef, 
/**
 * Whether the signed-in reader likes it (absent for visitors).
 */
liked?: boolean, 
/**
 * Whether the signed-in reader keeps it in their favorites (absent for visitors).
 */
favorited?: boolean, 
/**
 * Readers' votes, by kind.
 */
votes: VoteCounts, 
/**
 * The signed-in reader's votes on it, in card order (absent for visitors).
 */
mine?: Array<string>, 
/**
 * The text as written, when a translation is shown in its place: "Show original" needs
 * no request.
 */
original?: Original, };
export type FeedDetail = { 
/**
 * Sanitized HTML.
 */
content: string, related: Array<FeedView>, id: number, kind: FeedKind, title: string, summary: string, 
/**
 * The language the item was written in.
 */
lang: string, 
/**
 * The language of `title` and `summary` as returned.
 */
shown_lang: string, translated: boolean, source_name: string, source_url: string, author: AuthorRef | null, 
/**
 * The reader who wrote a `post`.
 */
user: UserRef | null, channel: string | null, images: Array<string>, important: boolean, 
/**
 * Why it is important without an editor: its story broke (`client_core::breaking`).
 */
important_reason?: ImportantReason, published_at: number, views: number, like_count: number, comment_count: number, tags: Array<TagRef>, tokens: Array<TokenRef>, 
/**
 * The story it reports with other items, if any.
 */
story?: StoryRef, 
/**
 * Whether the signed-in reader likes it (absent for visitors).
 */
liked?: boolean, 
/**
 * Whether the signed-in reader keeps it in their favorites (absent for visitors).
 */
favorited?: boolean, 
/**
 * Readers' votes, by kind.
 */
votes: VoteCounts, 
/**
 * The signed-in reader's votes on it, in card order (absent for visitors).
 */
mine?: Array<string>, 
/**
 * The text as written, when a translation is shown in its place: "Show original" needs
 * no request.
 */
original?: Original, };
export type TokenView = { id: number, symbol: string, name: string, chain: string, logo: string, follower_count: number, 
/**
 * Its market figures, on its own page (`/token/detail`) when it has a price.
 */
market: MarketView | null, };
export type TagView = { id: number, code: string, name: string, description: string, logo: string, follower_count: number, 
/**
 * The token this tag stands for.
 */
token: TokenView | null, };
export type ChannelView = { id: number, code: string, name: string, };
export type KolView = { id: number, handle: string, name: string, avatar: string, bio: string, follower_count: number, };
export type TopicView = { id: number, code: string, title: string, description: string, cover: string, heat: number, follower_count: number, 
/**
 * The language of the title and description: the reader's, or the English they fall back to.
 */
lang: string, };
export type BenefitView = { id: number, project: string, logo: string, title: string, steps: Array<string>, reward: string, deadline: number, 
/**
 * The deadline has passed.
 */
ended: boolean, link: string, published_at: number, 
/**
 * The language of the title, steps and reward: the reader's, or the English they fall back to.
 */
lang: string, };
export type Explore = { topics: Array<TopicView>, tags: Array<TagView>, channels: Array<ChannelView>, kols: Array<KolView>, };
export type Hit = { kind: "feed" | "tag" | "token" | "kol", id: number, title: string, 
/**
 * The hit's page in the app, without the locale prefix (`/tag/btc`, `/token/BTC`).
 */
path: string, 
/**
 * HTML-escaped text with matches in `<mark>`.
 */
snippet: string, 
/**
 * When a feed hit was published.
 */
published_at?: number, };
export type TaskButtonView = { 
/**
 * Empty: the client shows its default label for the status.
 */
text: string, disabled: boolean, app_link: string, };
export type Progress = { count: number, target: number, };
/**
 * A task as `POST /point/task/list` gives it (the shape client-core's `Task` reads).
 */
export type TaskView = { point_id: number, event_type: string, status: TaskStatus, award: number, title: string, progress: Progress, button: TaskButtonView, report_time: 0 | 1, };
export type Collected = { award: number, balance: number, };
export type LedgerItem = { id: number, amount: number, 
/**
 * The event type of the task that paid it.
 */
reason: string, point_id: number, created_at: number, };
export type Ranked = { rank: number, exposed_uid: string, nickname: string, avatar: string, points: number, };
export type MyRank = { 
/**
 * `null` while the caller has no points in the period.
 */
rank: number | null, points: number, };
export type Leaderboard = { list: Array<Ranked>, 
/**
 * The caller's own standing (signed-in callers only).
 */
me: MyRank | null, };
export type CaptchaUse = { use: "none" | "reCAPTCHA.v2" | "reCAPTCHA.v3", site_key: string, 
/**
 * The sign-in methods this site offers: `email` and `wallet` always, `google`, `line`,
 * `twitter`, `apple` and `telegram` when configured. The dialog offers only these.
 */
methods: ("email" | "wallet" | "google" | "line" | "twitter" | "apple" | "telegram")[], };
/**
 * What the Telegram Login Widget needs: the bot's username and id.
 */
export type TelegramStart = { bot_username: string, 
/**
 * The number before the token's colon (public: it is the bot's user id).
 */
bot_id: string, };
export type TelegramLink = { 
/**
 * `https://t.me/<bot>?start=<code>`: opens the bot, which links the chat on `/start`.
 */
url: string, expires_in: number, };
/**
 * A chat linked to an account, as the account page lists it.
 */
export type LinkedChat = { id: number, platform: string, kind: string, state: string, 
/**
 * When the bot first saw the chat.
 */
first_seen_at: number, };
export type LikeState = { liked: boolean, count: number, };
export type VoteState = { votes: VoteCounts, 
/**
 * The reader's votes on the item, in card order.
 */
mine: Array<string>, };
/**
 * Bullish and bearish votes on the items naming a token, cast in the last hours.
 */
export type Sentiment = { bullish: number, bearish: number, 
/**
 * Shares of the two, 0 to 1 (both 0 when nobody voted).
 */
bullish_share: number, bearish_share: number, hours: number, };
export type StoryDetail = { id: number, size: number, 
/**
 * The item feeds show for the story.
 */
lead_id: number, 
/**
 * The language that reported it first, and when.
 */
first_lang: string, first_at: number, 
/**
 * How many minutes the first report came before the first in another language (absent
 * when every report is in one language).
 */
ahead_minutes?: number, 
/**
 * Its items, earliest first.
 */
items: Array<FeedView>, };
/**
 * Another reader as conversations show them.
 */
export type UserRef = { id: number, nickname: string, avatar: string, };
export type CommentView = { id: number, subject_kind: "feed" | "question" | "answer", subject_id: number, parent_id: number | null, 
/**
 * `null` for a deleted or removed comment.
 */
user: UserRef | null, 
/**
 * Whom a reply answered, when it answered a reply.
 */
reply_to: UserRef | null, 
/**
 * Empty for a deleted or removed comment.
 */
content: string, 
/**
 * The language it was written in (empty when not known).
 */
lang: string, 
/**
 * The text as written, when a translation is shown in its place.
 */
original?: OriginalText, like_count: number, liked: boolean, reply_count: number, created_at: number, edited_at: number | null, state: "visible" | "deleted" | "removed", 
/**
 * A top-level comment's first replies, oldest first (empty for replies).
 */
replies: Array<CommentView>, };
export type CommentVersion = { content: string, 
/**
 * When this version was written.
 */
at: number, };
/**
 * A kept or read item, with when.
 */
export type KeptItem = { at: number, item: FeedView, };
export type MessageView = { id: number, kind: MessageKind, 
/**
 * Who did it: the replier, the mentioner, the latest liker.
 */
actor: UserRef | null, 
/**
 * Likes counted in this message; points awarded.
 */
count: number, feed_id: number | null, comment_id: number | null, 
/**
 * The question an answer or an acceptance is about.
 */
question_id: number | null, 
/**
 * An announcement's title in the reader's language.
 */
title: string, 
/**
 * The comment's opening, the removal's reason, the task's event, an announcement's body.
 */
body: string, read: boolean, 
/**
 * When it last changed (a grouped like message moves up with each like).
 */
at: number, };
export type BlockedUser = { user: UserRef, blocked_at: number, };
export type ProfileView = { id: number, nickname: string, avatar: string, bio: string, joined: number, points: number, 
/**
 * Visible comments, and the likes they received.
 */
comments: number, likes_received: number, posts: number, answers: number, 
/**
 * Readers who follow them, and the readers they follow.
 */
followers: number, following: number, };
export type AnswerView = { id: number, user: UserRef | null, content: string, 
/**
 * The language it was written in (empty when not known).
 */
lang: string, 
/**
 * The text as written, when a translation is shown in its place.
 */
original?: OriginalText, like_count: number, accepted: boolean, created_at: number, edited_at: number | null, };
export type QuestionView = { id: number, user: UserRef | null, title: string, content: string, 
/**
 * The language it was written in (empty when not known).
 */
lang: string, 
/**
 * The title and text as written, when a translation is shown in their place.
 */
original?: OriginalText, tag_ids: Array<number>, bounty: number, bounty_state: "none" | "open" | "accepted" | "settled", 
/**
 * When an open bounty is settled if no answer is accepted.
 */
deadline_at: number | null, accepted_answer_id: number | null, answer_count: number, like_count: number, created_at: number, };
export type QuestionDetail = { 
/**
 * The first page of answers: the accepted one first, then by likes, then oldest.
 */
answers: Array<AnswerView>, 
/**
 * For `/question/answers`: the rest; `null` when these are all.
 */
answers_next_cursor: string | null, id: number, user: UserRef | null, title: string, content: string, 
/**
 * The language it was written in (empty when not known).
 */
lang: string, 
/**
 * The title and text as written, when a translation is shown in their place.
 */
original?: OriginalText, tag_ids: Array<number>, bounty: number, bounty_state: "none" | "open" | "accepted" | "settled", 
/**
 * When an open bounty is settled if no answer is accepted.
 */
deadline_at: number | null, accepted_answer_id: number | null, answer_count: number, like_count: number, created_at: number, };
/**
 * An answer on its author's profile, with the question it answers.
 */
export type AuthoredAnswer = { question_id: number, question_title: string, id: number, user: UserRef | null, content: string, 
/**
 * The language it was written in (empty when not known).
 */
lang: string, 
/**
 * The text as written, when a translation is shown in its place.
 */
original?: OriginalText, like_count: number, accepted: boolean, created_at: number, edited_at: number | null, };
/**
 * One version of a post, newest first in a post's history; the first is the one shown.
 */
export type PostVersion = { title: string, 
/**
 * The Markdown source as the author wrote it.
 */
markdown: string, images: Array<string>, created_at: number, };
/**
 * A post as its writer edits it: its versions, newest first (the first is the one shown; anyone
 * may read how a post changed, as with comments), and the tags and tokens it names now.
 */
export type PostHistory = { list: Array<PostVersion>, 
/**
 * Pass back for older versions; `null` at the end.
 */
next_cursor: string | null, 
/**
 * Versions kept in all (at most 50: older ones fold away).
 */
total: number, tag_ids: Array<number>, token_ids: Array<number>, };
/**
 * Hours when instant alerts wait, in the reader's time zone (`22:00` to `07:00` spans
 * midnight).
 */
export type Quiet = { 
/**
 * `HH:MM`
 */
from: string, 
/**
 * `HH:MM`
 */
to: string, };
export type AlertView = { id: number, name: string, rule: AlertRule, deliver: ("push" | "email" | "telegram" | "line")[], mode: "instant" | "daily", quiet: Quiet | null, created_at: number, updated_at: number, };
export type SampleItem = { id: number, title: string, published_at: number, 
/**
 * What rules see of it.
 */
facts: AlertItem, };
export type Sample = { 
/**
 * Newest first.
 */
items: Array<SampleItem>, };
export type Preview = { count: number, 
/**
 * The newest matches.
 */
items: Array<SampleItem>, };
/**
 * A token's price on a chip.
 */
export type Quote = { usd: number, 
/**
 * Change over the last 24 hours, in percent (`-3.2`).
 */
change_24h_pct: number | null, 
/**
 * When the provider took it: the web shows its age.
 */
as_of: number, 
/**
 * From the demo history `make run` plays, not a market.
 */
demo: boolean, };
/**
 * A token's market figures, on its page.
 */
export type MarketView = { usd: number, change_24h_pct: number | null, market_cap: number | null, volume_24h: number | null, as_of: number, demo: boolean, };
export type History = { symbol: string, days: number, 
/**
 * `[unix seconds, usd]`, oldest first; empty while the first fetch is on its way.
 */
points: Array<[number, number]>, 
/**
 * When the chart was fetched.
 */
as_of: number | null, demo: boolean, };
export type MarketToken = { id: number, symbol: string, name: string, logo: string, price: Quote, 
/**
 * Feed items that named the token in the last 24 hours.
 */
mentions: number, };
export type Overview = { gainers: Array<MarketToken>, losers: Array<MarketToken>, most_mentioned: Array<MarketToken>, 
/**
 * The newest quote's time.
 */
as_of: number | null, };
/**
 * An exchange as a reader sees it.
 */
export type ExchangeView = { code: string, name: string, logo: string, 
/**
 * What a reader gets, in their language.
 */
perks: string, 
/**
 * The reader's referral link (signed-in readers only).
 */
link: string | null, };
export type PresaleStatus = "upcoming" | "live" | "ended";
export type PresaleLink = { label: string, url: string, };
export type PresaleView = { id: number, project: string, symbol: string, chain: string, starts_at: number, ends_at: number, target_usd: number, price_usd: number, links: Array<PresaleLink>, description: string, status: PresaleStatus, 
/**
 * In the reader's language: presales are risky.
 */
risk_notice: string, 
/**
 * Whether the signed-in reader follows it (absent for visitors).
 */
following?: boolean, };
export type PresalePage = { list: Array<PresaleView>, 
/**
 * Where the next page starts; absent on the last.
 */
next_cursor: string | null, };
