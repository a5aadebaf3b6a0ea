//! Uploaded images: judged by their bytes, stored through object_store under random names, and
//! served back with their own type.

pub mod pipeline;
pub mod sniff;
pub mod store;
