//! The TypeScript of the wasm surface, generated from the Rust types with `ts-rs`: the unions of
//! names come from the constants that list them, every shape from its type. `make types` writes it
//! to `src/wasm/types.d.ts` (the package's `.d.ts` includes that file); a test fails when the file
//! differs from what the types say.

use ts_rs::{Config, TS};

use crate::comment::{CommentCheck, Segment};
use crate::envelope::{CallError, DeviceInfo, ErrorKind, Unwrapped};
use crate::feed::{CardLayout, FEED_KINDS, FEED_TABS, TimeAgo};
use crate::feedback::{
    ContentCounter, FEEDBACK_TYPES, FeedbackCheck, FeedbackForm, FieldError, ImageFile,
};
use crate::locale::{LOCALES, LocaleSources};
use crate::message::Message;
use crate::question::Settlement;
use crate::surface::{Constants, EndpointError, LinkResult, LocalePath, Outcome, error_name};
use crate::task::{Task, TaskButton, TaskButtonSpec, TaskContext, TaskPress, TaskStatus};
use crate::theme::{Theme, ThemeSources};

/// Where `make types` writes the file, relative to this crate.
pub const TYPES_FILE: &str = "src/wasm/types.d.ts";

/// The configuration every generated file uses: 64-bit numbers are JavaScript numbers (ids and
/// amounts stay below 2^53).
pub fn config() -> Config {
    Config::new().with_large_int("number")
}

/// `export type Name = "a" | "b";`
pub fn union(name: &str, members: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let members: Vec<String> = members
        .into_iter()
        .map(|m| format!("\"{}\"", m.as_ref()))
        .collect();
    format!("export type {name} = {};\n", members.join(" | "))
}

/// `export type …` of a derived type, with its doc comment.
pub fn declare<T: TS + ?Sized>(cfg: &Config) -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}\n", T::decl(cfg))
}

/// The whole file.
pub fn wasm_types() -> String {
    let cfg = config();
    let mut out =
        String::from("// Generated from client-core's Rust types by `make types`; do not edit.\n");
    out += &union("Locale", LOCALES);
    out += &union("FeedKind", FEED_KINDS);
    out += &union("FeedTab", FEED_TABS);
    out += &union("FeedbackType", FEEDBACK_TYPES);
    out += &union(
        "TwitterStatus",
        ["BOUND", "UNBOUND", "LOADING", "QUERY_ERROR"],
    );
    out += &union("ErrorName", ErrorKind::ALL.map(error_name));
    out += "export type Params = Record<string, string>;\n";
    for decl in [
        declare::<Theme>(&cfg),
        declare::<ThemeSources>(&cfg),
        declare::<LocaleSources>(&cfg),
        declare::<LocalePath>(&cfg),
        declare::<Message>(&cfg),
        declare::<LinkResult>(&cfg),
        declare::<Outcome<()>>(&cfg),
        declare::<FeedbackForm>(&cfg),
        declare::<FieldError>(&cfg),
        declare::<FeedbackCheck>(&cfg),
        declare::<ContentCounter>(&cfg),
        declare::<CommentCheck>(&cfg),
        declare::<Segment>(&cfg),
        declare::<Settlement>(&cfg),
        declare::<ImageFile>(&cfg),
        declare::<TaskStatus>(&cfg),
        declare::<TaskButtonSpec>(&cfg),
        declare::<Task>(&cfg),
        declare::<TaskContext>(&cfg),
        declare::<TaskButton>(&cfg),
        declare::<TaskPress>(&cfg),
        declare::<CallError>(&cfg),
        declare::<Unwrapped>(&cfg),
        declare::<EndpointError>(&cfg),
        declare::<DeviceInfo>(&cfg),
        declare::<CardLayout>(&cfg),
        declare::<TimeAgo>(&cfg),
        declare::<crate::pages::PageMatch>(&cfg),
        declare::<crate::alert::AlertRule>(&cfg),
        declare::<crate::alert::AlertItem>(&cfg),
        declare::<crate::price_alert::PriceRule>(&cfg),
        declare::<crate::linking::Catalogue>(&cfg),
        declare::<crate::linking::TokenEntry>(&cfg),
        declare::<crate::linking::KeywordEntry>(&cfg),
        declare::<crate::linking::KolEntry>(&cfg),
        declare::<crate::linking::LinkKind>(&cfg),
        declare::<crate::linking::Field>(&cfg),
        declare::<crate::linking::Evidence>(&cfg),
        declare::<crate::linking::Links>(&cfg),
        declare::<crate::linking::LinkText>(&cfg),
        declare::<crate::vote::VoteCounts>(&cfg),
        declare::<crate::vote::Signals>(&cfg),
        declare::<crate::breaking::ImportantReason>(&cfg),
        declare::<Constants>(&cfg),
    ] {
        out += &decl;
    }
    out
}
