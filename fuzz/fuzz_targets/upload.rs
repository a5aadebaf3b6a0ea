//! The multipart upload path (`receive_upload`, then `keep`) on any request body, into a real local store: an
//! upload is kept whole or refused as the client's mistake, and a refused one leaves no file.
#![no_main]

use axum::body::Body;
use axum::extract::{FromRequest, Multipart};
use axum::http::{Request, header};
use blockbrief_fuzz::{files_under, server};
use libfuzzer_sys::fuzz_target;
use server::uploads::pipeline::{MAX_FILE, receive_upload};

fuzz_target!(|body: &[u8]| {
    let server = server();
    server.runtime.block_on(async {
        let request = Request::builder()
            .method("POST")
            .header(header::CONTENT_TYPE, "multipart/form-data; boundary=fuzz")
            .body(Body::from(body.to_vec()))
            .expect("a request");
        let mut multipart = Multipart::from_request(request, &())
            .await
            .expect("the boundary is given");
        let stored = match receive_upload(
            &server.state,
            server.state.uploads.store(),
            &mut multipart,
            "img_file",
        )
        .await
        {
            Ok(received) => received.keep().await,
            Err(e) => Err(e),
        };
        let files = files_under(&server.uploads);
        match stored {
            Ok(stored) => {
                assert!(stored.size <= MAX_FILE);
                assert_eq!(files.len(), 1, "{files:?}");
                assert_eq!(
                    std::fs::metadata(&files[0]).map(|m| m.len()).ok(),
                    Some(stored.size as u64)
                );
                std::fs::remove_file(&files[0]).expect("the upload is removed");
            }
            Err(e) => {
                assert!(e.is_client_error(), "{e:?}");
                assert!(files.is_empty(), "a refused upload left {files:?}");
            }
        }
    });
});
