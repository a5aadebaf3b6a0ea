//! The clock and the random source, injected so tests of expiry, windows and codes are
//! deterministic. Production uses the system clock and the operating system's CSPRNG.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use rand::RngCore;
use rand::rngs::OsRng;

pub trait Clock: Send + Sync {
    /// Unix time in seconds.
    fn now(&self) -> i64;
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

/// A clock that moves only when told to.
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(start: i64) -> Self {
        Self(AtomicI64::new(start))
    }

    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

pub trait Random: Send + Sync {
    fn fill(&self, bytes: &mut [u8]);

    /// A one-time code of `len` decimal digits, uniformly drawn (no modulo bias).
    fn digits(&self, len: usize) -> String {
        (0..len)
            .map(|_| {
                loop {
                    let mut b = [0u8; 1];
                    self.fill(&mut b);
                    // 250 is the largest multiple of 10 below 256: reject the rest.
                    if b[0] < 250 {
                        break char::from(b'0' + b[0] % 10);
                    }
                }
            })
            .collect()
    }

    /// `len` characters drawn uniformly from `alphabet` (at most 256 symbols).
    fn pick(&self, alphabet: &[u8], len: usize) -> String {
        let limit = 256 - 256 % alphabet.len();
        (0..len)
            .map(|_| {
                loop {
                    let mut b = [0u8; 1];
                    self.fill(&mut b);
                    if usize::from(b[0]) < limit {
                        break char::from(alphabet[usize::from(b[0]) % alphabet.len()]);
                    }
                }
            })
            .collect()
    }
}

pub struct OsRandom;

impl Random for OsRandom {
    fn fill(&self, bytes: &mut [u8]) {
        OsRng.fill_bytes(bytes);
    }
}

/// Secure random bytes, except that the next one-time code is the one a test chose.
#[derive(Default)]
pub struct ScriptedCodes(Mutex<Option<String>>);

impl ScriptedCodes {
    /// The next code drawn will be `code` (once); after that codes are random again.
    pub fn set_next(&self, code: &str) {
        if let Ok(mut next) = self.0.lock() {
            *next = Some(code.to_owned());
        }
    }
}

impl Random for ScriptedCodes {
    fn fill(&self, bytes: &mut [u8]) {
        OsRng.fill_bytes(bytes);
    }

    fn digits(&self, len: usize) -> String {
        let scripted = self.0.lock().ok().and_then(|mut next| next.take());
        scripted.unwrap_or_else(|| OsRandom.digits(len))
    }
}
