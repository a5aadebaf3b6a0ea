//! Entity linking (`linking`): tokens carry aliases in each language and whether their symbol is
//! also a word, tags and topics the keywords that say them, and each item's link remembers
//! whether the linker found it (relinking replaces those, never an editor's or a source's).

use sea_orm_migration::prelude::*;

#[derive(DeriveIden)]
enum Tokens {
    Table,
    Aliases,
    Ambiguous,
}

#[derive(DeriveIden)]
enum Tags {
    Table,
    Keywords,
}

#[derive(DeriveIden)]
enum Topics {
    Table,
    Keywords,
}

#[derive(DeriveIden)]
enum FeedLinks {
    Table,
    Inferred,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

fn json_object(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .text()
        .not_null()
        .default("{}")
        .to_owned()
}

fn flag(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .boolean()
        .not_null()
        .default(false)
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, m: &SchemaManager) -> Result<(), DbErr> {
        // SQLite adds one column per statement.
        let adds: [(DynIden, ColumnDef); 5] = [
            (Tokens::Table.into_iden(), json_object(Tokens::Aliases)),
            (Tokens::Table.into_iden(), flag(Tokens::Ambiguous)),
            (Tags::Table.into_iden(), json_object(Tags::Keywords)),
            (Topics::Table.into_iden(), json_object(Topics::Keywords)),
            (FeedLinks::Table.into_iden(), flag(FeedLinks::Inferred)),
        ];
        for (table, mut column) in adds {
            m.alter_table(
                Table::alter()
                    .table(table)
                    .add_column(&mut column)
                    .to_owned(),
            )
            .await?;
        }
        Ok(())
    }

    async fn down(&self, m: &SchemaManager) -> Result<(), DbErr> {
        let drops: [(DynIden, DynIden); 5] = [
            (Tokens::Table.into_iden(), Tokens::Aliases.into_iden()),
            (Tokens::Table.into_iden(), Tokens::Ambiguous.into_iden()),
            (Tags::Table.into_iden(), Tags::Keywords.into_iden()),
            (Topics::Table.into_iden(), Topics::Keywords.into_iden()),
            (
                FeedLinks::Table.into_iden(),
                FeedLinks::Inferred.into_iden(),
            ),
        ];
        for (table, column) in drops {
            m.alter_table(Table::alter().table(table).drop_column(column).to_owned())
                .await?;
        }
        Ok(())
    }
}
