//! What the targets that go through the server share: one server state over a throw-away SQLite
//! database and upload folder, made once per fuzzing process.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use server::AppState;
use server::config::Config;
use server::platform::{OsRandom, SystemClock};
use tokio::runtime::Runtime;

pub struct Server {
    pub runtime: Runtime,
    pub state: AppState,
    /// Where uploads are stored (the local store's folder).
    pub uploads: PathBuf,
    _dir: tempfile::TempDir,
}

pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let dir = tempfile::tempdir().expect("a temporary folder");
        let config = Config::embedded(dir.path().to_path_buf());
        let uploads = dir.path().join("uploads");
        let state = runtime.block_on(async {
            let db = server::open_database(&config)
                .await
                .expect("the database opens and migrates");
            AppState::new(config, db, Arc::new(SystemClock), Arc::new(OsRandom)).expect("state")
        });
        Server {
            runtime,
            state,
            uploads,
            _dir: dir,
        }
    })
}

/// Every file under `dir`, however deep.
pub fn files_under(dir: &std::path::Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| {
            let path = e.path();
            if path.is_dir() {
                files_under(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}
