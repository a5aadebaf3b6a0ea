//! The test harness: the real app on a loopback port, over a fresh SQLite file or a fresh
//! PostgreSQL database (`TEST_POSTGRES_URL`, set by `make test`), with a manual clock and one-time
//! codes the test chooses. Helpers start real peers: an SMTP server, captcha and SMS endpoints.

pub mod binary;
pub mod bot_apis;
pub mod images;
pub mod load;
pub mod price_api;
pub mod provider;
pub mod push_service;
pub mod sse;
pub mod translate_api;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::Duration;

use reqwest::StatusCode;
use sea_orm::{ConnectionTrait, DatabaseConnection};
use serde_json::{Value, json};
use server::config::Config;
use server::content::search_copy::Opened;
use server::platform::{ManualClock, ScriptedCodes};
use server::{AppState, app};
use tempfile::TempDir;

/// 2026-11-22T00:00:00Z: tests start at a fixed time.
pub const START: i64 = 1_795_305_600;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs each named `async fn(Backend)` once on SQLite and once on PostgreSQL.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() { super::$name($crate::common::Backend::Sqlite).await }
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() { super::$name($crate::common::Backend::Postgres).await }
        }
    )*};
}

/// The admin token the tests start their apps with.
pub const ADMIN: &str = "admin-token-for-tests-0123456789";

pub struct TestApp {
    pub base: String,
    pub http: reqwest::Client,
    pub clock: Arc<ManualClock>,
    pub codes: Arc<ScriptedCodes>,
    pub state: AppState,
    pub dir: TempDir,
    /// How start-up found the search copy (PostgreSQL); `None` on SQLite or when not opened.
    pub opened: Option<Opened>,
    guest: tokio::sync::OnceCell<String>,
}

pub async fn database_url(backend: Backend, dir: &Path) -> String {
    match backend {
        Backend::Sqlite => {
            let file = dir.join("test.db");
            std::fs::write(&file, sqlite_template().await).expect("copy the migrated database");
            format!("sqlite://{}?mode=rwc", file.display())
        }
        Backend::Postgres => {
            let name = format!(
                "bb_{}",
                dir.file_name().and_then(|n| n.to_str()).unwrap_or("x")
            )
            .to_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "_");
            let template = postgres_template().await;
            on_test_cluster(&format!("CREATE DATABASE {name} TEMPLATE {template}")).await;
            let url = postgres_url(&name);
            // Its own identity, as a database migrated on its own has (search copies tell
            // databases apart by it: `content::search_copy`).
            let copy = sea_orm::Database::connect(&url).await.expect("connect");
            copy.execute_unprepared("UPDATE search_source SET id = gen_random_uuid()::text")
                .await
                .expect("a new identity");
            copy.close().await.expect("close");
            url
        }
    }
}

// Each test's database is a copy of one this run migrated once (the 44 migrations took a
// share of the whole run's CPU when every test ran them). The server still migrates it at start
// as it would any database, and finds nothing to do.

/// A migrated SQLite database's bytes, written into each test's directory.
async fn sqlite_template() -> &'static [u8] {
    static TEMPLATE: tokio::sync::OnceCell<Vec<u8>> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let dir = temp_dir();
            let file = dir.path().join("template.db");
            let db = server::db::connect(&format!("sqlite://{}?mode=rwc", file.display()))
                .await
                .expect("migrate the template");
            // Everything into the file itself, none left in the write-ahead log.
            db.execute_unprepared("PRAGMA wal_checkpoint(TRUNCATE)")
                .await
                .expect("checkpoint");
            db.close().await.expect("close the template");
            std::fs::read(&file).expect("read the template")
        })
        .await
}

/// The name of a migrated PostgreSQL database that `CREATE DATABASE … TEMPLATE` copies.
async fn postgres_template() -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let name = format!("bb_template_{}", std::process::id());
            on_test_cluster(&format!("CREATE DATABASE {name}")).await;
            // A copy needs its template without connections: this pool is closed before any.
            let db = server::db::connect(&postgres_url(&name))
                .await
                .expect("migrate the template");
            db.close().await.expect("close the template");
            name
        })
        .await
}

/// Runs `sql` on the test cluster's own database (`TEST_POSTGRES_URL`).
async fn on_test_cluster(sql: &str) {
    let conn = sea_orm::Database::connect(postgres_admin_url())
        .await
        .expect("connect to TEST_POSTGRES_URL");
    conn.execute_unprepared(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    conn.close().await.expect("close admin connection");
}

fn postgres_admin_url() -> String {
    std::env::var("TEST_POSTGRES_URL").expect(
        "TEST_POSTGRES_URL is not set: run the tests with `make test`, which starts a \
         throw-away PostgreSQL and sets it",
    )
}

/// The URL of database `name` on the test cluster.
fn postgres_url(name: &str) -> String {
    let admin = postgres_admin_url();
    let (base, _) = admin
        .rsplit_once('/')
        .expect("TEST_POSTGRES_URL ends with /dbname");
    format!("{base}/{name}")
}

impl TestApp {
    pub async fn start(backend: Backend) -> Self {
        Self::start_with(backend, |_| {}).await
    }

    pub async fn start_with(backend: Backend, configure: impl FnOnce(&mut Config)) -> Self {
        let dir = temp_dir();
        let mut config = Config::embedded(dir.path().join("data"));
        config.database_url = Some(database_url(backend, dir.path()).await);
        config.web_dir = dir.path().join("no-web");
        configure(&mut config);
        Self::serve(config, dir).await
    }

    /// A server that has not opened its search copy yet, as one just started on PostgreSQL:
    /// `state.open_search_copy()` opens it.
    pub async fn start_preparing(backend: Backend, configure: impl FnOnce(&mut Config)) -> Self {
        let dir = temp_dir();
        let mut config = Config::embedded(dir.path().join("data"));
        config.database_url = Some(database_url(backend, dir.path()).await);
        config.web_dir = dir.path().join("no-web");
        configure(&mut config);
        Self::serve_opening(config, dir, false).await
    }

    /// Another server on this one's database, as several servers share one PostgreSQL.
    pub async fn start_beside(&self) -> Self {
        let dir = temp_dir();
        let mut config = self.state.config.as_ref().clone();
        config.data_dir = dir.path().join("data");
        Self::serve(config, dir).await
    }

    async fn serve(config: Config, dir: TempDir) -> Self {
        Self::serve_opening(config, dir, true).await
    }

    async fn serve_opening(config: Config, dir: TempDir, open_search: bool) -> Self {
        std::fs::create_dir_all(&config.data_dir).expect("data dir");
        let database: DatabaseConnection = server::open_database(&config)
            .await
            .expect("database opens and migrates");
        let clock = Arc::new(ManualClock::new(START));
        let codes = Arc::new(ScriptedCodes::default());
        let state = AppState::new(config, database, clock.clone(), codes.clone()).expect("state");
        let opened = if open_search {
            state.open_search_copy().await.expect("search copy")
        } else {
            None
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        server::stream::spawn(&state.ctx, &state.stream);
        state.ctx.events.listen();
        let service = app(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
        tokio::spawn(async move { axum::serve(listener, service).await });
        let http = reqwest::Client::builder()
            .no_proxy()
            .build()
            .expect("client");
        Self {
            base: format!("http://{addr}"),
            http,
            clock,
            codes,
            state,
            dir,
            opened,
            guest: tokio::sync::OnceCell::new(),
        }
    }

    /// Imports the feed document at `url` as a scheduled source does.
    pub async fn import_feed(
        &self,
        url: &str,
    ) -> Result<server::content::ingest::Imported, server::content::ingest::IngestError> {
        let state = &self.state;
        server::content::ingest::import(state, &state.linking, &state.http, url).await
    }

    /// A guest token of this app's own, made on first use (uploads need one at least).
    pub async fn guest_token(&self) -> &str {
        self.guest
            .get_or_init(|| async {
                let (_, made) = self.post("/user/gtoken", json!({})).await;
                made["data"]["token"]
                    .as_str()
                    .expect("guest token")
                    .to_owned()
            })
            .await
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/api{path}", self.base)
    }

    /// POSTs JSON, returns the HTTP status and the parsed body.
    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.post_with(path, body, &[]).await
    }

    pub async fn post_with(
        &self,
        path: &str,
        body: Value,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value) {
        let mut req = self.http.post(self.url(path)).json(&body);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let text = res.text().await.expect("body");
        let body =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        (status, body)
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let res = self.http.get(self.url(path)).send().await.expect("request");
        let status = res.status();
        (status, res.json().await.expect("JSON body"))
    }

    /// Asks for a code for `email`, scripting it to be `code`.
    pub async fn send_code(&self, email: &str, code: &'static str) -> (StatusCode, Value) {
        self.codes.set_next(code);
        self.post("/otp/email", json!({ "email": email, "purpose": "login" }))
            .await
    }

    pub async fn login(&self, email: &str, code: &str) -> (StatusCode, Value) {
        self.post("/user/login/email", json!({ "email": email, "otp": code }))
            .await
    }

    /// Signs in and returns the session user.
    /// Stores a feed item as the editors do (`/admin/feed/upsert`, the app started with
    /// [`ADMIN`] as its admin token); gives its id.
    pub async fn publish(&self, item: Value) -> i64 {
        let (_, made) = self
            .post_with("/admin/feed/upsert", item, &[("X-ADMIN-TOKEN", ADMIN)])
            .await;
        made["data"]["id"]
            .as_i64()
            .unwrap_or_else(|| panic!("{made}"))
    }

    /// `path` as a reader of `locale` (and, with `token`, signed in) asks it: its `data`, after
    /// checking it succeeded.
    pub async fn call_as(
        &self,
        path: &str,
        body: Value,
        locale: &str,
        token: Option<&str>,
    ) -> Value {
        let cookie = format!("NEXT_LOCALE={locale}");
        let mut headers = vec![("Cookie", cookie.as_str())];
        if let Some(t) = token {
            headers.push(("X-TOKEN", t));
        }
        let (status, body) = self.post_with(path, body, &headers).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(body["code"], 2000, "{path}: {body}");
        body["data"].clone()
    }

    pub async fn sign_in(&self, email: &str) -> Value {
        let (_, sent) = self.send_code(email, "4321").await;
        assert_eq!(sent["code"], 2000, "send code: {sent}");
        let (_, session) = self.login(email, "4321").await;
        assert_eq!(session["code"], 2000, "login: {session}");
        session["data"].clone()
    }
}

fn temp_dir() -> TempDir {
    tempfile::Builder::new()
        .prefix("bbt")
        .tempdir()
        .expect("temp dir")
}

/// Asserts an envelope error: HTTP status and catalogue code.
pub fn assert_error(got: &(StatusCode, Value), status: u16, code: i64) {
    assert_eq!(got.0.as_u16(), status, "HTTP status of {}", got.1);
    assert_eq!(got.1["code"], code, "envelope code of {}", got.1);
    assert!(
        got.1["msg"].as_str().is_some_and(|m| !m.is_empty()),
        "a message: {}",
        got.1
    );
}

/// A loopback port for a peer process to listen on. Taken from below the range the kernel hands
/// out itself (`ip_local_port_range`, 32768–60999 by default), each once per test process: a
/// port picked with `bind(0)` was free only until the kernel gave it to another test's server or
/// connection, which then answered in place of the peer (once: every mail of the two-server test
/// went to another test's HTTP server while aiosmtpd could not bind).
pub fn free_port() -> u16 {
    const FIRST: u16 = 20_000;
    const PORTS: u16 = 12_000;
    static NEXT: AtomicU16 = AtomicU16::new(0);
    // Two test processes at once (two checkouts) start at different places.
    let start = (std::process::id() % u32::from(PORTS)) as u16;
    loop {
        let port = FIRST + (start + NEXT.fetch_add(1, Ordering::Relaxed) % PORTS) % PORTS;
        // Something outside the tests may listen there already.
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

/// A process the tests started; killed when dropped (also when a test panics). What it writes
/// goes to a log of its own (a request log would bury the tests' output), shown when it fails
/// to start.
pub struct Peer(Child, tempfile::NamedTempFile);

impl Peer {
    /// Starts `command` and waits until it accepts connections on `port`.
    pub async fn start(mut command: Command, port: u16) -> Self {
        let log = tempfile::NamedTempFile::new().expect("peer log");
        let child = command
            .stdout(log.reopen().expect("log"))
            .stderr(log.reopen().expect("log"))
            .spawn()
            .expect("peer starts");
        let peer = Self(child, log);
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return peer;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let written = std::fs::read_to_string(peer.1.path()).unwrap_or_default();
        panic!("{command:?} did not listen on port {port}: {written}");
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A real SMTP server (Python's aiosmtpd) on loopback, delivering into a Maildir.
pub struct SmtpServer {
    pub port: u16,
    pub maildir: PathBuf,
    _peer: Peer,
    _dir: TempDir,
}

impl SmtpServer {
    pub async fn start() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let maildir = dir.path().join("maildir");
        let mut command = Command::new("python3");
        command
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}")])
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir);
        let peer = Peer::start(command, port).await;
        Self {
            port,
            maildir,
            _peer: peer,
            _dir: dir,
        }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Waits for the `n`th delivered message and returns it raw.
    pub async fn wait_for_messages(&self, n: usize) -> Vec<Vec<u8>> {
        for _ in 0..100 {
            let mut found: Vec<(std::time::SystemTime, Vec<u8>)> =
                std::fs::read_dir(self.maildir.join("new"))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter_map(|e| {
                        let modified = e.metadata().ok()?.modified().ok()?;
                        Some((modified, std::fs::read(e.path()).ok()?))
                    })
                    .collect();
            if found.len() >= n {
                found.sort_by_key(|(t, _)| *t);
                return found.into_iter().map(|(_, m)| m).collect();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("fewer than {n} messages arrived");
    }
}

/// Serves `router` on a loopback port: a stand-in for a service beyond this machine that speaks
/// its real protocol (reCAPTCHA siteverify, an SMS gateway).
pub async fn serve_peer(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}")
}
