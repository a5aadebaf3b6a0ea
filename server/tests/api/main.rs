//! The server's API tests, one binary (each module was once its own, and linked the whole server
//! again): the real app over SQLite and PostgreSQL, with real peers on loopback.

#[macro_use]
mod common;

mod accounts;
mod alerts;
mod api_basics;
mod apple;
mod bots;
mod budgets;
mod cleanup;
mod client_addr;
mod content;
mod conversations;
mod feedback;
mod lifecycle;
mod likes;
mod linking;
mod mail_and_captcha;
mod markets;
mod oauth;
mod otp_security;
mod points;
mod posts;
mod profiles;
mod push;
mod questions;
mod s3_store;
mod scale;
mod sessions;
mod sign_in;
mod stories;
mod stream;
mod syndication;
mod tracking;
mod translation;
mod votes;
mod wallet;
