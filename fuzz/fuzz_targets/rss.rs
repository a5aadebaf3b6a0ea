//! The RSS and Atom import, end to end into a real SQLite database: any document is imported or
//! refused as a bad feed or bad entries, never a panic and never a failure of the store.
#![no_main]

use blockbrief_fuzz::server;
use libfuzzer_sys::fuzz_target;
use server::content::ingest::{IngestError, import_bytes};

fuzz_target!(|document: &[u8]| {
    let server = server();
    let imported = server.runtime.block_on(import_bytes(
        &server.state,
        &server.state.linking,
        "https://fuzz.example/feed.xml",
        document,
    ));
    match imported {
        Ok(done) => assert!(done.new <= done.items),
        Err(e) => assert!(!matches!(e, IngestError::Store(_)), "{e}"),
    }
});
