//! Server-side messages in the user's language, from the same `locales/` files the web client uses.

use std::collections::HashMap;
use std::sync::OnceLock;

use client_core::locale::DEFAULT_LOCALE;
use serde_json::Value;

const SOURCES: [(&str, &str); 5] = [
    ("en", include_str!("../../locales/en/common.json")),
    ("zh-Hans", include_str!("../../locales/zh-Hans/common.json")),
    ("zh-Hant", include_str!("../../locales/zh-Hant/common.json")),
    ("vi", include_str!("../../locales/vi/common.json")),
    ("ko", include_str!("../../locales/ko/common.json")),
];

fn catalogues() -> &'static HashMap<&'static str, Value> {
    static CATALOGUES: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    CATALOGUES.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(locale, text)| (*locale, serde_json::from_str(text).unwrap_or(Value::Null)))
            .collect()
    })
}

fn lookup<'a>(catalogue: &'a Value, key: &str) -> Option<&'a str> {
    key.split('.')
        .try_fold(catalogue, |node, part| node.get(part))?
        .as_str()
}

/// The message for `key` in `locale` (falling back to English, then to the key itself), with
/// `{{name}}` placeholders filled in.
pub fn t(locale: &str, key: &str, vars: &[(&str, &str)]) -> String {
    let all = catalogues();
    let text = [locale, DEFAULT_LOCALE]
        .iter()
        .find_map(|l| all.get(l).and_then(|c| lookup(c, key)))
        .unwrap_or(key);
    vars.iter().fold(text.to_owned(), |acc, (name, value)| {
        acc.replace(&format!("{{{{{name}}}}}"), value)
    })
}

/// A language's name in `locale`'s words ("Korean"), or its code when we have none.
pub fn language_name(locale: &str, lang: &str) -> String {
    let key = format!("web.languageNames.{lang}");
    let name = t(locale, &key, &[]);
    if name == key { lang.to_owned() } else { name }
}

/// Every key path of a catalogue, for the completeness test.
pub fn keys(locale: &str) -> Vec<String> {
    fn walk(prefix: &str, node: &Value, out: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                for (k, v) in map {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    walk(&path, v, out);
                }
            }
            _ => out.push(prefix.to_owned()),
        }
    }
    let mut out = Vec::new();
    if let Some(catalogue) = catalogues().get(locale) {
        walk("", catalogue, &mut out);
    }
    out.sort();
    out
}

/// The language `localized` takes its text from: `locale` where the map has it, else English, else
/// the first there is (a reader is told when the text is not in their language).
pub fn localized_lang(json: &str, locale: &str) -> String {
    let Ok(map) = serde_json::from_str::<HashMap<String, String>>(json) else {
        return DEFAULT_LOCALE.to_owned();
    };
    [locale, DEFAULT_LOCALE]
        .into_iter()
        .find(|l| map.contains_key(*l))
        .map(str::to_owned)
        .or_else(|| map.keys().next().cloned())
        .unwrap_or_else(|| DEFAULT_LOCALE.to_owned())
}

/// Picks the text for `locale` from a JSON object keyed by locale, falling back to English and
/// then to any text at all (a row written in one language still shows).
pub fn localized(json: &str, locale: &str) -> String {
    let Ok(map) = serde_json::from_str::<HashMap<String, String>>(json) else {
        return String::new();
    };
    map.get(locale)
        .or_else(|| map.get(DEFAULT_LOCALE))
        .or_else(|| map.values().next())
        .cloned()
        .unwrap_or_default()
}

/// The language a reader wrote `text` in, as one of our locales: detected (whatlang) where the
/// text shows it, otherwise `interface`, the writer's interface language, which is the better
/// guess for a short "gm" or "to the moon" than a detector unsure of three words. Hangul and Han
/// letters are evidence in a few characters; Latin words only when the detector is sure.
pub fn written_lang(text: &str, interface: &str) -> String {
    use whatlang::{Lang, Script};
    let interface = client_core::locale::normalize_locale(interface);
    let Some(info) = whatlang::detect(text) else {
        return interface.to_owned();
    };
    let sure = info.is_reliable() || matches!(info.script(), Script::Hangul | Script::Mandarin);
    let found = match info.lang() {
        Lang::Eng => "en",
        Lang::Vie => "vi",
        Lang::Kor => "ko",
        Lang::Cmn => chinese_script(text, interface),
        _ => interface,
    };
    if sure { found } else { interface }.to_owned()
}

/// Simplified or Traditional Chinese, by the characters only one of them writes. Detectors name
/// both "Chinese"; a few dozen of the commonest such characters tell them apart in a sentence.
/// Neither way: the writer's own Chinese, or Simplified.
fn chinese_script(text: &str, interface: &'static str) -> &'static str {
    const SIMPLIFIED: &str = "们这个来说会对为与时国发经过还进现开关门问题从后间东车长马语见认让话读写买卖钱银书学习电网币链区块场价涨监报资产额亿万当实处则";
    const TRADITIONAL: &str = "們這個來說會對為與時國發經過還進現開關門問題從後間東車長馬語見認讓話讀寫買賣錢銀書學習電網幣鏈區塊場價漲監報資產額億萬當實處則";
    let count = |set: &str| text.chars().filter(|c| set.contains(*c)).count();
    let (simplified, traditional) = (count(SIMPLIFIED), count(TRADITIONAL));
    if simplified > traditional {
        "zh-Hans"
    } else if traditional > simplified {
        "zh-Hant"
    } else if interface.starts_with("zh-") {
        interface
    } else {
        "zh-Hans"
    }
}

#[cfg(test)]
mod written_lang_tests {
    use super::written_lang;

    #[test]
    fn clear_texts_are_detected_whatever_the_interface() {
        let cases = [
            ("비트코인이 다시 사상 최고치를 경신했습니다", "en", "ko"),
            ("比特币今天突破十万美元，市场情绪高涨", "en", "zh-Hans"),
            ("比特幣今天突破十萬美元，市場情緒高漲", "en", "zh-Hant"),
            (
                "Giá Bitcoin hôm nay tăng mạnh sau khi quỹ ETF được phê duyệt",
                "en",
                "vi",
            ),
            (
                "The market is waiting for the central bank to cut interest rates this week",
                "ko",
                "en",
            ),
        ];
        for (text, interface, want) in cases {
            assert_eq!(written_lang(text, interface), want, "{text}");
        }
    }

    #[test]
    fn short_or_unsure_texts_keep_the_writers_language() {
        assert_eq!(written_lang("gm", "vi"), "vi");
        assert_eq!(written_lang("lol 🚀", "ko"), "ko");
        assert_eq!(written_lang("", "zh-TW"), "zh-Hant");
        // Neither script's own characters: the writer's Chinese; one of them: that script.
        assert_eq!(written_lang("比特", "zh-Hant"), "zh-Hant");
        assert_eq!(written_lang("比特币", "zh-Hant"), "zh-Hans");
        assert_eq!(written_lang("比特幣", "en"), "zh-Hant");
    }

    #[test]
    fn mixed_texts_go_by_what_most_of_them_says() {
        assert_eq!(
            written_lang("BTC ETF 승인 소식에 비트코인 급등, 시장은 환호", "en"),
            "ko"
        );
    }
}
