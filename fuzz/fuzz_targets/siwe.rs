//! Sign-In with Ethereum: the message reader and signature recovery on any text (a NUL byte
//! separates the message from the signature): never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use server::auth::wallet::{SignInMessage, recover_signer};

fuzz_target!(|text: &str| {
    let (message, signature) = text.split_once('\0').unwrap_or((text, ""));
    if let Some(parsed) = SignInMessage::parse(message) {
        assert!(message.starts_with(parsed.domain));
    }
    let _ = recover_signer(message, signature);
});
