//! Image uploads and feedback, with every bad input the issue names, on SQLite and PostgreSQL.

use crate::common::images::{
    gif, gif_with_metadata, jpeg, jpeg_with_metadata, png, png_with_metadata,
};
use crate::common::{Backend, TestApp, assert_error};
use reqwest::multipart::{Form, Part};
use reqwest::{Response, StatusCode};
use sea_orm::EntityTrait;
use serde_json::{Value, json};
use server::entity::feedback;
use server::uploads::scrub::Scrubber;
use server::uploads::sniff::ImageKind;

const MAX: usize = 5_242_880;

impl TestApp {
    async fn upload_as(
        &self,
        bytes: Vec<u8>,
        name: &str,
        mime: &str,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value) {
        let part = Part::bytes(bytes)
            .file_name(name.to_owned())
            .mime_str(mime)
            .expect("mime");
        let mut req = self
            .http
            .post(self.url("/img/upload/feedback/v2"))
            .multipart(Form::new().part("img_file", part));
        // The app's own guest unless the call says who it is.
        let named = headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("x-token") || k.eq_ignore_ascii_case("x-gtoken"));
        if !named {
            req = req.header("X-GTOKEN", self.guest_token().await);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let res = req.send().await.expect("request");
        (res.status(), res.json().await.expect("envelope"))
    }

    async fn upload(&self, bytes: Vec<u8>, name: &str, mime: &str) -> (StatusCode, Value) {
        self.upload_as(bytes, name, mime, &[]).await
    }

    async fn fetch(&self, url: &str) -> Response {
        self.http.get(url).send().await.expect("request")
    }
}

fn url(got: &(StatusCode, Value)) -> String {
    assert_eq!(got.1["code"], 2000, "upload: {}", got.1);
    got.1["data"]["absolute"]
        .as_str()
        .expect("absolute")
        .to_owned()
}

async fn images_are_judged_by_their_bytes_and_served_safely(backend: Backend) {
    let app = TestApp::start_with(backend, |_| {}).await;
    let prefix = format!("{}/uploads/feedback/", app.state.config.public_url);
    for (bytes, mime, ext) in [
        (png(4, 3, None), "image/png", "png"),
        (jpeg(640, 480), "image/jpeg", "jpg"),
        (gif(1, 1), "image/gif", "gif"),
    ] {
        // The client's name and type are lies; only the bytes count.
        let got = app.upload(bytes.clone(), "holiday.txt", "text/html").await;
        let absolute = url(&got);
        assert!(
            absolute.starts_with(&prefix) && absolute.ends_with(&format!(".{ext}")),
            "{absolute}"
        );
        let served = app
            .fetch(&absolute.replace(&app.state.config.public_url, &app.base))
            .await;
        assert_eq!(served.status(), 200);
        let header = |name: &str| {
            served
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(header("content-type"), mime);
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(
            header("cache-control"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(served.bytes().await.expect("body").to_vec(), bytes);
    }
    // Names are random: the same file twice gets two names.
    assert_ne!(
        url(&app.upload(gif(1, 1), "a.gif", "image/gif").await),
        url(&app.upload(gif(1, 1), "a.gif", "image/gif").await)
    );
    // Only names the server gives out are served.
    for path in [
        "/uploads/feedback/..%2F..%2Fsecret.key",
        "/uploads/feedback/abc.png",
        "/uploads/feedback/0123456789abcdef0123456789abcdef.svg",
    ] {
        assert_eq!(
            app.fetch(&format!("{}{path}", app.base)).await.status(),
            404,
            "{path}"
        );
    }
}

/// The EXIF fields of an image, as (tag, value) text.
fn exif_fields(image: &[u8]) -> Vec<String> {
    let found = exif::Reader::new()
        .read_from_container(&mut std::io::Cursor::new(image))
        .expect("exif");
    found
        .fields()
        .map(|f| format!("{}={}", f.tag, f.display_value()))
        .collect()
}

/// A PNG's chunk names, with each chunk's CRC checked.
fn png_chunks(image: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    let mut at = 8;
    while at < image.len() {
        let len = u32::from_be_bytes(image[at..at + 4].try_into().expect("len")) as usize;
        let body = &image[at + 4..at + 8 + len];
        let crc = u32::from_be_bytes(image[at + 8 + len..at + 12 + len].try_into().expect("crc"));
        assert_eq!(crc32fast::hash(body), crc, "CRC of {:?}", &body[..4]);
        names.push(String::from_utf8_lossy(&body[..4]).into_owned());
        at += 12 + len;
    }
    names
}

/// Uploaded photos lose where they were taken, the device, XMP, IPTC, comments, text chunks and
/// what follows their end; their pixels stay byte for byte, and a turned photo stays turned.
async fn a_photo_keeps_its_pixels_and_orientation_and_loses_the_rest(backend: Backend) {
    let app = TestApp::start_with(backend, |_| {}).await;
    let served = |bytes: Vec<u8>, name: &'static str| {
        let app = &app;
        async move {
            let absolute = url(&app.upload(bytes, name, "image/jpeg").await);
            let local = absolute.replace(&app.state.config.public_url, &app.base);
            app.fetch(&local)
                .await
                .bytes()
                .await
                .expect("body")
                .to_vec()
        }
    };
    let leaks: [&[u8]; 7] = [
        b"Quokkaphone",
        b"xmpmeta",
        b"IPTC",
        b"taken at home",
        b"51.5074N",
        b"device",
        b"trailing",
    ];
    let leaked = |image: &[u8]| -> Vec<String> {
        leaks
            .iter()
            .filter(|l| image.windows(l.len()).any(|w| w == **l))
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect()
    };
    // A JPEG: its EXIF kept the orientation alone; its JFIF, frame and scan are untouched.
    let photo = jpeg_with_metadata(64, 48);
    assert!(
        exif_fields(&photo)
            .iter()
            .any(|f| f.starts_with("GPSLatitude="))
    );
    let kept = served(photo, "photo.jpg").await;
    assert_eq!(
        exif_fields(&kept),
        ["Orientation=row 0 at right and column 0 at top"]
    );
    assert_eq!(leaked(&kept), Vec::<String>::new());
    let plain = jpeg(64, 48);
    assert!(kept.starts_with(&plain[..20]) && kept.ends_with(&plain[20..]));
    // A PNG: text, time, private chunks and what follows IEND are gone; EXIF keeps its turn.
    let kept = served(png_with_metadata(4, 3), "chart.png").await;
    assert_eq!(png_chunks(&kept), ["IHDR", "eXIf", "IDAT", "IEND"]);
    assert_eq!(
        exif_fields(&kept),
        ["Orientation=row 0 at bottom and column 0 at right"]
    );
    assert_eq!(leaked(&kept), Vec::<String>::new());
    // A GIF keeps looping and loses its comment and XMP.
    let kept = served(gif_with_metadata(), "loop.gif").await;
    let plain = gif(1, 1);
    let looping = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00";
    assert_eq!(kept, [&plain[..19], looping, &plain[19..]].concat());
    // However the bytes are cut into chunks, the same bytes are kept.
    for (image, kind) in [
        (jpeg_with_metadata(8, 8), ImageKind::Jpeg),
        (png_with_metadata(3, 3), ImageKind::Png),
        (gif_with_metadata(), ImageKind::Gif),
    ] {
        let mut whole = Vec::new();
        let mut scrubber = Scrubber::new(kind);
        scrubber.feed(&image, &mut whole).expect("whole");
        scrubber.finish().expect("ends whole");
        let mut bytewise = Vec::new();
        let mut scrubber = Scrubber::new(kind);
        for byte in &image {
            scrubber.feed(&[*byte], &mut bytewise).expect("a byte");
        }
        scrubber.finish().expect("ends whole");
        assert_eq!(whole, bytewise, "{kind:?}");
    }
    // A metadata block that runs past the end of the file is refused, and nothing is kept.
    let mut cut = jpeg(8, 8)[..20].to_vec();
    cut.extend_from_slice(&[0xff, 0xe1, 0xff, 0x00, b'E', b'x']);
    cut.extend_from_slice(&[0xff, 0xd9]);
    assert_error(&app.upload(cut, "cut.jpg", "image/jpeg").await, 200, 4301);
}

async fn bad_uploads_are_refused_and_nothing_is_kept(backend: Backend) {
    let app = TestApp::start(backend).await;
    // Exactly 5 MiB passes; one byte more does not.
    assert_eq!(png(8, 8, Some(MAX)).len(), MAX);
    url(&app
        .upload(png(8, 8, Some(MAX)), "big.png", "image/png")
        .await);
    assert_error(
        &app.upload(png(8, 8, Some(MAX + 1)), "big.png", "image/png")
            .await,
        413,
        4130,
    );
    // Not an image, whatever the name says.
    assert_error(
        &app.upload(
            b"just some text, not a picture".to_vec(),
            "cat.png",
            "image/png",
        )
        .await,
        200,
        4301,
    );
    // A PNG signature followed by HTML.
    let mut html = b"\x89PNG\r\n\x1a\n".to_vec();
    html.extend_from_slice(b"<html><script>alert(1)</script></html>");
    assert_error(&app.upload(html, "x.png", "image/png").await, 200, 4301);
    // A tiny GIF that claims 60,000 x 60,000 pixels.
    let bomb = app
        .upload(gif(60_000, 60_000), "bomb.gif", "image/gif")
        .await;
    assert_error(&bomb, 200, 4301);
    assert_eq!(bomb.1["msg"], "The image is too large in pixels");
    // A multipart body with no file, and a body that is not multipart at all.
    let res = app
        .http
        .post(app.url("/img/upload/feedback/v2"))
        .header("X-GTOKEN", app.guest_token().await)
        .multipart(Form::new().text("note", "hi"))
        .send()
        .await
        .expect("request");
    let got = (res.status(), res.json::<Value>().await.expect("envelope"));
    assert_error(&got, 400, 4000);
    assert_eq!(got.1["msg"], "img_file is required");
    let guest = [("X-GTOKEN", app.guest_token().await)];
    assert_error(
        &app.post_with("/img/upload/feedback/v2", json!({}), &guest)
            .await,
        400,
        4000,
    );
    // Nobody at all: no upload, whatever the body.
    let res = app
        .http
        .post(app.url("/img/upload/feedback/v2"))
        .multipart(Form::new().part("img_file", Part::bytes(png(4, 4, None)).file_name("a.png")))
        .send()
        .await
        .expect("request");
    let got = (res.status(), res.json::<Value>().await.expect("envelope"));
    assert_error(&got, 401, 401);
    let stored = server::entity::upload::Entity::find()
        .all(&app.state.db)
        .await
        .expect("uploads");
    assert_eq!(stored.len(), 1, "only the 5 MiB image was kept");
    // Refused uploads leave no files behind, half-written ones included.
    let dir = app.state.config.data_dir.join("uploads/feedback");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("upload dir")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
}

async fn feedback_works_for_users_guests_and_visitors(backend: Backend) {
    let app = TestApp::start(backend).await;
    let images: Vec<String> = vec![
        url(&app.upload(png(2, 2, None), "a.png", "image/png").await),
        url(&app.upload(jpeg(10, 10), "b.jpg", "image/jpeg").await),
    ];
    let form = |content: &str| json!({ "type": "bug", "content": content, "contact": "@reader", "images": images });
    // A signed-in user: the create_feedback task completes on the server's word.
    let me = app.sign_in("fb@example.org").await;
    let token = me["token"].as_str().expect("token");
    let (_, made) = app
        .post_with(
            "/feedback/create",
            form("Charts do not load"),
            &[("X-TOKEN", token)],
        )
        .await;
    assert_eq!(made["code"], 2000, "{made}");
    let (_, list) = app
        .post_with(
            "/point/task/list",
            json!({ "group": "novice" }),
            &[("X-TOKEN", token)],
        )
        .await;
    let task = list["data"]["list"]
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["event_type"] == "create_feedback")
        .cloned()
        .expect("task");
    assert_eq!(task["status"], "to_receive");
    // A guest, and a visitor with no token at all.
    let (_, guest) = app.post("/user/gtoken", json!({})).await;
    let gtoken = guest["data"]["token"].as_str().expect("token");
    assert_eq!(
        app.post_with(
            "/feedback/create",
            form("Add Korean push alerts"),
            &[("X-GTOKEN", gtoken)]
        )
        .await
        .1["code"],
        2000
    );
    assert_eq!(
        app.post(
            "/feedback/create",
            json!({ "type": "other", "content": "Thanks!", "images": [] })
        )
        .await
        .1["code"],
        2000
    );
    let rows = feedback::Entity::find()
        .all(&app.state.db)
        .await
        .expect("rows");
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].user_id, me["id"].as_i64());
    assert!(rows[1].guest_id.is_some() && rows[1].user_id.is_none());
    assert!(rows[2].guest_id.is_none() && rows[2].user_id.is_none());
    assert_eq!(
        serde_json::from_str::<Vec<String>>(&rows[0].images).expect("images"),
        images
    );

    // The team reads it with the CLI, newest first, images included.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_blockbrief"))
        .args(["feedback", "--limit", "2"])
        .env("DATABASE_URL", app.state.config.database_url())
        .env("DATA_DIR", &app.state.config.data_dir)
        .output()
        .expect("the CLI runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let thanks = text.find("Thanks!").expect("newest shown");
    let korean = text.find("Add Korean push alerts").expect("second shown");
    assert!(
        thanks < korean && !text.contains("Charts do not load"),
        "{text}"
    );
    assert!(text.contains("2 feedback shown, newest first"));
}

async fn bad_feedback_is_refused_with_field_errors(backend: Backend) {
    let app = TestApp::start(backend).await;
    let image = url(&app.upload(gif(1, 1), "a.gif", "image/gif").await);
    let long = "a".repeat(301);
    let cases = [
        (
            json!({ "type": "bug", "content": long, "images": [] }),
            "content",
        ),
        (
            json!({ "type": "praise", "content": "hi", "images": [] }),
            "type",
        ),
        (
            json!({ "type": "bug", "content": "hi", "images": [&image, &image, &image, &image] }),
            "images",
        ),
    ];
    for (form, field) in cases {
        let got = app.post("/feedback/create", form).await;
        assert_error(&got, 200, 4001);
        assert_eq!(got.1["data"]["errors"][0]["field"], field, "{}", got.1);
    }
    // 300 emoji are fine: the limit counts code points on both sides.
    let emoji = "😀".repeat(300);
    assert_eq!(
        app.post(
            "/feedback/create",
            json!({ "type": "bug", "content": emoji, "images": [] })
        )
        .await
        .1["code"],
        2000
    );
    // Only images this server issued.
    for foreign in [
        "https://evil.example/x.png",
        &format!(
            "{}/uploads/feedback/{}.png",
            app.state.config.public_url,
            "0".repeat(32)
        ),
    ] {
        let got = app
            .post(
                "/feedback/create",
                json!({ "type": "bug", "content": "x", "images": [foreign] }),
            )
            .await;
        assert_error(&got, 200, 4001);
        assert_eq!(got.1["msg"], "Images must be uploaded here first");
    }
    // Axum's 2 MB limit still holds on every other route.
    let huge = "x".repeat(3 * 1024 * 1024);
    assert_error(
        &app.post(
            "/feedback/create",
            json!({ "type": "bug", "content": huge }),
        )
        .await,
        413,
        4130,
    );
}

async fn feedback_is_rate_limited_per_sender(backend: Backend) {
    let app = TestApp::start(backend).await;
    let (_, guest) = app.post("/user/gtoken", json!({})).await;
    let gtoken = guest["data"]["token"].as_str().expect("token");
    let headers = [("X-GTOKEN", gtoken)];
    let form = json!({ "type": "other", "content": "again", "images": [] });
    let send = || app.post_with("/feedback/create", form.clone(), &headers);
    for n in 0..5 {
        assert_eq!(send().await.1["code"], 2000, "feedback {n}");
    }
    assert_error(&send().await, 429, 4290);
    app.clock.advance(3601);
    assert_eq!(send().await.1["code"], 2000);
}

async fn one_ip_is_limited_whoever_it_claims_to_be(backend: Backend) {
    let app = TestApp::start(backend).await;
    // Anonymous feedback has no token to count by: the IP cap (10 an hour) applies.
    let form = json!({ "type": "other", "content": "from one address", "images": [] });
    for n in 0..10 {
        assert_eq!(
            app.post("/feedback/create", form.clone()).await.1["code"],
            2000,
            "feedback {n}"
        );
    }
    assert_error(&app.post("/feedback/create", form).await, 429, 4290);
    // Uploads: 30 an hour from one IP.
    for n in 0..30 {
        assert_eq!(
            app.upload(gif(1, 1), "a.gif", "image/gif").await.1["code"],
            2000,
            "upload {n}"
        );
    }
    let refused = app.upload(gif(1, 1), "a.gif", "image/gif").await;
    assert_error(&refused, 429, 4290);
    assert_eq!(refused.1["data"]["retry_after"], 3600);
}

/// Starts an upload over a raw connection and sends only its first bytes: it holds a slot
/// until the server cuts it off.
async fn trickle(app: &TestApp, client: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let addr = app.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let part = "--b\r\nContent-Disposition: form-data; name=\"img_file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n";
    let guest = app.guest_token().await;
    let head = format!(
        "POST /api/img/upload/feedback/v2 HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {client}\r\n\
         X-GTOKEN: {guest}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n{part}"
    );
    stream.write_all(head.as_bytes()).await.expect("head");
    stream
        .write_all(b"\x89PNG\r\n\x1a\n")
        .await
        .expect("first bytes");
    stream
}

async fn slow_uploads_are_cut_off_and_a_client_over_its_limit_never_waits(backend: Backend) {
    use std::time::{Duration, Instant};
    use tokio::io::AsyncReadExt;
    let app = TestApp::start_with(backend, |c| {
        c.trust_proxy = "127.0.0.1".parse().expect("setting");
    })
    .await;
    let over = [("x-forwarded-for", "198.51.100.30")];
    for n in 0..30 {
        let got = app
            .upload_as(png(8, 8, None), "a.png", "image/png", &over)
            .await;
        assert_eq!(got.1["code"], 2000, "upload {n}");
    }
    // Eight slow uploads from one client hold every slot.
    let mut slow = Vec::new();
    for _ in 0..8 {
        slow.push(trickle(&app, "198.51.100.40").await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let asked = Instant::now();
    let refused = app
        .upload_as(png(8, 8, None), "a.png", "image/png", &over)
        .await;
    assert_error(&refused, 429, 4290);
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "the limit is checked before a slot"
    );
    // Another client gets a slot once the slow ones are cut off (5 s without their bytes).
    let other = [("x-forwarded-for", "198.51.100.50")];
    let waited = app
        .upload_as(png(8, 8, None), "a.png", "image/png", &other)
        .await;
    assert_eq!(waited.1["code"], 2000, "{}", waited.1);
    for mut stream in slow {
        let mut answer = String::new();
        let _ =
            tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer)).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("\"code\":4080"), "{answer}");
    }
    assert!(asked.elapsed() < Duration::from_secs(15));
}

/// An upload nobody used within a day goes, file and row, and can no longer be used; one that
/// feedback used stays.
async fn unused_uploads_go_after_a_day(backend: Backend) {
    let app = TestApp::start(backend).await;
    let used = url(&app.upload(png(2, 2, None), "a.png", "image/png").await);
    let unused = url(&app.upload(png(3, 3, None), "b.png", "image/png").await);
    let guest = [("X-GTOKEN", app.guest_token().await)];
    let form = |images: &[&str]| json!({ "type": "bug", "content": "Charts do not load", "images": images });
    let (_, made) = app
        .post_with("/feedback/create", form(&[&used]), &guest)
        .await;
    assert_eq!(made["code"], 2000, "{made}");
    let forget = || server::uploads::forget_unused(&app.state, &app.state.uploads);
    assert_eq!(forget().await.expect("cleanup"), 0, "not a day yet");
    app.clock.advance(server::uploads::UNUSED_SECONDS + 1);
    assert_eq!(forget().await.expect("cleanup"), 1);
    // Served here, whatever the public address says.
    let here = |absolute: &str| absolute.replace(&app.state.config.public_url, &app.base);
    assert_eq!(app.fetch(&here(&used)).await.status(), 200);
    assert_eq!(app.fetch(&here(&unused)).await.status(), 404);
    let (_, late) = app
        .post_with("/feedback/create", form(&[&unused]), &guest)
        .await;
    assert_eq!(late["code"], 4001, "{late}");
    assert_eq!(
        forget().await.expect("cleanup"),
        0,
        "nothing left to delete"
    );
}

on_both_databases!(
    a_photo_keeps_its_pixels_and_orientation_and_loses_the_rest,
    unused_uploads_go_after_a_day,
    one_ip_is_limited_whoever_it_claims_to_be,
    images_are_judged_by_their_bytes_and_served_safely,
    bad_uploads_are_refused_and_nothing_is_kept,
    feedback_works_for_users_guests_and_visitors,
    bad_feedback_is_refused_with_field_errors,
    feedback_is_rate_limited_per_sender,
    slow_uploads_are_cut_off_and_a_client_over_its_limit_never_waits,
);
