//! The server's subcommands: serving (the default) and the operators' tools, each of which exits
//! when done.

use clap::Subcommand;

#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Serve the API and the web client (the default).
    Serve,
    /// Print the newest feedback, with its images, for the team.
    Feedback {
        #[arg(long, default_value_t = 50)]
        limit: u64,
    },
    /// Import an RSS or Atom feed from a URL or a file, then exit.
    Import { source: String },
    /// The bots' chats, subscriptions and delivery queue, then exit.
    Bots {
        #[command(subcommand)]
        action: BotsAction,
    },
    /// Reports, removals, bans and announcements (as the admin API), then exit.
    Moderation {
        #[command(subcommand)]
        action: ModerationAction,
    },
    /// Write `items` generated feed items over the demo catalogue (for benchmarks), then exit.
    Generate {
        #[arg(long, default_value_t = 10_000)]
        items: usize,
    },
}

#[derive(Debug, Clone, Subcommand)]
pub enum BotsAction {
    /// Chats by platform and state, subscriptions, queue depth, oldest unsent, last error.
    Status,
}

#[derive(Debug, Clone, Subcommand)]
pub enum ModerationAction {
    /// Reports, newest first.
    Reports {
        #[arg(long, default_value = "open")]
        state: String,
        #[arg(long, default_value_t = 50)]
        limit: u64,
    },
    /// Take down a comment, post, question, answer or profile (a profile is reset: generated
    /// nickname, no bio, no avatar); its author is told the reason.
    Remove {
        /// comment, post, question, answer or profile
        kind: String,
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// Ban a user from commenting, liking and reporting for some hours (0 lifts a ban).
    Ban {
        user_id: i64,
        #[arg(long)]
        hours: i64,
        #[arg(long)]
        reason: String,
    },
    /// Leave a message for every reader: English `--title` and `--body`, or a JSON file of
    /// `{"<locale>": {"title", "body"}}` with `--texts`.
    Announce {
        #[arg(long)]
        title: Option<String>,
        #[arg(long)]
        body: Option<String>,
        #[arg(long)]
        texts: Option<std::path::PathBuf>,
    },
}
