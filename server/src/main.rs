use std::net::SocketAddr;
use std::sync::Arc;

use server::config::{BotsAction, Command, Config};
use server::platform::{OsRandom, SystemClock};
use server::{AppState, app, bots, content, feedback, social};
use tracing_subscriber::EnvFilter;

// Many small allocations per request (JSON, query building): mimalloc handles them faster.
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
    let database = server::open_database(&config.database_url())
        .await
        .map_err(|e| format!("database: {e}"))?;
    match config.command.clone() {
        Some(Command::Feedback { limit }) => print_feedback(&database, limit).await,
        Some(Command::Import { source }) => {
            let state = new_state(config, database)?;
            let done = content::ingest::import(&state, &state.http, &source)
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
            let created = content::demo::generate(&state, items)
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
            social::moderation::run(&state, action)
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
        && content::demo::load_if_empty(&state)
            .await
            .map_err(|e| format!("demo content: {e}"))?
    {
        tracing::info!("loaded the demo content into the empty database");
    }
    // Every database has the bot guides (after the demo set, which loads only into an empty one).
    bots::guides::ensure(&state)
        .await
        .map_err(|e| format!("bot guides: {e:?}"))?;
    server::spawn_background(&state);
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|e| format!("bind {bind}: {e}"))?;
    tracing::info!("Blockbrief listening on http://{bind}");
    let stop_signal = shutdown_signal();
    let stopping = Arc::new(tokio::sync::Notify::new());
    let signalled = stopping.clone();
    let streams = state.stream.clone();
    let server = axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
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
        served = server => served.map_err(|e| format!("server: {e}")),
        () = deadline => Ok(()),
    }
}

const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

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
