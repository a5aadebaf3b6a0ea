//! A crypto token; a tag may stand for one.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "tokens")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    #[sea_orm(unique)]
    pub symbol: String,
    pub name: String,
    pub chain: String,
    pub logo: String,
    pub follower_count: i64,
    /// The token's id at the price provider (`bitcoin`; symbols collide, ids do not); empty
    /// when it has no price.
    pub price_id: String,
    /// Other names by locale, a JSON object of lists (`{"ko": ["비트코인"]}`); the linker's.
    #[sea_orm(column_type = "Text")]
    pub aliases: String,
    /// The symbol is also a word (LINK, OP, NEAR): linked only with context.
    pub ambiguous: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
