// The types of the CommonJS entry, checked by tsc (module nodenext).
import core = require("@blockbrief/client-core");

const locale: core.Locale = core.normalizeLocale("ko");
export const checked = [locale, core.constants().locales.length];
