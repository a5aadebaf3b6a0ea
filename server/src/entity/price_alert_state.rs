//! Where a price alert's lines stand (client-core's `PriceState`), as of the quote last seen.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "price_alert_states")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub alert_id: i64,
    /// `PriceState` as JSON.
    pub state: String,
    /// The `as_of` of the quote it was stepped with.
    pub as_of: i64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
