//! Readers as authors: public profiles so far (the community issue adds questions, answers and
//! readers' own posts here).

pub mod profiles;
