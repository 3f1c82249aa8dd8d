//! Running the binary and reading a ledger back.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use core_domain::ledger::{AssetAmount, StatedAmount};
use core_domain::{Account, SpotRow, TxType};
use ledger_sqlite::SqliteLedger;
use use_cases::ports::LedgerRead;

/// The `cartera` executable built for this test run.
pub(crate) fn cartera() -> Command {
    let mut command = Command::new(binary());
    command.env_remove("CARTERA_LEDGER");
    // English unless a test asks otherwise: the default language follows the locale.
    command.env_remove("LC_ALL").env("LANG", "C");
    command
}

/// The binary under test. Run as root, the storage tests start it as an unprivileged user
/// (chmod does not bind root), who cannot enter a checkout inside a private folder (a clone in a
/// `mktemp -d`, mode 0700): then a copy in a folder anyone can enter is run instead.
fn binary() -> &'static Path {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    static BINARY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BINARY.get_or_init(|| {
        let built = PathBuf::from(env!("CARGO_BIN_EXE_cartera"));
        let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
        let enterable = built
            .ancestors()
            .skip(1)
            .all(|dir| std::fs::metadata(dir).is_ok_and(|m| m.mode() & 0o001 != 0));
        if !root || enterable {
            return built;
        }
        let dir = std::env::temp_dir().join(format!("cartera-it-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder for the binary's copy");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let copy = dir.join("cartera");
        std::fs::copy(&built, &copy).expect("the binary copies");
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
        copy
    })
}

/// Runs `cartera --ledger <ledger> <args>` and returns its output.
pub(crate) fn run(ledger: &Path, args: &[&str]) -> Output {
    cartera()
        .arg("--ledger")
        .arg(ledger)
        .args(args)
        .output()
        .expect("cartera runs")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A file of the importers' example data (`imports.md` §2, §3).
pub(crate) fn example(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../importers/test_data")
        .join(relative)
}

/// The shared data folder (`../shared/data` beside the repository), when present.
#[allow(
    clippy::disallowed_methods,
    reason = "tests may point at the shared data elsewhere"
)]
pub(crate) fn shared_data() -> Option<PathBuf> {
    let folder = std::env::var_os("CARTERA_SHARED_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    if folder.is_dir() {
        Some(folder)
    } else {
        eprintln!("skipped: shared data folder {} is absent", folder.display());
        None
    }
}

fn side(side: Option<AssetAmount>) -> String {
    side.map(|s| format!("{} {}", core_domain::num::quantity(s.quantity), s.asset))
        .unwrap_or_default()
}

fn stated(value: Option<StatedAmount>) -> String {
    value
        .map(|v| format!("{} {}", core_domain::num::quantity(v.amount), v.currency))
        .unwrap_or_default()
}

/// One stored spot row as a line: `seq account instant TYPE in | out | fee | value | group`.
pub(crate) fn render_row(row: &SpotRow, accounts: &[Account]) -> String {
    let account = accounts
        .iter()
        .find(|a| a.id == row.account_id)
        .map_or("?", |a| a.name.as_str());
    let tx_type = match &row.tx_type {
        TxType::Spot(t) => t.as_str().to_owned(),
        TxType::Unknown { source_label } => format!("Unknown({source_label})"),
    };
    let fee = row
        .fee
        .map(|f| format!("{} {}", core_domain::num::quantity(f.quantity), f.asset))
        .unwrap_or_default();
    format!(
        "{} {account} {} {tx_type} in={} out={} fee={} value={} group={}",
        row.seq,
        row.instant,
        side(row.inflow),
        side(row.outflow),
        fee,
        stated(row.stated_value()),
        row.transfer_group_id.as_deref().unwrap_or(""),
    )
}

/// Every stored spot row, rendered, in ledger order.
pub(crate) fn stored_rows(ledger: &Path) -> Vec<String> {
    let store = SqliteLedger::open(ledger).expect("ledger opens");
    let accounts = store.accounts().expect("accounts");
    store
        .spot_rows()
        .expect("rows")
        .iter()
        .map(|row| render_row(row, &accounts))
        .collect()
}

/// The ledger version and the number of spot and futures rows.
pub(crate) fn counts(ledger: &Path) -> (u64, usize, usize) {
    let store = SqliteLedger::open(ledger).expect("ledger opens");
    (
        store.ledger_version().expect("version"),
        store.spot_rows().expect("rows").len(),
        store.futures_rows().expect("futures").len(),
    )
}

/// "Now" for the report commands of the tests: noon UTC on the last day of the demo's prices,
/// so that the portfolio is valued and every run prints the same bytes.
pub(crate) const TEST_NOW: &str = "2024-12-31T12:00:00Z";

/// A demo ledger built by `cartera demo --keep DIR` in a fresh temporary folder.
pub(crate) struct DemoLedger {
    /// Holds the folder for the life of the test.
    pub(crate) dir: tempfile::TempDir,
    /// `DIR/ledger.sqlite`.
    pub(crate) path: PathBuf,
}

impl DemoLedger {
    pub(crate) fn build() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let output = cartera()
            .arg("demo")
            .arg("--keep")
            .arg(dir.path())
            .output()
            .expect("cartera runs");
        assert!(output.status.success(), "demo failed: {}", stderr(&output));
        let path = dir.path().join("ledger.sqlite");
        Self { dir, path }
    }

    /// Runs a command on the demo ledger with the test clock.
    pub(crate) fn run(&self, args: &[&str]) -> Output {
        run_at(&self.path, args)
    }

    /// Runs a command that must succeed; returns its stdout.
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        assert!(
            output.status.success(),
            "cartera {args:?} failed ({:?}): {}",
            output.status.code(),
            stderr(&output)
        );
        stdout(&output)
    }

    /// Runs a command that must succeed with `--json`; returns the parsed document.
    pub(crate) fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.ok(&all)).expect("--json prints one JSON document")
    }

    /// Replaces the temporary folder in a text by `[DIR]`.
    pub(crate) fn redact(&self, text: &str) -> String {
        text.replace(&self.dir.path().display().to_string(), "[DIR]")
    }
}

/// Runs `cartera --ledger <ledger> <args>` with `CARTERA_NOW` = [`TEST_NOW`].
pub(crate) fn run_at(ledger: &Path, args: &[&str]) -> Output {
    cartera()
        .env("CARTERA_NOW", TEST_NOW)
        .arg("--ledger")
        .arg(ledger)
        .args(args)
        .output()
        .expect("cartera runs")
}
