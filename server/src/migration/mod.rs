//! Schema migrations, run at start-up on SQLite and PostgreSQL alike.

use sea_orm_migration::prelude::*;

mod m20261122_000001_core;
mod m20261122_000002_points_feedback_tracking;
mod m20261122_000003_wallet_nonces;
mod m20261122_000004_invitations;
mod m20261122_000005_oauth_states;
mod m20261122_000006_content;
mod m20261122_000007_search_tiers;
mod m20261122_000008_search_catalogue;
mod m20261122_000009_feed_index;
mod m20261123_000010_search_names;
mod m20261124_000011_token_topic_followers;
mod m20261124_000012_client_budgets;
mod m20261124_000013_track_partitions;
mod m20261124_000014_feed_origins;
mod m20261124_000015_search_short_terms;
mod m20261124_000016_mail_outbox;
mod m20261124_000017_search_source;
mod m20261124_000018_bots;
mod m20261124_000019_likes;
mod m20261124_000020_conversations;
mod m20261124_000021_profiles;
mod m20261124_000022_questions;
mod m20261124_000023_posts;
mod m20261124_000024_comment_subjects;
mod m20261125_000025_search_articles;
mod m20261125_000026_read_langs;
mod m20261126_000027_stream;
mod m20261126_000028_upload_attached;
mod m20261126_000029_bot_chat_steward;
mod m20261126_000030_report_authors;
mod m20261126_000031_alerts;
mod m20261126_000032_alert_deliveries;
mod m20261126_000033_quiet_hours;
mod m20261126_000034_alert_digests;
mod m20261126_000035_prices;
mod m20261126_000036_exchanges;
mod m20261126_000037_presales;
mod m20261126_000038_price_alerts;
mod m20261126_000039_votes;
mod m20261126_000040_translations;
mod m20261126_000041_stories;
mod m20261126_000042_nickname_key;
mod m20261126_000043_text_translations;
mod m20261128_000044_linking;
mod m20261128_000045_breaking;

pub struct Migrator;

/// `BIGINT` auto-increment primary key.
fn id<T: IntoIden>(name: T) -> ColumnDef {
    ColumnDef::new(name)
        .big_integer()
        .not_null()
        .auto_increment()
        .primary_key()
        .to_owned()
}

/// `BIGINT NOT NULL` (times are Unix seconds, amounts are whole points).
fn big<T: IntoIden>(name: T) -> ColumnDef {
    ColumnDef::new(name).big_integer().not_null().to_owned()
}

/// `VARCHAR(len) NOT NULL`.
fn text<T: IntoIden>(name: T, len: u32) -> ColumnDef {
    ColumnDef::new(name).string_len(len).not_null().to_owned()
}

/// `BIGINT NULL`.
fn optional<T: IntoIden>(name: T) -> ColumnDef {
    ColumnDef::new(name).big_integer().null().to_owned()
}

/// `TEXT NOT NULL`.
fn long_text<T: IntoIden>(name: T) -> ColumnDef {
    ColumnDef::new(name).text().not_null().to_owned()
}

/// Column names as an index takes them.
fn cols(names: Vec<impl IntoIden>) -> Vec<DynIden> {
    names.into_iter().map(IntoIden::into_iden).collect()
}

/// Runs SQL statements in order.
async fn execute_all(m: &SchemaManager<'_>, statements: &[&str]) -> Result<(), DbErr> {
    for statement in statements {
        m.get_connection().execute_unprepared(statement).await?;
    }
    Ok(())
}

async fn index(
    m: &SchemaManager<'_>,
    name: &str,
    table: DynIden,
    cols: Vec<DynIden>,
    unique: bool,
) -> Result<(), DbErr> {
    let mut create = Index::create();
    create.name(name).table(table);
    for col in cols {
        create.col(col);
    }
    if unique {
        create.unique();
    }
    m.create_index(create.to_owned()).await
}

/// Drops tables in the order given (dependents first).
async fn drop_tables(m: &SchemaManager<'_>, tables: Vec<DynIden>) -> Result<(), DbErr> {
    for table in tables {
        m.drop_table(Table::drop().table(table).to_owned()).await?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_core::Migration),
            Box::new(m20261122_000002_points_feedback_tracking::Migration),
            Box::new(m20261122_000003_wallet_nonces::Migration),
            Box::new(m20261122_000004_invitations::Migration),
            Box::new(m20261122_000005_oauth_states::Migration),
            Box::new(m20261122_000006_content::Migration),
            Box::new(m20261122_000007_search_tiers::Migration),
            Box::new(m20261122_000008_search_catalogue::Migration),
            Box::new(m20261122_000009_feed_index::Migration),
            Box::new(m20261123_000010_search_names::Migration),
            Box::new(m20261124_000011_token_topic_followers::Migration),
            Box::new(m20261124_000012_client_budgets::Migration),
            Box::new(m20261124_000013_track_partitions::Migration),
            Box::new(m20261124_000014_feed_origins::Migration),
            Box::new(m20261124_000015_search_short_terms::Migration),
            Box::new(m20261124_000016_mail_outbox::Migration),
            Box::new(m20261124_000017_search_source::Migration),
            Box::new(m20261124_000018_bots::Migration),
            Box::new(m20261124_000019_likes::Migration),
            Box::new(m20261124_000020_conversations::Migration),
            Box::new(m20261124_000021_profiles::Migration),
            Box::new(m20261124_000022_questions::Migration),
            Box::new(m20261124_000023_posts::Migration),
            Box::new(m20261124_000024_comment_subjects::Migration),
            Box::new(m20261125_000025_search_articles::Migration),
            Box::new(m20261125_000026_read_langs::Migration),
            Box::new(m20261126_000027_stream::Migration),
            Box::new(m20261126_000028_upload_attached::Migration),
            Box::new(m20261126_000029_bot_chat_steward::Migration),
            Box::new(m20261126_000030_report_authors::Migration),
            Box::new(m20261126_000031_alerts::Migration),
            Box::new(m20261126_000032_alert_deliveries::Migration),
            Box::new(m20261126_000033_quiet_hours::Migration),
            Box::new(m20261126_000034_alert_digests::Migration),
            Box::new(m20261126_000035_prices::Migration),
            Box::new(m20261126_000036_exchanges::Migration),
            Box::new(m20261126_000037_presales::Migration),
            Box::new(m20261126_000038_price_alerts::Migration),
            Box::new(m20261126_000039_votes::Migration),
            Box::new(m20261126_000040_translations::Migration),
            Box::new(m20261126_000041_stories::Migration),
            Box::new(m20261126_000042_nickname_key::Migration),
            Box::new(m20261126_000043_text_translations::Migration),
            Box::new(m20261128_000044_linking::Migration),
            Box::new(m20261128_000045_breaking::Migration),
        ]
    }
}
