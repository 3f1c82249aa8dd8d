//! `cartera bench engine` (hidden): the harness runs it as a child process on an imported
//! ledger. It reads the ledger into memory once (timed as `load`), then times FIFO + custody +
//! the IRPF computation of every year over the in-memory ledger (`performance.md`, "engine"),
//! a warm-up and `--runs` times, and prints one JSON document with the run times and the
//! process's peak resident memory (`VmHWM`), which the harness reports as the engine's peak.

use crate::output::outln;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use core_domain::fifo::{self, EngineSettings};
use core_domain::irpf::IrpfInput;
use core_domain::pipeline::custody_and_year_reports;
use use_cases::queries::Derived;

use crate::Outcome;
use crate::session::open_existing;

#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    /// Timed runs after the warm-up.
    #[arg(long, default_value_t = 5)]
    runs: u32,
}

/// One engine pass; returns the number of year reports built.
fn engine_pass(derived: &Derived) -> Result<usize> {
    let settings = EngineSettings {
        fiscal_timezone: derived.settings.fiscal_timezone,
        non_currency_virtual_assets: derived
            .settings
            .irpf
            .non_currency_virtual_assets
            .iter()
            .copied()
            .collect(),
    };
    let output = fifo::run(&derived.input, &derived.market, &settings)?;
    let mut years = 0usize;
    let (custody, reports) = custody_and_year_reports(
        IrpfInput {
            engine_input: &derived.input,
            output: &output,
            accounts: &derived.accounts,
            settings: &derived.settings.irpf,
        },
        &derived.links,
        None,
        &mut |report| {
            black_box(report);
            years += 1;
        },
    );
    black_box(custody?);
    reports?;
    Ok(years)
}

/// A writer that only counts the bytes written to it.
struct ByteCount(u64);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `VmHWM` of this process in KiB (0 where `/proc` is absent).
pub(crate) fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
        .unwrap_or(0)
}

/// User + system CPU time of this process so far, in seconds, from `/proc/self/stat` (clock
/// ticks of 10 ms; 0 where `/proc` is absent).
pub(crate) fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name: utime is field 14, stime 15.
    let tail = stat.rsplit_once(')').map_or("", |(_, tail)| tail);
    let fields: Vec<&str> = tail.split_whitespace().collect();
    let ticks = |n: usize| -> u64 { fields.get(n - 3).and_then(|f| f.parse().ok()).unwrap_or(0) };
    #[allow(clippy::cast_precision_loss, reason = "seconds for display")]
    let seconds = (ticks(14) + ticks(15)) as f64 / 100.0;
    seconds
}

pub(crate) fn run(ledger: Option<&Path>, args: &EngineArgs) -> Result<Outcome> {
    let (_, store) = open_existing(ledger)?;
    let started = Instant::now();
    let mut derived = Derived::load(&store).context("cannot read the ledger")?;
    let load = started.elapsed().as_secs_f64();
    // The passes read only the loaded ledger: the store closes, and with it the file's memory
    // map (its pages counted in the resident size while mapped, ~240 MiB at 1M).
    drop(store);
    // The timed passes compute their own output: the one the load computed would only double
    // the engine's share of the peak.
    derived.output = core_domain::engine::EngineOutput::default();
    let mut years = engine_pass(&derived)?; // warm-up
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    for _ in 0..args.runs.max(1) {
        let started = Instant::now();
        let cpu_before = cpu_seconds();
        years = engine_pass(&derived)?;
        times.push(started.elapsed().as_secs_f64());
        cpu.push(cpu_seconds() - cpu_before);
    }
    let document = serde_json::json!({
        "rows": derived.input.rows.len(),
        "years": years,
        "loadSeconds": load,
        "engineSeconds": times,
        "engineCpuSeconds": cpu,
        "peakKib": peak_kib(),
    });
    outln!("{document}");
    Ok(Outcome::Success)
}

#[derive(Debug, Args)]
pub(crate) struct PhasesArgs {
    /// The fiscal year of the report.
    #[arg(long, default_value_t = 2025)]
    year: i32,
}

/// `cartera bench phases` (hidden): where the time of `cartera tax YEAR --json` goes, phase by
/// phase, in one process: opening the ledger, reading the rows, the derived state (rows,
/// prices and rates read, engine run), the report and its DTO, the JSON text; then the full
/// market that only the valuation tools read.
pub(crate) fn phases(ledger: Option<&Path>, args: &PhasesArgs) -> Result<Outcome> {
    use use_cases::ports::LedgerRead as _;
    use use_cases::queries::{ReadUseCases as _, TaxReportRequest};
    let mut marks: Vec<(&str, f64)> = Vec::new();
    let mut clock = Instant::now();
    let mut mark = |name: &'static str, marks: &mut Vec<(&str, f64)>| {
        marks.push((name, clock.elapsed().as_secs_f64()));
        clock = Instant::now();
    };
    let (_, store) = open_existing(ledger)?;
    mark("open the ledger", &mut marks);
    let snapshot = store.snapshot()?;
    mark("read the rows (snapshot)", &mut marks);
    drop(snapshot);
    mark("drop the rows", &mut marks);
    let derived = Derived::load(&store).context("cannot read the ledger")?;
    mark(
        "derived state (rows again, prices, rates, engine)",
        &mut marks,
    );
    drop(derived);
    let queries =
        use_cases::queries::LedgerQueries::new(store, crate::session::CliClock::from_env()?);
    let request = TaxReportRequest {
        year: args.year,
        with_year_end_holdings: false,
    };
    queries.derived()?;
    mark("derived state again (warm file cache)", &mut marks);
    let report = queries.get_spanish_tax_report(&request)?;
    mark("IRPF report and DTO", &mut marks);
    // Counted, not kept: the command streams the text to stdout, and a 100 MB string growing
    // by doubling would time its own copies and page faults.
    let mut text = ByteCount(0);
    serde_json::to_writer_pretty(&mut text, &report)?;
    mark("JSON text", &mut marks);
    // Not on the report's path: what the valuation and analytics tools read in addition (on
    // their first call it is read while the engine runs; here alone, on one core).
    queries.derived_full()?;
    mark(
        "full market (every close; valuation tools only)",
        &mut marks,
    );
    let document = serde_json::json!({
        "phases": marks.iter().map(|(n, s)| serde_json::json!({"phase": n, "seconds": s})).collect::<Vec<_>>(),
        "jsonBytes": text.0,
        "peakKib": peak_kib(),
    });
    outln!("{}", serde_json::to_string_pretty(&document)?);
    Ok(Outcome::Success)
}
