//! Sign-in: tokens, one-time codes and the users they lead to. Callable without HTTP.

pub mod apple;
pub mod id_token;
pub mod invitations;
pub mod jwks;
pub mod oauth;
pub mod otp;
pub mod telegram;
pub mod tokens;
pub mod users;
pub mod wallet;
