//! A feed item's tag, token or topic (`kind`); `published_at` copied for keyset pages.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "feed_links")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    pub feed_id: i64,
    pub kind: String,
    pub target_id: i64,
    pub published_at: i64,
    /// Found by the linker (`linking`), not given by an editor or the source: relinking
    /// replaces these only.
    pub inferred: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
