//! The request envelope `{code, msg, data}` and everything around a call: the error catalogue,
//! the endpoint allow-list, the retry rule and the device header.
//!
//! Which error to use when: a request the server cannot read (bad JSON, wrong content type, a
//! missing field) is [`ErrorKind::BadRequest`] with HTTP 400; a missing or dead token is
//! [`ErrorKind::Unauthorized`] (HTTP 401, the client logs out); a readable request that breaks a
//! business rule (a wrong code, a form error) is answered with HTTP 200 and its own code, so the
//! client shows its message; abuse limits are HTTP 429; anything of ours is HTTP 500 with no detail.

mod device;
mod endpoints;
mod errors;
mod response;

pub use device::*;
pub use endpoints::*;
pub use errors::*;
pub use response::*;
