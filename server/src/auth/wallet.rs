//! Sign-In with Ethereum (EIP-4361). The server issues the message with a single-use nonce (131
//! random bits, valid 10 minutes) and keeps its exact text; a signed message is accepted only if
//! it is byte for byte one the server issued for that purpose, the EIP-191 `personal_sign`
//! signature recovers to its address, and the nonce is consumed by one conditional UPDATE, so a
//! message signs in exactly once however many times it is sent.

use client_core::envelope::ErrorKind;
use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, QueryFilter, Set};
use sha3::{Digest, Keccak256};

use crate::auth::Auth;
use crate::ctx::Ctx;
use crate::entity::wallet_nonce;
use crate::error::{AppError, AppResult};
use crate::time::rfc3339;

pub const NONCE_TTL_SECONDS: i64 = 600;
const NONCE_LEN: usize = 22; // 62^22 ≈ 2^131
const NONCE_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const STATEMENT: &str =
    "Sign in to Blockbrief. This request will not trigger a transaction or cost any fees.";
const HEADER_TAIL: &str = " wants you to sign in with your Ethereum account:";

/// What a message may be used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Login,
    /// Adding the wallet to the signed-in user.
    Bind(i64),
}

impl Purpose {
    fn name(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::Bind(_) => "bind",
        }
    }

    fn user_id(self) -> Option<i64> {
        match self {
            Self::Login => None,
            Self::Bind(user) => Some(user),
        }
    }
}

fn keccak(data: &[u8]) -> [u8; 32] {
    Keccak256::digest(data).into()
}

/// `0x` and 40 hex digits, in any case.
pub fn parse_address(s: &str) -> Option<[u8; 20]> {
    let digits = s
        .trim()
        .strip_prefix("0x")
        .or_else(|| s.trim().strip_prefix("0X"))?;
    hex::decode(digits).ok()?.try_into().ok()
}

fn bad_address() -> AppError {
    AppError::new(ErrorKind::InvalidParam)
        .with_message("address must be 0x followed by 40 hex digits")
}

/// The EIP-55 mixed-case form, as wallets show it.
pub fn checksum(address: &[u8; 20]) -> String {
    let lower = hex::encode(address);
    let hash = keccak(lower.as_bytes());
    let digits: String = lower
        .chars()
        .enumerate()
        .map(|(i, c)| {
            let nibble = (hash[i / 2] >> (if i % 2 == 0 { 4 } else { 0 })) & 0xf;
            if nibble >= 8 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect();
    format!("0x{digits}")
}

/// Issues a message for `address` and returns its text for the wallet to sign.
pub async fn issue(ctx: &Ctx, auth: &Auth, address: &str, purpose: Purpose) -> AppResult<String> {
    let address = parse_address(address).ok_or_else(bad_address)?;
    let now = ctx.now();
    let nonce = ctx.random.pick(NONCE_ALPHABET, NONCE_LEN);
    let chain_id = auth.config.siwe_chain_ids.first().copied().unwrap_or(1);
    let message = format!(
        "{domain}{HEADER_TAIL}\n{address}\n\n{STATEMENT}\n\nURI: {uri}\nVersion: 1\nChain ID: {chain_id}\n\
         Nonce: {nonce}\nIssued At: {issued}\nExpiration Time: {expires}",
        domain = auth.config.public_authority(),
        address = checksum(&address),
        uri = auth.config.public_url,
        issued = rfc3339(now),
        expires = rfc3339(now + NONCE_TTL_SECONDS),
    );
    wallet_nonce::ActiveModel {
        nonce: Set(nonce),
        address: Set(format!("0x{}", hex::encode(address))),
        purpose: Set(purpose.name().to_owned()),
        user_id: Set(purpose.user_id()),
        message: Set(message.clone()),
        created_at: Set(now),
        expires_at: Set(now + NONCE_TTL_SECONDS),
        used: Set(false),
    }
    .insert(&ctx.db)
    .await?;
    Ok(message)
}

fn message_invalid(message: &str) -> AppError {
    AppError::new(ErrorKind::WalletMessageInvalid).with_message(message)
}

/// The parts of an EIP-4361 message that sign-in checks, read without trusting any of them.
#[derive(Debug, PartialEq, Eq)]
pub struct SignInMessage<'a> {
    pub domain: &'a str,
    /// The second line, when it is an address.
    pub address: Option<[u8; 20]>,
    pub uri: Option<&'a str>,
    pub chain_id: Option<u64>,
    pub nonce: Option<&'a str>,
}

impl<'a> SignInMessage<'a> {
    /// `None` when the first line is not an EIP-4361 header.
    pub fn parse(message: &'a str) -> Option<Self> {
        let mut lines = message.lines();
        let domain = lines.next()?.strip_suffix(HEADER_TAIL)?;
        // The value of the first `Name: value` line.
        let field = |name: &str| {
            message
                .lines()
                .find_map(|line| line.strip_prefix(name)?.strip_prefix(": "))
        };
        Some(Self {
            domain,
            address: lines.next().and_then(parse_address),
            uri: field("URI"),
            chain_id: field("Chain ID").and_then(|c| c.parse().ok()),
            nonce: field("Nonce"),
        })
    }
}

/// The address whose key made `signature` (65 bytes, v of 0/1/27/28) over `message` as
/// `personal_sign` signs it.
pub fn recover_signer(message: &str, signature: &str) -> Option<[u8; 20]> {
    let bytes = hex::decode(signature.trim().strip_prefix("0x")?).ok()?;
    let (rs, v) = (
        bytes.get(..64)?,
        *bytes.get(64).filter(|_| bytes.len() == 65)?,
    );
    let parity = match v {
        0 | 1 => v,
        27 | 28 => v - 27,
        _ => return None,
    };
    let mut signature = Signature::from_slice(rs).ok()?;
    let mut recovery = RecoveryId::from_byte(parity)?;
    // A high-s signature is the same signature mirrored: normalise it and flip the parity.
    if let Some(low) = signature.normalize_s() {
        signature = low;
        recovery = RecoveryId::new(!recovery.is_y_odd(), recovery.is_x_reduced());
    }
    let mut prefixed = format!("\x19Ethereum Signed Message:\n{}", message.len()).into_bytes();
    prefixed.extend_from_slice(message.as_bytes());
    let key = VerifyingKey::recover_from_prehash(&keccak(&prefixed), &signature, recovery).ok()?;
    let point = key.to_encoded_point(false);
    keccak(point.as_bytes().get(1..)?)[12..].try_into().ok()
}

/// Checks a signed message and consumes its nonce; returns the wallet address, lower case.
pub async fn verify(
    ctx: &Ctx,
    auth: &Auth,
    address: &str,
    signature: &str,
    message: &str,
    purpose: Purpose,
) -> AppResult<String> {
    let claimed = parse_address(address).ok_or_else(bad_address)?;
    // Reject what is plainly not ours before touching the database, each with its reason.
    let parsed = SignInMessage::parse(message)
        .ok_or_else(|| message_invalid("Malformed sign-in message"))?;
    if parsed.domain != auth.config.public_authority()
        || parsed.uri != Some(auth.config.public_url.as_str())
    {
        return Err(message_invalid("This message is for another site"));
    }
    if parsed.address != Some(claimed) {
        return Err(message_invalid("This message is for another address"));
    }
    let chain_ok = parsed
        .chain_id
        .is_some_and(|c| auth.config.siwe_chain_ids.contains(&c));
    if !chain_ok {
        return Err(message_invalid("This chain is not supported"));
    }
    let nonce = parsed
        .nonce
        .ok_or_else(|| message_invalid("Malformed sign-in message"))?;
    let now = ctx.now();
    let issued = wallet_nonce::Entity::find_by_id(nonce.to_owned())
        .one(&ctx.db)
        .await?
        .ok_or_else(|| AppError::new(ErrorKind::WalletNonceInvalid))?;
    if issued.message != message {
        return Err(message_invalid(
            "The message was changed after it was issued",
        ));
    }
    let for_this = issued.purpose == purpose.name() && issued.user_id == purpose.user_id();
    if !for_this || issued.used || issued.expires_at <= now {
        return Err(ErrorKind::WalletNonceInvalid.into());
    }
    if recover_signer(message, signature) != Some(claimed) {
        return Err(ErrorKind::WalletSignatureInvalid.into());
    }
    let consumed = wallet_nonce::Entity::update_many()
        .col_expr(wallet_nonce::Column::Used, Expr::value(true))
        .filter(wallet_nonce::Column::Nonce.eq(nonce))
        .filter(wallet_nonce::Column::Used.eq(false))
        .filter(wallet_nonce::Column::ExpiresAt.gt(now))
        .exec(&ctx.db)
        .await?;
    if consumed.rows_affected != 1 {
        return Err(ErrorKind::WalletNonceInvalid.into());
    }
    Ok(issued.address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_read_field_by_field() {
        let address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        let message = format!(
            "blockbrief.example{HEADER_TAIL}\n{address}\n\n{STATEMENT}\n\nURI: https://blockbrief.example\n\
             Version: 1\nChain ID: 56\nNonce: abc123\nIssued At: 2026-11-24T00:00:00Z"
        );
        let parsed = SignInMessage::parse(&message).expect("a header");
        assert_eq!(parsed.domain, "blockbrief.example");
        assert_eq!(parsed.address, parse_address(address));
        assert_eq!(parsed.uri, Some("https://blockbrief.example"));
        assert_eq!(parsed.chain_id, Some(56));
        assert_eq!(parsed.nonce, Some("abc123"));

        assert_eq!(SignInMessage::parse("hello\nworld"), None);
        let bare =
            SignInMessage::parse("x wants you to sign in with your Ethereum account:\nnot hex")
                .expect("a header");
        assert_eq!(
            (bare.address, bare.uri, bare.chain_id, bare.nonce),
            (None, None, None, None)
        );
    }
}
