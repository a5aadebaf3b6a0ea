export { translatedFrom, TranslationNote } from "./TranslationNote";
