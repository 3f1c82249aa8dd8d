//! Times the engine stages of `performance.md` over synthetic ledgers, in CPU time (user + sys
//! of the whole process, all threads) and wall time, with page faults and peak resident memory:
//!
//! `cargo run --release -p core-domain --features testkit --example engine_scale -- [ROWS...]`
//!
//! Stages: effective rows, FIFO, custody allocation, integrity rows and the IRPF computation of
//! every year (one report per year with an item). "engine" is FIFO + custody + IRPF, the figure
//! the target of `performance.md` names. CPU time is read from `/proc/self/stat` (10 ms ticks),
//! the peaks from `/proc/self/status` (`VmHWM`, reset through `/proc/self/clear_refs` before the
//! stages, so the "stages peak" includes the resident input and market but not the generator's
//! transient memory). With `ROWS` omitted it measures 100k and 1M. `RUNS=n` repeats the stages
//! and reports the fastest run of each. Linux only.
#![allow(clippy::print_stdout)] // A measurement tool: its output is the point.
#![allow(
    clippy::disallowed_methods,
    reason = "a measurement tool reads its knobs from the environment"
)]

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use core_domain::custody::allocate;
use core_domain::effective::engine_input_owned;
use core_domain::engine::EngineInput;
use core_domain::fifo::{self, EngineSettings};
use core_domain::irpf::{IrpfComputation, IrpfInput, IrpfSettings};
use core_domain::quality::integrity_rows;
use core_domain::testkit::synthetic::synthetic;

/// FNV-1a over written text.
struct Digest {
    hash: u64,
    len: u64,
}

impl Default for Digest {
    fn default() -> Self {
        Self {
            hash: 0xcbf2_9ce4_8422_2325,
            len: 0,
        }
    }
}

impl std::fmt::Write for Digest {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for byte in s.bytes() {
            self.hash = (self.hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
        self.len += s.len() as u64;
        Ok(())
    }
}

/// CPU time (user, sys) and minor faults of the process so far.
#[derive(Clone, Copy, Default)]
struct Usage {
    user: Duration,
    sys: Duration,
    faults: u64,
    wall: Option<Instant>,
}

fn usage() -> Usage {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesised command name: state is field 3; minflt 10, utime 14, stime 15.
    let tail = stat.rsplit_once(')').map_or("", |(_, tail)| tail);
    let fields: Vec<&str> = tail.split_whitespace().collect();
    let field = |n: usize| -> u64 { fields.get(n - 3).and_then(|f| f.parse().ok()).unwrap_or(0) };
    // Clock ticks are 100 Hz on every Linux this runs on.
    let ticks = |t: u64| Duration::from_millis(t * 10);
    Usage {
        user: ticks(field(14)),
        sys: ticks(field(15)),
        faults: field(10),
        wall: Some(Instant::now()),
    }
}

/// `VmHWM` and `VmRSS` in MiB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let read = |key: &str| -> u64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(key))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (read("VmHWM:"), read("VmRSS:"))
}

fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

#[derive(Clone, Copy, Default)]
struct Stage {
    cpu: Duration,
    user: Duration,
    sys: Duration,
    wall: Duration,
    faults: u64,
}

impl Stage {
    fn between(a: Usage, b: Usage) -> Self {
        let user = b.user.saturating_sub(a.user);
        let sys = b.sys.saturating_sub(a.sys);
        Self {
            cpu: user + sys,
            user,
            sys,
            wall: b
                .wall
                .zip(a.wall)
                .map_or(Duration::ZERO, |(b, a)| b.duration_since(a)),
            faults: b.faults.saturating_sub(a.faults),
        }
    }

    fn min(self, other: Self) -> Self {
        if other.cpu < self.cpu { other } else { self }
    }

    fn print(&self, name: &str) {
        println!(
            "  {name:<22} cpu {:>7.3} s (user {:>6.3} + sys {:>6.3})  wall {:>7.3} s  minflt {:>8}",
            self.cpu.as_secs_f64(),
            self.user.as_secs_f64(),
            self.sys.as_secs_f64(),
            self.wall.as_secs_f64(),
            self.faults,
        );
    }
}

const NAMES: [&str; 5] = [
    "effective rows",
    "fifo",
    "custody allocate",
    "integrity rows",
    "irpf all years",
];

/// One pass over every stage; returns the stage figures.
/// One pass over every stage after the effective rows; returns the stage figures (the first
/// slot, the effective rows, is left for the caller).
fn stages(
    input: &EngineInput,
    accounts: &[core_domain::Account],
    market: &core_domain::Market,
) -> [Stage; 5] {
    let settings = EngineSettings::default();
    let irpf_settings = IrpfSettings::default();
    let mut out = [Stage::default(); 5];
    let t1 = usage();
    let output = fifo::run(input, market, &settings).expect("engine runs");
    let t2 = usage();
    let rss2 = memory().1;
    let custody = allocate(input, &output, accounts, &[]).expect("custody runs");
    let t3 = usage();
    let rss3 = memory().1;
    let integrity = integrity_rows(input, &output, accounts, &custody).expect("quality runs");
    let t4 = usage();
    let rss4 = memory().1;
    let computation = IrpfComputation::new(IrpfInput {
        engine_input: input,
        output: &output,
        accounts,
        settings: &irpf_settings,
    })
    .expect("irpf prepares");
    let years: Vec<i32> = computation.by_year.keys().copied().collect();
    for year in &years {
        black_box(computation.year_report(*year).expect("irpf report"));
    }
    let t5 = usage();
    let rss5 = memory().1;
    if std::env::var_os("DIGEST").is_some() {
        // A digest of every output's Debug form, to check that an optimisation changed nothing.
        let mut sink = Digest::default();
        let _ = write!(sink, "{output:?}{custody:?}{integrity:?}");
        for year in &years {
            let _ = write!(sink, "{:?}", computation.year_report(*year));
        }
        println!("  digest {:016x} over {} bytes", sink.hash, sink.len);
    }
    println!(
        "  resident after fifo {rss2} MiB, custody {rss3} MiB, integrity {rss4} MiB, irpf all years {rss5} MiB"
    );
    println!(
        "  ({} lots, {} operations, {} slices, {} income, {} movements, {} relocations, {} integrity rows, {} years)",
        output.lots.len(),
        output.operations.len(),
        output.slices.len(),
        output.income.len(),
        custody.movements.len(),
        custody.relocations.len(),
        integrity.len(),
        years.len(),
    );
    for (slot, (a, b)) in out
        .iter_mut()
        .skip(1)
        .zip([(t1, t2), (t2, t3), (t3, t4), (t4, t5)])
    {
        *slot = Stage::between(a, b);
    }
    drop(computation);
    drop(integrity);
    drop(custody);
    drop(output);
    out
}

fn measure(rows: usize, runs: usize) -> Duration {
    let started = Instant::now();
    let mut ledger = synthetic(rows, 7);
    let market = ledger.market();
    ledger.prices = Vec::new();
    ledger.rates = Vec::new();
    println!(
        "{rows} rows: generated in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    reset_peak();
    let (_, base_rss) = memory();
    // The engine's input takes the imported rows by value (no copy), once; every run reads it.
    let t0 = usage();
    let input = engine_input_owned(std::mem::take(&mut ledger.rows), Vec::new(), &[]);
    let effective = Stage::between(t0, usage());
    let mut best: Option<[Stage; 5]> = None;
    for _ in 0..runs {
        let mut run = stages(&input, &ledger.accounts, &market);
        run[0] = effective;
        best = Some(match best {
            None => run,
            Some(previous) => {
                let mut merged = previous;
                for (slot, new) in merged.iter_mut().zip(run) {
                    *slot = slot.min(new);
                }
                merged
            }
        });
    }
    let best = best.unwrap_or_default();
    for (stage, name) in best.iter().zip(NAMES) {
        stage.print(name);
    }
    let engine = [best[1], best[2], best[4]];
    let cpu: Duration = engine.iter().map(|s| s.cpu).sum();
    let wall: Duration = engine.iter().map(|s| s.wall).sum();
    let all: Duration = best.iter().map(|s| s.cpu).sum();
    let (peak, _) = memory();
    println!(
        "  engine (fifo + custody + irpf): cpu {:.3} s, wall {:.3} s; all stages cpu {:.3} s",
        cpu.as_secs_f64(),
        wall.as_secs_f64(),
        all.as_secs_f64(),
    );
    println!(
        "  memory: resident before stages {base_rss} MiB (ledger rows + market), stages peak {peak} MiB (+{} MiB)",
        peak.saturating_sub(base_rss)
    );
    cpu
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100_000, 1_000_000]
    } else {
        sizes
    };
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1)
        .max(1);
    println!(
        "record sizes: EffectiveRow {} B, Lot {} B, Operation {} B, Slice {} B, IncomeReceipt {} B, RowValues {} B, Movement {} B, Relocation {} B, AuditRow {} B",
        size_of::<core_domain::engine::EffectiveRow>(),
        size_of::<core_domain::engine::Lot>(),
        size_of::<core_domain::engine::Operation>(),
        size_of::<core_domain::engine::Slice>(),
        size_of::<core_domain::engine::IncomeReceipt>(),
        size_of::<core_domain::valuation::RowValues>(),
        size_of::<core_domain::custody::Movement>(),
        size_of::<core_domain::custody::Relocation>(),
        size_of::<core_domain::irpf::report::AuditRow>(),
    );
    let mut engine = Vec::new();
    for rows in &sizes {
        engine.push((*rows, measure(*rows, runs)));
    }
    if let (Some((small, a)), Some((large, b))) = (engine.first(), engine.last())
        && small != large
        && !a.is_zero()
    {
        println!(
            "engine cpu ratio {large}/{small}: {:.2}",
            b.as_secs_f64() / a.as_secs_f64()
        );
    }
}
