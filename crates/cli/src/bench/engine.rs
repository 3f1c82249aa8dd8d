//! `cartera bench engine` (hidden): the harness runs it as a child process on an imported
//! ledger. It reads the ledger into memory once (timed as `load`), then times FIFO + custody +
//! the IRPF computation of every year over the in-memory ledger (`performance.md`, "engine"),
//! a warm-up and `--runs` times, and prints one JSON document with the run times and the
//! process's peak resident memory (`VmHWM`), which the harness reports as the engine's peak.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use core_domain::custody::allocate;
use core_domain::fifo::{self, EngineSettings};
use core_domain::irpf::{IrpfComputation, IrpfInput};
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
    let custody = allocate(&derived.input, &output, &derived.accounts, &derived.links)?;
    black_box(&custody);
    let computation = IrpfComputation::new(IrpfInput {
        engine_input: &derived.input,
        output: &output,
        accounts: &derived.accounts,
        settings: &derived.settings.irpf,
    })?;
    let years: Vec<i32> = computation.by_year.keys().copied().collect();
    for year in &years {
        black_box(computation.year_report(*year)?);
    }
    Ok(years.len())
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

pub(crate) fn run(ledger: Option<&Path>, args: &EngineArgs) -> Result<Outcome> {
    let (_, store) = open_existing(ledger)?;
    let started = Instant::now();
    let derived = Derived::load(&store).context("cannot read the ledger")?;
    let load = started.elapsed().as_secs_f64();
    let mut years = engine_pass(&derived)?; // warm-up
    let mut times = Vec::new();
    for _ in 0..args.runs.max(1) {
        let started = Instant::now();
        years = engine_pass(&derived)?;
        times.push(started.elapsed().as_secs_f64());
    }
    let document = serde_json::json!({
        "rows": derived.input.rows.len(),
        "years": years,
        "loadSeconds": load,
        "engineSeconds": times,
        "peakKib": peak_kib(),
    });
    println!("{document}");
    Ok(Outcome::Success)
}
