//! A third-party sign-in in progress, single use: an OAuth 2 authorization (valid 15 minutes), or
//! a Sign in with Apple nonce (the row's `state` and `nonce`, valid 10 minutes).

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "oauth_states")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub state: String,
    pub provider: String,
    /// Set when a signed-in user is binding an account rather than signing in.
    pub user_id: Option<i64>,
    /// The OIDC nonce the ID token must carry (empty for Twitter).
    pub nonce: String,
    /// PKCE: the verifier whose S256 challenge went to the provider (empty for Apple).
    pub code_verifier: String,
    /// SHA-256 of the binding cookie of the browser that started it (empty for Apple).
    pub browser_hash: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub used: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
