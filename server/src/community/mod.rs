//! Readers as authors: public profiles, and questions and answers with point bounties (the
//! community issue adds readers' own posts here).

pub mod profiles;
pub mod questions;
