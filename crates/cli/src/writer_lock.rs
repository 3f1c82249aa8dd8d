//! One cartera writer per ledger at a time: an exclusive `flock` on the ledger file, held for
//! the whole writing command. SQLite's own locks stay as they are (readers never take this
//! one, so they keep reading the last committed state through the WAL). A second writer waits
//! for the first, saying so on stderr, up to [`WAIT_BOUND`] (or `$CARTERA_LOCK_WAIT` seconds);
//! past it, it fails naming the process that holds the lock (from `/proc/locks` on Linux).

use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::output::diag;
use crate::session::fail_with;

/// How long a second writer waits for the first by default.
pub(crate) const WAIT_BOUND: Duration = Duration::from_secs(120);

/// How often a waiting writer tries again.
const POLL: Duration = Duration::from_millis(50);

/// The held lock; released when dropped (or when the process ends, however it ends).
#[derive(Debug)]
pub(crate) struct WriterLock {
    _file: File,
}

/// The wait bound of this run: `$CARTERA_LOCK_WAIT` seconds, else [`WAIT_BOUND`].
#[allow(
    clippy::disallowed_methods,
    reason = "the binary reads its configuration from the environment"
)]
fn wait_bound() -> Duration {
    std::env::var("CARTERA_LOCK_WAIT")
        .ok()
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
        .map_or(WAIT_BOUND, Duration::from_secs_f64)
}

/// Takes the writer lock of an existing ledger file, waiting for another writer up to the bound.
pub(crate) fn acquire(ledger: &Path) -> Result<WriterLock> {
    let file = match File::open(ledger) {
        Ok(file) => file,
        Err(error) => {
            return fail_with(
                "ledger-unavailable",
                format!("cannot open the ledger {}: {error}", ledger.display()),
            );
        }
    };
    let bound = wait_bound();
    let started = Instant::now();
    let mut announced = false;
    loop {
        match try_lock(&file) {
            Ok(true) => return Ok(WriterLock { _file: file }),
            Ok(false) => {}
            Err(error) => {
                return fail_with(
                    "ledger-unavailable",
                    format!("cannot lock the ledger {}: {error}", ledger.display()),
                );
            }
        }
        let holder = holder(&file);
        if started.elapsed() >= bound {
            return fail_with(
                "ledger-busy",
                format!(
                    "the ledger {} is still being written by {holder} after waiting {} s; try \
                     again once it has finished",
                    ledger.display(),
                    bound.as_secs()
                ),
            );
        }
        if !announced {
            diag!(
                "cartera: waiting for the import in progress on {} to finish: the ledger is held \
                 by {holder}; waiting up to {} s",
                ledger.display(),
                bound.as_secs()
            );
            announced = true;
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use rustix::fs::{FlockOperation, flock};
    match flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(false),
        Err(error) => Err(error.into()),
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &File) -> std::io::Result<bool> {
    Ok(true)
}

/// "process 1234 (`cartera import big.csv`)", from `/proc/locks`; else "another cartera
/// process".
fn holder(file: &File) -> String {
    holder_pid(file).map_or_else(
        || "another cartera process".to_owned(),
        |pid| {
            let command = std::fs::read(format!("/proc/{pid}/cmdline"))
                .ok()
                .map(|bytes| {
                    bytes
                        .split(|b| *b == 0)
                        .filter(|part| !part.is_empty())
                        .map(|part| String::from_utf8_lossy(part).into_owned())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .filter(|text| !text.is_empty());
            match command {
                Some(command) => format!("process {pid} (`{command}`)"),
                None => format!("process {pid}"),
            }
        },
    )
}

#[cfg(unix)]
fn holder_pid(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt as _;
    let inode = file.metadata().ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
    locks.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (kind, pid, device) = (fields.get(1)?, fields.get(4)?, fields.get(5)?);
        let lock_inode = device.rsplit(':').next()?.parse::<u64>().ok()?;
        (*kind == "FLOCK" && lock_inode == inode)
            .then(|| pid.parse().ok())
            .flatten()
    })
}

#[cfg(not(unix))]
fn holder_pid(_file: &File) -> Option<u32> {
    None
}
