// The types of the ES module entries, checked by tsc (module nodenext).
import { type Locale, normalizeLocale } from "@blockbrief/client-core";
import { type Message, checkPost } from "@blockbrief/client-core/more";
import init, { timeAgo } from "@blockbrief/client-core/web";
import initMore, { mapLink } from "@blockbrief/client-core/web/more";
import initLink, { type Links, linkText, loadLinkCatalogue } from "@blockbrief/client-core/web/link";

const locale: Locale = normalizeLocale("zh-TW");
const broken: Message | null = checkPost("", "gm", 0, 0, 0);
await Promise.all([init(), initMore(), initLink()]);
loadLinkCatalogue({ tokens: [{ id: 1, symbol: "BTC", name: "Bitcoin", aliases: {}, ambiguous: false }], tags: [], topics: [], kols: [] });
const links: Links = linkText({ lang: "en", title: "BTC", summary: "", body: "" });
export const checked = [locale, broken, timeAgo(0, 60).key, mapLink("blockbrief://Home").kind, links.tokens];
