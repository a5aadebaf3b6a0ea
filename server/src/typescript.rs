//! The generated TypeScript, checked: the web app's types of the API's answers
//! (`web/src/lib/api-types.ts`, from the views below) and the wasm package's types
//! (`client-core/src/wasm/types.d.ts`, from client-core's). `make types` rewrites both
//! (`UPDATE_TYPES=1`); otherwise the test fails when either differs from what the types say.

use std::path::PathBuf;

use client_core::typescript::{config, declare, union, wasm_types};

use crate::alerts::rules::{AlertView, Quiet};
use crate::alerts::sample::{Preview, Sample, SampleItem};
use crate::auth::apple::AppleStart;
use crate::auth::users::UserRef;
use crate::auth::users::{AccountView, SessionUser};
use crate::bots::link::LinkedChat;
use crate::community::posts::{PostHistory, PostVersion};
use crate::community::profiles::ProfileView;
use crate::community::questions::{AnswerView, AuthoredAnswer, QuestionDetail, QuestionView};
use crate::content::catalogue::{
    BenefitView, ChannelView, Explore, KolView, TagView, TokenView, TopicView,
};
use crate::content::feeds::{
    AuthorRef, FeedDetail, FeedView, Original, StoryRef, TagRef, TokenRef,
};
use crate::content::search::Hit;
use crate::content::stories::StoryDetail;
use crate::content::translate::texts::OriginalText;
use crate::markets::exchanges::ExchangeView;
use crate::markets::history::History;
use crate::markets::overview::{MarketToken, Overview};
use crate::markets::presales::{PresaleLink, PresalePage, PresaleStatus, PresaleView};
use crate::markets::quotes::{MarketView, Quote};
use crate::pagination::Page;
use crate::points::ledger::{Leaderboard, LedgerItem, MyRank, Ranked};
use crate::points::tasks::{Collected, Progress, TaskButtonView, TaskView};
use crate::routes::app::CaptchaUse;
use crate::routes::bots::TelegramLink;
use crate::routes::sign_in::TelegramStart;
use crate::social::blocks::BlockedUser;
use crate::social::comments::{CommentVersion, CommentView};
use crate::social::favorites::KeptItem;
use crate::social::likes::LikeState;
use crate::social::messages::{KINDS as MESSAGE_KINDS, MessageView};
use crate::social::votes::{Sentiment, VoteState};

/// Names the answers take from client-core's own types.
const CORE_IMPORTS: &str =
    "AlertItem, AlertRule, FeedKind, ImportantReason, Locale, TaskStatus, VoteCounts";

fn api_types() -> String {
    let cfg = config();
    let mut out = format!(
        "// Generated from the server's Rust types by `make types`; do not edit.\n\
         import type {{ {CORE_IMPORTS} }} from \"@blockbrief/client-core\";\n"
    );
    out += &union("MessageKind", MESSAGE_KINDS);
    for decl in [
        declare::<Page<()>>(&cfg),
        declare::<SessionUser>(&cfg),
        declare::<AccountView>(&cfg),
        declare::<AppleStart>(&cfg),
        declare::<TagRef>(&cfg),
        declare::<TokenRef>(&cfg),
        declare::<AuthorRef>(&cfg),
        declare::<StoryRef>(&cfg),
        declare::<Original>(&cfg),
        declare::<OriginalText>(&cfg),
        declare::<FeedView>(&cfg),
        declare::<FeedDetail>(&cfg),
        declare::<TokenView>(&cfg),
        declare::<TagView>(&cfg),
        declare::<ChannelView>(&cfg),
        declare::<KolView>(&cfg),
        declare::<TopicView>(&cfg),
        declare::<BenefitView>(&cfg),
        declare::<Explore>(&cfg),
        declare::<Hit>(&cfg),
        declare::<TaskButtonView>(&cfg),
        declare::<Progress>(&cfg),
        declare::<TaskView>(&cfg),
        declare::<Collected>(&cfg),
        declare::<LedgerItem>(&cfg),
        declare::<Ranked>(&cfg),
        declare::<MyRank>(&cfg),
        declare::<Leaderboard>(&cfg),
        declare::<CaptchaUse>(&cfg),
        declare::<TelegramStart>(&cfg),
        declare::<TelegramLink>(&cfg),
        declare::<LinkedChat>(&cfg),
        declare::<LikeState>(&cfg),
        declare::<VoteState>(&cfg),
        declare::<Sentiment>(&cfg),
        declare::<StoryDetail>(&cfg),
        declare::<UserRef>(&cfg),
        declare::<CommentView>(&cfg),
        declare::<CommentVersion>(&cfg),
        declare::<KeptItem>(&cfg),
        declare::<MessageView>(&cfg),
        declare::<BlockedUser>(&cfg),
        declare::<ProfileView>(&cfg),
        declare::<AnswerView>(&cfg),
        declare::<QuestionView>(&cfg),
        declare::<QuestionDetail>(&cfg),
        declare::<AuthoredAnswer>(&cfg),
        declare::<PostVersion>(&cfg),
        declare::<PostHistory>(&cfg),
        declare::<Quiet>(&cfg),
        declare::<AlertView>(&cfg),
        declare::<SampleItem>(&cfg),
        declare::<Sample>(&cfg),
        declare::<Preview>(&cfg),
        declare::<Quote>(&cfg),
        declare::<MarketView>(&cfg),
        declare::<History>(&cfg),
        declare::<MarketToken>(&cfg),
        declare::<Overview>(&cfg),
        declare::<ExchangeView>(&cfg),
        declare::<PresaleStatus>(&cfg),
        declare::<PresaleLink>(&cfg),
        declare::<PresaleView>(&cfg),
        declare::<PresalePage>(&cfg),
    ] {
        out += &decl;
    }
    out
}

fn workspace_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

#[test]
fn generated_typescript_is_current() {
    let update = std::env::var_os("UPDATE_TYPES").is_some();
    let files = [
        ("web/src/lib/api-types.ts", api_types()),
        ("client-core/src/wasm/types.d.ts", wasm_types()),
    ];
    for (path, want) in files {
        let file = workspace_file(path);
        if update {
            std::fs::write(&file, &want).expect("write the generated file");
        }
        let have = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            have == want,
            "{path} is out of date with the Rust types: run `make types`"
        );
    }
}
