// The types of the CommonJS entry, checked by tsc (module nodenext).
import core = require("@blockbrief/client-core");
import more = require("@blockbrief/client-core/more");
import link = require("@blockbrief/client-core/link");

const locale: core.Locale = core.normalizeLocale("ko");
export const checked = [locale, core.constants().locales.length, more.isValidEmail("a@b.co"), link.linkText({ lang: "en", title: "BTC", summary: "", body: "" }).tokens];
