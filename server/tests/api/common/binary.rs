//! The server binary as an operator runs it, on a loopback port: killed when dropped (also when a
//! test panics).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tokio::net::TcpStream;

use super::free_port;

pub struct Binary {
    pub child: Child,
    pub port: u16,
}

impl Binary {
    /// Starts the binary with its data under `dir` (SQLite unless `env` names a
    /// `DATABASE_URL`) and `env` on top, and waits until it listens.
    pub async fn start(dir: &Path, env: &[(&str, &str)]) -> Self {
        let port = free_port();
        let mut command = Command::new(env!("CARGO_BIN_EXE_blockbrief"));
        command
            .env("BIND_ADDR", format!("127.0.0.1:{port}"))
            .env("DATA_DIR", dir.join("data"))
            .env("WEB_DIR", dir.join("no-web"))
            .env("PUBLIC_URL", format!("http://127.0.0.1:{port}"))
            .env("DATABASE_URL", "")
            .env("RUST_LOG", "warn");
        for (name, value) in env {
            command.env(name, value);
        }
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("server starts");
        // Owned before waiting, so a server that never listens is still killed and reaped.
        let running = Self { child, port };
        for _ in 0..600 {
            if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return running;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server did not listen");
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// `kill -9`, and reaped.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
