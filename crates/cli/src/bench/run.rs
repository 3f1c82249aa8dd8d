//! `cartera bench run`: the harness of `performance.md`. Per size it generates (or reuses) the
//! synthetic ledger under `<data>/<size>-s<seed>/`, imports it once into a reference SQLite
//! ledger, then measures each figure as the median of `--runs` runs after a warm-up:
//!
//! - `import`: `cartera import transactions.csv` into a fresh ledger, rows per second;
//! - `engine`: FIFO + custody + all-years IRPF in one process over the in-memory ledger
//!   (`cartera bench engine`), seconds; `engine peak memory` is that process's `VmHWM`;
//! - `report`: a fresh `cartera tax YEAR --json` process, wall seconds; `report peak memory` its
//!   `VmHWM` (read by the process itself when `CARTERA_BENCH_PEAK` is set);
//! - `tools`: every one of the 25 tools in one child process (`cartera bench tools`): p50 and
//!   p99 per tool of the first call on a fresh host (cold), of repeated calls (warm, result
//!   cache hits) and of calls with the derived state warm but an empty result cache
//!   (uncached); `tools … p99` is the maximum of the per-tool p99s;
//! - `mcp`: 10,000 sequential `tools/call` requests (the 25 tools round robin, the arguments of
//!   the tools figure) to one `cartera mcp` process, wall seconds from the first request to the
//!   last response;
//! - `catalogue`: the characters (Unicode scalar values) of the `tools/list` payload of the
//!   metered profile and of the local profile with a 32,768-token context window.
//!
//! Every child is this same executable. Results go to a JSON file (one object per figure) and to
//! a table on stdout.

use crate::output::{diag, outln};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use comfy_table::{Cell, CellAlignment, Table};
use serde::Serialize;

use super::{generator, parse_seed, parse_size, size_label};
use crate::session::fail;
use crate::{Outcome, UsageError};

#[derive(Clone, Debug, Args)]
pub(crate) struct RunArgs {
    /// Comma-separated sizes (transactions): 10k, 100k, 1m or plain numbers.
    #[arg(long, value_name = "LIST", default_value = "10k,100k,1m")]
    sizes: String,
    /// Where to write the results JSON.
    #[arg(long, value_name = "FILE", default_value = "target/bench/results.json")]
    out: PathBuf,
    /// Where the generated files and the reference ledgers live (reused between runs).
    #[arg(long, value_name = "DIR", default_value = "target/bench/data")]
    data: PathBuf,
    /// Timed runs per figure after one warm-up (at least 5 for a publishable median).
    #[arg(long, default_value_t = 5)]
    runs: u32,
    /// Seed of the generated ledgers.
    #[arg(long, default_value = "1")]
    seed: String,
    /// Only these figures (comma-separated: import, engine, report, tools, mcp, catalogue); all
    /// by default.
    #[arg(long, value_name = "LIST")]
    only: Option<String>,
}

/// One row of the results.
#[derive(Clone, Debug, Serialize)]
struct Figure {
    name: String,
    size: String,
    median: Option<f64>,
    /// 99th percentile (nearest rank), for the latency figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    p99: Option<f64>,
    min: Option<f64>,
    max: Option<f64>,
    unit: String,
    /// The target of `performance.md`, where one applies, as written there.
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    /// Why a figure has no number, or what it depends on.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

impl Figure {
    fn measured(name: &str, size: u64, samples: &[f64], unit: &str) -> Self {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = if sorted.is_empty() {
            None
        } else if sorted.len() % 2 == 1 {
            sorted.get(sorted.len() / 2).copied()
        } else {
            let upper = sorted.len() / 2;
            match (sorted.get(upper - 1), sorted.get(upper)) {
                (Some(a), Some(b)) => Some(f64::midpoint(*a, *b)),
                _ => None,
            }
        };
        Self {
            name: name.to_owned(),
            size: size_label(size),
            median,
            p99: None,
            min: sorted.first().copied(),
            max: sorted.last().copied(),
            unit: unit.to_owned(),
            target: target(name, size),
            note: None,
        }
    }
}

/// The target of `performance.md` for a figure at a size.
fn target(name: &str, size: u64) -> Option<String> {
    let text = match (name, size) {
        ("engine", 1_000_000) => "<= 1.0 s",
        ("engine peak memory", 1_000_000) => "<= 600 MB",
        ("import", 1_000_000) => ">= 250,000 rows/s",
        ("report", 100_000) => "<= 0.3 s",
        ("report", 1_000_000) => "<= 2.5 s",
        ("tools warm p99", _) => "<= 2 ms every tool at 100k",
        ("tools cold p99", _) => "<= 300 ms every tool at 100k",
        ("mcp 10,000 calls", _) => "<= 5 s",
        ("catalogue metered", _) => "<= 24,000 chars",
        ("catalogue local", _) => "<= 12,000 chars",
        _ => return None,
    };
    Some(text.to_owned())
}

/// This executable, run as a child.
fn cartera() -> Result<Command> {
    let exe = std::env::current_exe().context("cannot find the cartera executable")?;
    Ok(Command::new(exe))
}

/// Runs a child to completion; fails with its stderr when it fails.
fn run_child(command: &mut Command, what: &str) -> Result<(f64, String, String)> {
    let started = Instant::now();
    let output = command
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {what}"))?;
    let wall = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        return fail(format!("{what} failed ({}): {stderr}", output.status));
    }
    Ok((wall, stdout, stderr))
}

/// Free space of the file system holding `dir`, in bytes, from `df -Pk` (None if unknown).
fn free_bytes(dir: &Path) -> Option<u64> {
    let output = Command::new("df").arg("-Pk").arg(dir).output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().nth(1)?;
    let available: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
    Some(available * 1024)
}

/// Bytes a size needs on disk: the CSV, the price file, the reference ledger and one scratch
/// ledger for the import runs (measured ratios with a safety margin).
fn needed_bytes(size: u64) -> u64 {
    let assets = (size / 500).clamp(20, 2000);
    let csv = size * 110;
    let prices = assets * 4383 * 32;
    let ledger = size * 900 + assets * 4383 * 80;
    csv + prices + 2 * ledger
}

/// The generated files of a size, generated unless a previous run left them complete.
fn ensure_data(data: &Path, size: u64, seed: u64) -> Result<PathBuf> {
    let dir = data.join(format!("{}-s{seed}", size_label(size)));
    let stamp = dir.join("generated.stamp");
    let expected = format!("{size} {seed} {}\n", env!("CARGO_PKG_VERSION"));
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(expected.as_str()) {
        return Ok(dir);
    }
    diag!(
        "bench: generating {} transactions in {}",
        size,
        dir.display()
    );
    generator::generate(size, seed, &dir, generator::Format::Generic)?;
    std::fs::write(&stamp, expected)?;
    Ok(dir)
}

/// The reference ledger of a size: the transactions, the rates and the prices imported once.
fn ensure_ledger(dir: &Path) -> Result<PathBuf> {
    let ledger = dir.join("ledger.sqlite");
    let stamp = dir.join("ledger.stamp");
    if stamp.is_file() && ledger.is_file() {
        return Ok(ledger);
    }
    let _ = std::fs::remove_file(&ledger);
    diag!("bench: importing the reference ledger {}", ledger.display());
    for (args, what) in [
        (
            vec!["import", "transactions.csv", "--format", "generic"],
            "import",
        ),
        (
            vec!["rates", "import", "eurofxref-hist.csv"],
            "rates import",
        ),
        (
            vec!["prices", "import", "prices.csv", "--format", "daily"],
            "prices import",
        ),
    ] {
        let (wall, _, _) = run_child(
            cartera()?
                .current_dir(dir)
                .arg("--ledger")
                .arg(&ledger)
                .args(&args),
            what,
        )?;
        diag!("bench:   {what} in {wall:.1} s");
    }
    std::fs::write(&stamp, "ok\n")?;
    Ok(ledger)
}

fn measure_import(dir: &Path, size: u64, runs: u32) -> Result<Figure> {
    let scratch = dir.join("import-scratch.sqlite");
    let mut samples = Vec::new();
    for run in 0..=runs {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", scratch.display()));
        }
        let (wall, _, _) = run_child(
            cartera()?
                .current_dir(dir)
                .arg("--ledger")
                .arg(&scratch)
                .args(["import", "transactions.csv", "--format", "generic"]),
            "cartera import",
        )?;
        if run > 0 {
            #[allow(clippy::cast_precision_loss, reason = "a rate for display")]
            samples.push(size as f64 / wall);
        }
    }
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", scratch.display()));
    }
    Ok(Figure::measured("import", size, &samples, "rows/s"))
}

fn measure_engine(ledger: &Path, size: u64, runs: u32) -> Result<Vec<Figure>> {
    let (_, stdout, _) = run_child(
        cartera()?
            .arg("--ledger")
            .arg(ledger)
            .args(["bench", "engine", "--runs"])
            .arg(runs.to_string()),
        "cartera bench engine",
    )?;
    let document: serde_json::Value =
        serde_json::from_str(stdout.trim()).context("cannot read the engine figures")?;
    let times: Vec<f64> = document["engineSeconds"]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
        .unwrap_or_default();
    let cpu: Vec<f64> = document["engineCpuSeconds"]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
        .unwrap_or_default();
    let mut cpu_figure = Figure::measured("engine cpu (user + sys)", size, &cpu, "s");
    cpu_figure.note = Some("CPU time of the same runs, 10 ms ticks".to_owned());
    let load = document["loadSeconds"].as_f64().unwrap_or(0.0);
    #[allow(clippy::cast_precision_loss, reason = "MiB for display")]
    let peak = document["peakKib"].as_u64().unwrap_or(0) as f64 / 1024.0;
    let mut load_figure = Figure::measured("ledger load (SQLite to memory)", size, &[load], "s");
    load_figure.note = Some("one run, in the engine process".to_owned());
    let mut peak_figure = Figure::measured("engine peak memory", size, &[peak], "MiB");
    peak_figure.note = Some(
        "VmHWM of the engine process, loaded ledger included (store closed after the load)"
            .to_owned(),
    );
    Ok(vec![
        Figure::measured("engine", size, &times, "s"),
        cpu_figure,
        load_figure,
        peak_figure,
    ])
}

/// The last fiscal year of the generated ledgers.
const REPORT_YEAR: &str = "2025";

fn measure_report(ledger: &Path, size: u64, runs: u32) -> Result<Vec<Figure>> {
    let mut samples = Vec::new();
    for run in 0..=runs {
        let (wall, stdout, _) = run_child(
            cartera()?
                .arg("--ledger")
                .arg(ledger)
                .args(["tax", REPORT_YEAR, "--json"])
                .env("CARTERA_NOW", BENCH_NOW),
            "cartera tax --json",
        )?;
        if stdout.is_empty() {
            return fail("cartera tax --json printed nothing");
        }
        if run > 0 {
            samples.push(wall);
        }
    }
    // The CPU time of each run too: on a loaded machine wall time includes waiting for a core.
    let mut cpu = Vec::new();
    let mut stderr = String::new();
    for _ in 0..runs {
        let (_, _, text) = run_child(
            cartera()?
                .arg("--ledger")
                .arg(ledger)
                .args(["tax", REPORT_YEAR, "--json"])
                .env("CARTERA_NOW", BENCH_NOW)
                .env(super::PEAK_VARIABLE, "1"),
            "cartera tax --json",
        )?;
        if let Some(seconds) = text
            .lines()
            .find_map(|l| l.strip_prefix(super::CPU_PREFIX))
            .and_then(|s| s.trim().parse::<f64>().ok())
        {
            cpu.push(seconds);
        }
        stderr = text;
    }
    #[allow(clippy::cast_precision_loss, reason = "MiB for display")]
    let peak = stderr
        .lines()
        .find_map(|l| l.strip_prefix(super::PEAK_PREFIX))
        .and_then(|kib| kib.trim().parse::<u64>().ok())
        .map_or(0.0, |kib| kib as f64 / 1024.0);
    let mut peak_figure = Figure::measured("report peak memory", size, &[peak], "MiB");
    peak_figure.note = Some("VmHWM of the `cartera tax` process".to_owned());
    let mut cpu_figure = Figure::measured("report cpu (user + sys)", size, &cpu, "s");
    cpu_figure.note = Some("CPU time of the same process, 10 ms ticks".to_owned());
    Ok(vec![
        Figure::measured("report", size, &samples, "s"),
        cpu_figure,
        peak_figure,
    ])
}

/// The figures `--only` can name.
const FIGURES: [&str; 6] = ["import", "engine", "report", "tools", "mcp", "catalogue"];

/// The clock of every child that computes valuations (a fixed "now": same inputs, same work).
const BENCH_NOW: &str = "2026-06-30T12:00:00Z";

/// The nearest-rank percentile `q` (0 to 1) of `samples`.
fn percentile(samples: &[f64], q: f64) -> Option<f64> {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a rank among at most millions of samples"
    )]
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.max(1) - 1).copied()
}

/// A latency figure: median (p50), p99, min and max of the samples.
fn latency(name: &str, size: u64, samples: &[f64], note: String) -> Figure {
    let mut figure = Figure::measured(name, size, samples, "ms");
    figure.p99 = percentile(samples, 0.99);
    figure.note = Some(note);
    figure
}

/// The arguments the tools child chose: (tool, arguments) in canonical order.
type ToolArguments = Vec<(String, serde_json::Value)>;

fn read_arguments(document: &serde_json::Value) -> ToolArguments {
    document["tools"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter_map(|row| {
                    Some((row["tool"].as_str()?.to_owned(), row["arguments"].clone()))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The tool arguments alone (when the tools figure is not measured but mcp is).
fn tool_arguments(ledger: &Path) -> Result<ToolArguments> {
    let (_, stdout, _) = run_child(
        cartera()?
            .arg("--ledger")
            .arg(ledger)
            .args(["bench", "tools", "--args-only", "--year", REPORT_YEAR])
            .env("CARTERA_NOW", BENCH_NOW),
        "cartera bench tools --args-only",
    )?;
    let document: serde_json::Value =
        serde_json::from_str(stdout.trim()).context("cannot read the tool arguments")?;
    Ok(read_arguments(&document))
}

fn samples_of(row: &serde_json::Value, key: &str) -> Vec<f64> {
    row[key]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
        .unwrap_or_default()
}

fn measure_tools(ledger: &Path, size: u64, runs: u32) -> Result<(Vec<Figure>, ToolArguments)> {
    let (_, stdout, _) = run_child(
        cartera()?
            .arg("--ledger")
            .arg(ledger)
            .args(["bench", "tools", "--year", REPORT_YEAR, "--cold"])
            .arg(runs.max(5).to_string())
            .env("CARTERA_NOW", BENCH_NOW),
        "cartera bench tools",
    )?;
    let document: serde_json::Value =
        serde_json::from_str(stdout.trim()).context("cannot read the tool figures")?;
    let rows = document["tools"].as_array().cloned().unwrap_or_default();
    let mut figures = Vec::new();
    let mut worst: Vec<(f64, String)> = vec![(0.0, String::new()); 3];
    let modes = [
        (
            "cold",
            "coldMs",
            "first call on a fresh host: derived state recomputed",
        ),
        (
            "warm",
            "warmMs",
            "repeated calls on one host: result cache hits",
        ),
        (
            "warm uncached",
            "uncachedMs",
            "derived state warm, empty result cache each call",
        ),
    ];
    for row in &rows {
        let tool = row["tool"].as_str().unwrap_or("?");
        let outcome = format!(
            "{} ({} chars); arguments {}",
            row["kind"].as_str().unwrap_or("?"),
            row["payloadChars"],
            row["arguments"]
        );
        for (index, (mode, key, what)) in modes.iter().enumerate() {
            let samples = samples_of(row, key);
            let figure = latency(
                &format!("tool {tool} {mode}"),
                size,
                &samples,
                if index == 0 {
                    format!("{what}; {} samples; {outcome}", samples.len())
                } else {
                    format!("{what}; {} samples", samples.len())
                },
            );
            if let (Some(p99), Some(slot)) = (figure.p99, worst.get_mut(index))
                && p99 >= slot.0
            {
                *slot = (p99, tool.to_owned());
            }
            figures.push(figure);
        }
    }
    let mut summaries = Vec::new();
    for (index, (name, mode)) in [
        ("tools cold p99", "cold"),
        ("tools warm p99", "warm"),
        ("tools warm uncached p99", "warm uncached"),
    ]
    .into_iter()
    .enumerate()
    {
        let (value, tool) = worst.get(index).cloned().unwrap_or_default();
        let mut figure = Figure::measured(name, size, &[value], "ms");
        figure.note = Some(format!(
            "max over the {} tools of the per-tool p99 ({mode}); slowest: {tool}",
            rows.len()
        ));
        summaries.push(figure);
    }
    summaries.extend(figures);
    Ok((summaries, read_arguments(&document)))
}

/// Writes one request line and reads one response line into `line`.
fn exchange(
    input: &mut std::process::ChildStdin,
    output: &mut std::io::BufReader<std::process::ChildStdout>,
    request: &serde_json::Value,
    line: &mut String,
) -> Result<()> {
    use std::io::{BufRead as _, Write as _};
    writeln!(input, "{request}")?;
    input.flush()?;
    line.clear();
    if output.read_line(line)? == 0 {
        return fail("cartera mcp closed its output");
    }
    Ok(())
}

/// Calls per `mcp` run.
const MCP_CALLS: usize = 10_000;

fn measure_mcp(ledger: &Path, size: u64, runs: u32, arguments: &ToolArguments) -> Result<Figure> {
    use std::io::BufReader;
    if arguments.is_empty() {
        return fail("bench mcp: no tool arguments");
    }
    let mut samples = Vec::new();
    let mut first_calls = Vec::new();
    for _ in 0..runs.min(3) {
        let mut child = cartera()?
            .arg("--ledger")
            .arg(ledger)
            .arg("mcp")
            .env("CARTERA_NOW", BENCH_NOW)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start cartera mcp")?;
        let (Some(mut input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return fail("cartera mcp: no pipes");
        };
        let mut output = BufReader::new(output);
        let mut line = String::new();
        exchange(
            &mut input,
            &mut output,
            &serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "cartera-bench", "version": "0"}}}),
            &mut line,
        )?;
        let started = Instant::now();
        let mut first = 0.0;
        for (index, (tool, args)) in arguments.iter().cycle().take(MCP_CALLS).enumerate() {
            let id = index + 1;
            exchange(
                &mut input,
                &mut output,
                &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": tool, "arguments": args}}),
                &mut line,
            )?;
            let response: serde_json::Value =
                serde_json::from_str(&line).context("cartera mcp answered no JSON")?;
            if response["id"] != id || response["result"]["isError"] != false {
                return fail(format!("cartera mcp: {tool} {args} answered {line}"));
            }
            if index == 0 {
                first = started.elapsed().as_secs_f64();
            }
        }
        samples.push(started.elapsed().as_secs_f64());
        first_calls.push(first);
        drop(input);
        let _ = child.wait();
    }
    let mut figure = Figure::measured("mcp 10,000 calls", size, &samples, "s");
    figure.note = Some(format!(
        "one `cartera mcp` process per run, the 25 tools round robin ({} calls each, arguments \
         of the tools figure), one request at a time; the first call (derived state computed) \
         took {:.3} s",
        MCP_CALLS / arguments.len(),
        first_calls.iter().copied().fold(0.0, f64::max)
    ));
    Ok(figure)
}

/// Characters of the `tools/list` payloads (size-independent: measured once).
fn measure_catalogue() -> Result<Vec<Figure>> {
    let local = ai_tools::Profile::local(32_768).context("local profile")?;
    let mut figures = Vec::new();
    for (name, profile, what) in [
        (
            "catalogue metered",
            ai_tools::Profile::Metered,
            "metered profile, 25 tools",
        ),
        (
            "catalogue local",
            local,
            "local profile, context window 32768, 14 tools",
        ),
    ] {
        let text = ai_tools::schemas::tools_list_json(profile);
        #[allow(clippy::cast_precision_loss, reason = "a count for display")]
        let chars = text.chars().count() as f64;
        let mut figure = Figure::measured(name, 0, &[chars], "chars");
        "any".clone_into(&mut figure.size);
        figure.note = Some(format!(
            "Unicode scalar values of the compact tools/list text, {what}"
        ));
        figures.push(figure);
    }
    Ok(figures)
}

fn format_value(value: Option<f64>, unit: &str) -> String {
    match value {
        None => "-".to_owned(),
        Some(v) if unit == "rows/s" || unit == "chars" => format!("{v:.0}"),
        Some(v) if unit == "MiB" => format!("{v:.1}"),
        Some(v) => format!("{v:.3}"),
    }
}

fn print_table(figures: &[Figure]) -> Result<(), crate::output::OutputError> {
    let mut table = Table::new();
    table.load_preset(comfy_table::presets::UTF8_FULL_CONDENSED);
    table.set_header(vec![
        "figure", "size", "median", "p99", "min", "max", "unit", "target", "note",
    ]);
    for f in figures {
        table.add_row(vec![
            Cell::new(&f.name),
            Cell::new(&f.size).set_alignment(CellAlignment::Right),
            Cell::new(format_value(f.median, &f.unit)).set_alignment(CellAlignment::Right),
            Cell::new(format_value(f.p99, &f.unit)).set_alignment(CellAlignment::Right),
            Cell::new(format_value(f.min, &f.unit)).set_alignment(CellAlignment::Right),
            Cell::new(format_value(f.max, &f.unit)).set_alignment(CellAlignment::Right),
            Cell::new(&f.unit),
            Cell::new(f.target.as_deref().unwrap_or("")),
            Cell::new(f.note.as_deref().unwrap_or("")),
        ]);
    }
    outln!("{table}");
    Ok(())
}

/// Scaling ratios 1M / 100k of the timed figures, when both sizes ran.
fn scaling(figures: &[Figure]) -> Vec<Figure> {
    let mut out = Vec::new();
    for (name, invert) in [("engine", false), ("import", true), ("report", false)] {
        let find = |size: &str| {
            figures
                .iter()
                .find(|f| f.name == name && f.size == size)
                .and_then(|f| f.median)
        };
        if let (Some(small), Some(large)) = (find("100k"), find("1m"))
            && small > 0.0
            && large > 0.0
        {
            // Time ratio: for a rate figure, time is proportional to size / rate.
            let ratio = if invert {
                10.0 * small / large
            } else {
                large / small
            };
            let mut figure = Figure::measured(&format!("{name} scaling 1m/100k"), 0, &[ratio], "x");
            "1m/100k".clone_into(&mut figure.size);
            figure.target = (name != "report").then(|| "<= 12".to_owned());
            out.push(figure);
        }
    }
    out
}

/// The tools and mcp figures of a size (the mcp run reuses the tools figure's arguments).
fn measure_tool_layer(
    ledger: &Path,
    size: u64,
    runs: u32,
    wants: &dyn Fn(&str) -> bool,
) -> Result<Vec<Figure>> {
    let mut figures = Vec::new();
    let mut arguments = None;
    if wants("tools") {
        diag!("bench: {} tools", size_label(size));
        let (tool_figures, chosen) = measure_tools(ledger, size, runs)?;
        figures.extend(tool_figures);
        arguments = Some(chosen);
    }
    if wants("mcp") {
        diag!("bench: {} mcp", size_label(size));
        let arguments = match arguments {
            Some(chosen) => chosen,
            None => tool_arguments(ledger)?,
        };
        figures.push(measure_mcp(ledger, size, runs, &arguments)?);
    }
    Ok(figures)
}

pub(crate) fn run(args: &RunArgs) -> Result<Outcome> {
    let seed = parse_seed(&args.seed)?;
    let mut sizes = Vec::new();
    for part in args.sizes.split(',').filter(|p| !p.trim().is_empty()) {
        sizes.push(parse_size(part)?);
    }
    if sizes.is_empty() {
        return Err(UsageError {
            code: "bad-size",
            reason: "--sizes names no size: write e.g. --sizes 10k,100k".to_owned(),
        }
        .into());
    }
    let only: Vec<String> = args
        .only
        .as_deref()
        .map(|o| o.split(',').map(|s| s.trim().to_owned()).collect())
        .unwrap_or_default();
    for figure in &only {
        if !FIGURES.contains(&figure.as_str()) {
            return Err(UsageError {
                code: "bad-figure",
                reason: format!("--only {figure}: the figures are {}", FIGURES.join(", ")),
            }
            .into());
        }
    }
    let wants = |figure: &str| only.is_empty() || only.iter().any(|o| o == figure);
    std::fs::create_dir_all(&args.data)
        .with_context(|| format!("cannot create {}", args.data.display()))?;
    // Children run inside the data folders: every path they get is absolute.
    let data = std::path::absolute(&args.data)
        .with_context(|| format!("cannot resolve {}", args.data.display()))?;
    let args = &RunArgs {
        data,
        ..args.clone()
    };
    let needed: u64 = sizes
        .iter()
        .filter(|size| {
            !args
                .data
                .join(format!("{}-s{seed}", size_label(**size)))
                .join("ledger.stamp")
                .is_file()
        })
        .map(|size| needed_bytes(*size))
        .sum::<u64>()
        + sizes.iter().map(|s| s * 900).max().unwrap_or(0);
    match free_bytes(&args.data) {
        Some(free) if free < needed => {
            return fail(format!(
                "not enough free disk space in {}: the benchmark needs about {} MB, {} MB are \
                 free; free some space or pass smaller --sizes",
                args.data.display(),
                needed / 1_000_000,
                free / 1_000_000
            ));
        }
        Some(_) => {}
        None => diag!(
            "bench: cannot tell the free disk space in {}; about {} MB are needed",
            args.data.display(),
            needed / 1_000_000
        ),
    }
    let runs = args.runs.max(1);
    // The children inherit the environment, hence the pool size (D-170).
    diag!(
        "bench: {} threads (RAYON_NUM_THREADS, else the machine's cores)",
        rayon::current_num_threads()
    );
    let mut figures = Vec::new();
    for size in &sizes {
        let dir = ensure_data(&args.data, *size, seed)?;
        let ledger = ensure_ledger(&dir)?;
        if wants("import") {
            diag!("bench: {} import", size_label(*size));
            figures.push(measure_import(&dir, *size, runs)?);
        }
        if wants("engine") {
            diag!("bench: {} engine", size_label(*size));
            figures.extend(measure_engine(&ledger, *size, runs)?);
        }
        if wants("report") {
            diag!("bench: {} report", size_label(*size));
            figures.extend(measure_report(&ledger, *size, runs)?);
        }
        figures.extend(measure_tool_layer(&ledger, *size, runs, &wants)?);
    }
    figures.extend(scaling(&figures));
    if wants("catalogue") {
        figures.extend(measure_catalogue()?);
    }
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let text = serde_json::to_string_pretty(&figures)?;
    std::fs::write(&args.out, format!("{text}\n"))
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    print_table(&figures)?;
    diag!("bench: results in {}", args.out.display());
    Ok(Outcome::Success)
}
