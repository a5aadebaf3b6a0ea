//! What readers do with the news beyond reading it: likes so far (the conversations issue adds
//! comments, favorites, history and messages here).

pub mod likes;
