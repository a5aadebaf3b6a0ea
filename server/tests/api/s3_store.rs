//! Uploads on an S3-compatible store: moto's S3 server on loopback, and the real server binary
//! configured the way an operator would (`UPLOAD_STORE=s3://…` and the standard `AWS_*` variables).

use std::process::Command;

use crate::common::images::png;
use crate::common::load::s3_with_bucket;
use crate::common::{Peer, free_port};
use reqwest::multipart::{Form, Part};
use serde_json::Value;

const BUCKET: &str = "blockbrief-media";

async fn upload(http: &reqwest::Client, base: &str, bytes: Vec<u8>) -> Value {
    let guest: Value = http
        .post(format!("{base}/api/user/gtoken"))
        .json(&serde_json::json!({}))
        .send()
        .await
        .expect("guest token")
        .json()
        .await
        .expect("envelope");
    let part = Part::bytes(bytes)
        .file_name("a.png")
        .mime_str("image/png")
        .expect("mime");
    let res = http
        .post(format!("{base}/api/img/upload/feedback/v2"))
        .header("X-GTOKEN", guest["data"]["token"].as_str().expect("token"))
        .multipart(Form::new().part("img_file", part))
        .send()
        .await
        .expect("upload");
    res.json().await.expect("envelope")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_stream_into_an_s3_bucket_and_are_served_from_it() {
    let (_s3, s3) = s3_with_bucket(BUCKET).await;
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");

    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = Command::new(env!("CARGO_BIN_EXE_blockbrief"));
    server
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("DATA_DIR", dir.path())
        .env("PUBLIC_URL", &base)
        .env("UPLOAD_STORE", format!("s3://{BUCKET}/media"))
        .env("AWS_ENDPOINT", &s3)
        .env("AWS_ALLOW_HTTP", "true")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("RUST_LOG", "warn");
    let _server = Peer::start(server, port).await;

    // A small file (one part) and one of almost 5 MiB (parts of S3's multipart upload).
    for file in [png(3, 3, None), png(2280, 2290, None)] {
        let got = upload(&http, &base, file.clone()).await;
        assert_eq!(got["code"], 2000, "{got}");
        let absolute = got["data"]["absolute"].as_str().expect("url").to_owned();
        let served = http.get(&absolute).send().await.expect("get");
        assert_eq!(served.headers()["content-type"], "image/png");
        assert_eq!(served.bytes().await.expect("body").to_vec(), file);
        // The object is in the bucket, under the configured prefix.
        let key = absolute.rsplit('/').next().expect("name");
        let stored = http
            .get(format!("{s3}/{BUCKET}/media/feedback/{key}"))
            .send()
            .await
            .expect("s3 get");
        assert_eq!(stored.bytes().await.expect("object").to_vec(), file);
    }
    // A refused upload leaves no object behind.
    let refused = upload(&http, &base, b"not an image at all".to_vec()).await;
    assert_eq!(refused["code"], 4301);
    let listing = http
        .get(format!("{s3}/{BUCKET}?list-type=2"))
        .send()
        .await
        .expect("list");
    let xml = listing.text().await.expect("listing");
    assert_eq!(xml.matches("<Key>").count(), 2, "{xml}");
}
