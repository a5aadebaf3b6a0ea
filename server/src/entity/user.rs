use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The id shown to other people; the numeric id stays internal.
    #[sea_orm(unique)]
    pub exposed_uid: String,
    pub username: String,
    pub nickname: String,
    /// The nickname folded as `validation::nickname_key` does, unique: names compare by it.
    pub nickname_key: String,
    pub avatar: String,
    #[sea_orm(unique)]
    pub invitation_code: String,
    pub locale: String,
    pub created_at: i64,
    /// The points balance; every change has its row in `point_ledger`.
    pub points: i64,
    /// The user whose invitation code this one entered (once).
    pub invited_by: Option<i64>,
    /// Show feeds in the reader's language where a translation exists.
    pub auto_translate: bool,
    /// A line about themselves, shown on their public profile.
    #[sea_orm(column_type = "Text")]
    pub bio: String,
    /// "Languages I read", comma-separated in `LOCALES` order (client-core's `langs`).
    pub read_langs: String,
    /// Where the reader lives, as their browser names it (`Asia/Taipei`): quiet hours and the
    /// daily email keep to it.
    pub time_zone: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    #[sea_orm(has_many = "super::account::Entity")]
    Account,
}

impl Related<super::account::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::Account.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// "Languages I read", in `LOCALES` order.
    pub fn read_langs(&self) -> impl Iterator<Item = &str> {
        self.read_langs.split(',').filter(|l| !l.is_empty())
    }
}
