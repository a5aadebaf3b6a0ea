use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt;

use server::config::{BotsAction, Command, Config};
use server::platform::{OsRandom, SystemClock};
use server::{AppState, app, bots, community, content, feedback};
use tracing_subscriber::EnvFilter;

// Many small allocations per request (JSON, query building): mimalloc handles them faster.

// Many small allocations per request (JSON, query building): mimalloc handles them faster (the
// system allocator served 30% fewer signed-in feeds, `make bench-feed`). Its `no_thp` keeps
// transparent huge pages off: with them, each idle live stream held 22 KB instead of 15.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,sea_orm=warn,tower_http=info")),
        )
        .init();
    let config = Config::load();
    std::fs::create_dir_all(&config.data_dir)
        .map_err(|e| format!("DATA_DIR {}: {e}", config.data_dir.display()))?;
    let database = server::open_database(&config)
        .await
        .map_err(|e| format!("database: {e}"))?;
    match config.command.clone() {
        Some(Command::Feedback { limit }) => print_feedback(&database, limit).await,
        Some(Command::Import { source }) => {
            let state = new_state(config, database)?;
            let done = content::ingest::import(&state, &state.linking, &state.http, &source)
                .await
                .map_err(|e| format!("{source}: {e}"))?;
            println!(
                "{source}: {} new, {} updated, {} skipped",
                done.new,
                done.items - done.new,
                done.skipped
            );
            Ok(())
        }
        Some(Command::Generate { items }) => {
            let state = new_state(config, database)?;
            let created = content::demo::generate(&state, &state.linking, items)
                .await
                .map_err(|e| format!("generate: {e}"))?;
            println!("{created} new feed items ({items} written)");
            Ok(())
        }
        Some(Command::Bots {
            action: BotsAction::Status,
        }) => {
            let status = bots::status::status(&database)
                .await
                .map_err(|e| format!("bots status: {e:?}"))?;
            print!("{}", bots::status::describe(&status));
            Ok(())
        }
        Some(Command::Moderation { action }) => {
            let state = new_state(config, database)?;
            community::reports::run(&state, action)
                .await
                .map(|said| print!("{said}"))
                .map_err(|e| format!("moderation: {e:?}"))
        }
        Some(Command::Serve) | None => serve(config, database).await,
    }
}

fn new_state(config: Config, database: sea_orm::DatabaseConnection) -> Result<AppState, String> {
    AppState::new(config, database, Arc::new(SystemClock), Arc::new(OsRandom))
}

async fn print_feedback(database: &sea_orm::DatabaseConnection, limit: u64) -> Result<(), String> {
    let list = feedback::recent(database, limit)
        .await
        .map_err(|e| format!("database: {e}"))?;
    for item in &list {
        println!("{}\n", feedback::describe(item));
    }
    println!("{} feedback shown, newest first", list.len());
    Ok(())
}

async fn serve(config: Config, database: sea_orm::DatabaseConnection) -> Result<(), String> {
    let bind = config.bind_addr;
    let state = new_state(config, database)?;
    if state.config.demo_content
        && content::demo::load_if_empty(&state, &state.linking)
            .await
            .map_err(|e| format!("demo content: {e}"))?
    {
        tracing::info!("loaded the demo content into the empty database");
    }
    // Every database has the bot guides (after the demo set, which loads only into an empty one).
    bots::guides::ensure(&state, &state.linking)
        .await
        .map_err(|e| format!("bot guides: {e:?}"))?;
    server::spawn_background(&state);
    let listener = TcpListener::bind(bind)
        .await
        .map_err(|e| format!("bind {bind}: {e}"))?;
    tracing::info!("Blockbrief listening on http://{bind}");
    let stop_signal = shutdown_signal();
    let stopping = Arc::new(tokio::sync::Notify::new());
    let signalled = stopping.clone();
    let streams = state.stream.clone();
    let server = serve_http1(listener, app(state), async move {
        stop_signal.await;
        // Streams never finish by themselves: they end now, the other requests finish.
        streams.close();
        signalled.notify_one();
    });
    // Requests in flight get this long to finish; a client that never finishes cannot hold the
    // stop (work that must not be lost is in the database before it is answered).
    let deadline = async {
        stopping.notified().await;
        tokio::time::sleep(SHUTDOWN_GRACE).await;
        tracing::warn!("requests still in flight after {SHUTDOWN_GRACE:?}: stopping anyway");
    };
    tokio::select! {
        () = server => {},
        () = deadline => {},
    }
    Ok(())
}

/// HTTP/1.1 on every accepted connection until `stop`, then the connections' requests finish.
/// Written out instead of `axum::serve` because that one also detects HTTP/2 on each connection,
/// which held 11 KB more per open live stream (31.1 → 19.9 KB a stream in a bare axum SSE
/// server under `make bench-stream`'s clients); behind a proxy a server speaks HTTP/1.1 anyway.
async fn serve_http1(listener: TcpListener, app: Router, stop: impl Future<Output = ()>) {
    let graceful = GracefulShutdown::new();
    let http = http1::Builder::new();
    tokio::pin!(stop);
    loop {
        let (socket, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, or a connection reset before it was taken: wait a
                // moment instead of spinning, as axum::serve does.
                Err(error) => {
                    tracing::warn!("accept: {error}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = socket.set_nodelay(true);
        let app = app.clone();
        // The client's address, as `into_make_service_with_connect_info` hands it to extractors.
        let service = service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            app.clone().oneshot(request)
        });
        let connection = http.serve_connection(TokioIo::new(socket), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!("connection from {peer}: {error}");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Ctrl-C or SIGTERM: the server stops accepting and finishes the requests in flight. The
/// handlers are installed when this is called, before the server answers anything: installed on
/// the future's first poll instead, a SIGTERM that came before it (a busy machine, a quick stop)
/// met the default action and killed the process without finishing.
fn shutdown_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{SignalKind, signal};
        [SignalKind::interrupt(), SignalKind::terminate()].map(|kind| signal(kind).ok())
    };
    async move {
        #[cfg(unix)]
        {
            let [interrupt, terminate] = signals;
            let received = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! { () = received(interrupt) => {}, () = received(terminate) => {} }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("shutting down");
    }
}
