// The types of the ES module entries, checked by tsc (module nodenext).
import { type Locale, type Message, checkPost, normalizeLocale } from "@blockbrief/client-core";
import init, { mapLink } from "@blockbrief/client-core/web";

const locale: Locale = normalizeLocale("zh-TW");
const broken: Message | null = checkPost("", "gm", 0, 0, 0);
await init();
export const checked = [locale, broken, mapLink("blockbrief://Home").kind];
