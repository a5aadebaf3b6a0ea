//! The image sniffers on any file, given its head and tail as the upload pipeline keeps them:
//! never a panic, and an accepted image is of the kind its first bytes say, within the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use server::uploads::sniff::{HEAD_BYTES, MAX_SIDE, TAIL_BYTES, inspect, kind_of};

fuzz_target!(|file: &[u8]| {
    let head = &file[..file.len().min(HEAD_BYTES)];
    let tail = &file[file.len().saturating_sub(TAIL_BYTES)..];
    if let Ok(info) = inspect(head, tail) {
        assert_eq!(kind_of(head), Some(info.kind));
        assert!((1..=MAX_SIDE).contains(&info.width) && (1..=MAX_SIDE).contains(&info.height));
    }
});
