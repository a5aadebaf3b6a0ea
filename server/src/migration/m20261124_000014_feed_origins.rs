//! An item from an RSS or Atom source is keyed by the source and the entry's guid (`origin`), not
//! by its link, so a source cannot overwrite an editor's item by publishing the same link. Items
//! imported before keep no origin: they are left as they are.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.alter_table(
            Table::alter()
                .table(Alias::new("feed_items"))
                .add_column(ColumnDef::new(Alias::new("origin")).string_len(64).null())
                .to_owned(),
        )
        .await?;
        m.create_index(
            Index::create()
                .name("feed_items_origin")
                .table(Alias::new("feed_items"))
                .col(Alias::new("origin"))
                .unique()
                .to_owned(),
        )
        .await
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        m.drop_index(
            Index::drop()
                .name("feed_items_origin")
                .table(Alias::new("feed_items"))
                .to_owned(),
        )
        .await?;
        m.alter_table(
            Table::alter()
                .table(Alias::new("feed_items"))
                .drop_column(Alias::new("origin"))
                .to_owned(),
        )
        .await
    }
}
