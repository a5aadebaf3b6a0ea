//! Readers as authors: public profiles, questions and answers with point bounties, and readers'
//! own posts.

pub mod markdown;
pub mod posts;
pub mod profiles;
pub mod questions;
