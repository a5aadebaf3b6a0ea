//! Users and their sign-in accounts.

use std::collections::HashMap;

use client_core::envelope::ErrorKind;
use client_core::langs::default_read_langs;
use client_core::locale::normalize_locale;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, QueryTrait, Set,
};
use serde::Serialize;

use crate::ctx::Ctx;
use crate::entity::{account, user};
use crate::error::{AppError, AppResult};
use crate::points::tasks::{Source, record_event};

/// Invitation codes: 8 symbols from 32 unambiguous ones (40 bits), too many to guess.
const INVITATION_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const INVITATION_LEN: usize = 8;
const UID_ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyz23456789";
const UID_LEN: usize = 12;
/// Characters of the generated part of a first nickname.
const NICKNAME_HANDLE_LEN: usize = 6;

/// The `type` of a signed-in session (0 is a guest).
pub const SESSION_TYPE_USER: i32 = 1;

/// What the client keeps of a signed-in user.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct SessionUser {
    /// Given once, at sign-in; the client keeps it apart from the user.
    #[ts(optional = nullable)]
    pub token: Option<String>,
    pub id: i64,
    pub exposed_uid: String,
    pub username: String,
    pub nickname: String,
    pub avatar: String,
    pub invitation_code: String,
    #[serde(rename = "type")]
    pub kind: i32,
    /// A new user is asked for the invitation code of whoever brought them.
    pub prompt_for_code: bool,
    /// Feeds come in the reader's language where a translation exists.
    pub auto_translate: bool,
    /// "Languages I read": feeds, search and linked bots keep to items in them.
    #[ts(type = "Locale[]")]
    pub read_langs: Vec<String>,
}

impl SessionUser {
    pub fn new(user: user::Model, token: Option<String>, is_new: bool) -> Self {
        let read_langs = user.read_langs().map(str::to_owned).collect();
        Self {
            token,
            id: user.id,
            exposed_uid: user.exposed_uid,
            username: user.username,
            nickname: user.nickname,
            avatar: user.avatar,
            invitation_code: user.invitation_code,
            kind: SESSION_TYPE_USER,
            prompt_for_code: is_new,
            auto_translate: user.auto_translate,
            read_langs,
        }
    }
}

/// A first nickname that reveals nothing of the account it was made from (no email address, no
/// phone digits, both of which a public leaderboard would show): a wallet's short form, which is
/// public anyway (`0x4a62…d6a1`), else a generated handle (`user_k3x9qa`).
fn default_nickname(kind: &str, display_name: &str, handle: &str) -> String {
    let chars: Vec<char> = display_name.chars().collect();
    if kind == "wallet" && chars.len() == 42 {
        let text = |range: &[char]| range.iter().collect::<String>();
        return format!("{}…{}", text(&chars[..6]), text(&chars[38..]));
    }
    format!("user_{handle}")
}

/// A nickname that says nothing of its reader (`user_k3x9qa`): a new reader's when nothing
/// better is free, and a profile's after the team resets it.
pub fn generated_nickname(ctx: &Ctx) -> String {
    default_nickname("", "", &ctx.random.pick(UID_ALPHABET, NICKNAME_HANDLE_LEN))
}

/// The user behind an account, created with it on first sign-in. Returns whether it is new.
pub async fn find_or_create(
    ctx: &Ctx,
    kind: &str,
    identifier: &str,
    display_name: &str,
    locale: &str,
) -> AppResult<(user::Model, bool)> {
    if let Some(found) = find_by_account(ctx, kind, identifier).await? {
        return Ok((found, false));
    }
    match create(ctx, kind, identifier, display_name, locale).await {
        Ok(created) => Ok((created, true)),
        // Another request created it first (unique index on kind + identifier): use theirs.
        Err(e) => find_by_account(ctx, kind, identifier)
            .await?
            .map(|u| (u, false))
            .ok_or(e),
    }
}

async fn find_by_account(
    ctx: &Ctx,
    kind: &str,
    identifier: &str,
) -> AppResult<Option<user::Model>> {
    let found = account::Entity::find()
        .filter(account::Column::Kind.eq(kind))
        .filter(account::Column::Identifier.eq(identifier))
        .find_also_related(user::Entity)
        .one(&ctx.db)
        .await?;
    Ok(found.and_then(|(_, user)| user))
}

async fn create(
    ctx: &Ctx,
    kind: &str,
    identifier: &str,
    display_name: &str,
    locale: &str,
) -> AppResult<user::Model> {
    let now = ctx.now();
    let uid = ctx.random.pick(UID_ALPHABET, UID_LEN);
    let handle = ctx.random.pick(UID_ALPHABET, NICKNAME_HANDLE_LEN);
    let mut nickname = default_nickname(kind, display_name, &handle);
    // Nicknames are unique without regard to case: a wallet's short form may be taken.
    if nickname_taken(&ctx.db, &nickname, None).await? {
        nickname = generated_nickname(ctx);
    }
    let txn = crate::db::begin_write(&ctx.db).await?;
    let created = user::ActiveModel {
        exposed_uid: Set(uid.clone()),
        username: Set(format!("bb_{uid}")),
        nickname_key: Set(crate::validation::nickname_key(&nickname)),
        nickname: Set(nickname),
        avatar: Set(String::new()),
        invitation_code: Set(ctx.random.pick(INVITATION_ALPHABET, INVITATION_LEN)),
        locale: Set(normalize_locale(locale).to_owned()),
        read_langs: Set(default_read_langs(locale).join(",")),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    account::ActiveModel {
        user_id: Set(created.id),
        kind: Set(kind.to_owned()),
        identifier: Set(identifier.to_owned()),
        name: Set(display_name.to_owned()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(created)
}

/// `update` setting the reader's nickname, with the folded key it is compared by.
pub fn set_nickname(
    update: sea_orm::UpdateMany<user::Entity>,
    nickname: &str,
) -> sea_orm::UpdateMany<user::Entity> {
    update
        .col_expr(user::Column::Nickname, Expr::value(nickname))
        .col_expr(
            user::Column::NicknameKey,
            Expr::value(crate::validation::nickname_key(nickname)),
        )
}

/// `nickname = name` without regard to case in any script, as the unique index
/// `users_nickname_key` compares.
pub fn nickname_is(name: &str) -> sea_orm::sea_query::SimpleExpr {
    user::Column::NicknameKey.eq(crate::validation::nickname_key(name))
}

/// Whether another reader than `except` has `nickname`, without regard to case.
pub async fn nickname_taken(
    db: &impl sea_orm::ConnectionTrait,
    nickname: &str,
    except: Option<i64>,
) -> AppResult<bool> {
    let mut query = user::Entity::find().filter(nickname_is(nickname));
    if let Some(except) = except {
        query = query.filter(user::Column::Id.ne(except));
    }
    Ok(query.one(db).await?.is_some())
}

/// Signs in with a verified identity: finds or creates the user and hands out a new token.
pub async fn sign_in(
    ctx: &Ctx,
    kind: &str,
    identifier: &str,
    display_name: &str,
    locale: &str,
) -> AppResult<SessionUser> {
    let (user, is_new) = find_or_create(ctx, kind, identifier, display_name, locale).await?;
    // Signing in with a wallet or an X account is having bound it.
    completed_binding(ctx, user.id, kind).await?;
    let token = crate::auth::tokens::issue(ctx, Some(user.id)).await?;
    Ok(SessionUser::new(user, Some(token), is_new))
}

/// A user holding an account of `kind` has done the `bind_<kind>` task (`bind_wallet`,
/// `bind_twitter`; other kinds have no such task and move nothing).
async fn completed_binding(ctx: &Ctx, user_id: i64, kind: &str) -> AppResult<()> {
    record_event(ctx, user_id, &format!("bind_{kind}"), Source::Server).await?;
    Ok(())
}

/// A sign-in account as the account page lists it.
#[derive(schemars::JsonSchema, Debug, Serialize, ts_rs::TS)]
pub struct AccountView {
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub id: i64,
}

impl From<account::Model> for AccountView {
    fn from(a: account::Model) -> Self {
        Self {
            kind: a.kind,
            name: a.name,
            id: a.id,
        }
    }
}

/// Adds a sign-in account to a user and completes the matching `bind_<kind>` task. Binding one
/// the user already has is a no-op; one that belongs to someone else is refused.
pub async fn bind(
    ctx: &Ctx,
    user_id: i64,
    kind: &str,
    identifier: &str,
    display_name: &str,
) -> AppResult<AccountView> {
    let existing = account::Entity::find()
        .filter(account::Column::Kind.eq(kind))
        .filter(account::Column::Identifier.eq(identifier))
        .one(&ctx.db)
        .await?;
    let bound = match existing {
        Some(found) if found.user_id == user_id => found,
        Some(_) => return Err(ErrorKind::AccountBoundElsewhere.into()),
        None => account::ActiveModel {
            user_id: Set(user_id),
            kind: Set(kind.to_owned()),
            identifier: Set(identifier.to_owned()),
            name: Set(display_name.to_owned()),
            created_at: Set(ctx.now()),
            ..Default::default()
        }
        .insert(&ctx.db)
        .await
        // The unique index settles a race with another user binding it at the same moment.
        .map_err(|_| AppError::new(ErrorKind::AccountBoundElsewhere))?,
    };
    completed_binding(ctx, user_id, kind).await?;
    Ok(bound.into())
}

/// Removes one of the user's sign-in accounts, never the last one.
pub async fn unbind(ctx: &Ctx, user_id: i64, account_id: i64) -> AppResult<()> {
    let mine = accounts(ctx, user_id).await?;
    if !mine.iter().any(|a| a.id == account_id) {
        return Err(AppError::not_found("No such account"));
    }
    if mine.len() < 2 {
        return Err(ErrorKind::LastSignInMethod.into());
    }
    // Delete only while another account remains, so two concurrent unbinds cannot remove both.
    let others = account::Entity::find()
        .select_only()
        .column(account::Column::Id)
        .filter(account::Column::UserId.eq(user_id))
        .filter(account::Column::Id.ne(account_id));
    let deleted = account::Entity::delete_many()
        .filter(account::Column::Id.eq(account_id))
        .filter(account::Column::UserId.eq(user_id))
        .filter(Expr::exists(others.into_query()))
        .exec(&ctx.db)
        .await?;
    if deleted.rows_affected != 1 {
        return Err(ErrorKind::LastSignInMethod.into());
    }
    Ok(())
}

pub async fn get(ctx: &Ctx, user_id: i64) -> AppResult<user::Model> {
    user::Entity::find_by_id(user_id)
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::internal(format!("session of missing user {user_id}")))
}

/// Reading preferences to change (what is `None` stays).
#[derive(Default)]
pub struct ReadingSettings {
    pub auto_translate: Option<bool>,
    /// Checked by client-core's `read_langs`.
    pub read_langs: Option<Vec<&'static str>>,
}

/// Changes the user's reading preferences; returns the user as stored.
pub async fn set_reading(
    ctx: &Ctx,
    user_id: i64,
    settings: ReadingSettings,
) -> AppResult<user::Model> {
    let mut update = user::Entity::update_many().filter(user::Column::Id.eq(user_id));
    if let Some(on) = settings.auto_translate {
        update = update.col_expr(user::Column::AutoTranslate, Expr::value(on));
    }
    if let Some(langs) = settings.read_langs {
        update = update.col_expr(user::Column::ReadLangs, Expr::value(langs.join(",")));
    }
    update.exec(&ctx.db).await?;
    get(ctx, user_id).await
}

pub async fn accounts(ctx: &Ctx, user_id: i64) -> AppResult<Vec<account::Model>> {
    Ok(account::Entity::find()
        .filter(account::Column::UserId.eq(user_id))
        .order_by_asc(account::Column::Id)
        .all(&ctx.db)
        .await?)
}

/// Another reader as conversations show them.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize, ts_rs::TS)]
pub struct UserRef {
    pub id: i64,
    pub nickname: String,
    pub avatar: String,
}

impl From<user::Model> for UserRef {
    fn from(u: user::Model) -> Self {
        Self {
            id: u.id,
            nickname: u.nickname,
            avatar: u.avatar,
        }
    }
}

/// The readers with these ids, in one query.
pub async fn users_by_id(
    db: &impl ConnectionTrait,
    ids: impl IntoIterator<Item = i64>,
) -> AppResult<HashMap<i64, UserRef>> {
    let mut ids: Vec<i64> = ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    Ok(user::Entity::find()
        .filter(user::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, UserRef::from(u)))
        .collect())
}
