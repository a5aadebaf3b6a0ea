//! Readers as authors: public profiles, questions and answers with point bounties, readers' own
//! posts, and reports on what readers write.

pub mod markdown;
pub mod posts;
pub mod profiles;
pub mod questions;
pub mod reports;
