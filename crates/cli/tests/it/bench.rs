//! `cartera bench gen` and `cartera bench run` (`performance.md`): determinism, shape, the
//! files importing cleanly through the binary, refused input, and the harness's results file.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{cartera, run, stderr, stdout};

fn generate(dir: &Path, n: &str, seed: &str, extra: &[&str]) -> serde_json::Value {
    let output = cartera()
        .args([
            "--json",
            "bench",
            "gen",
            "--transactions",
            n,
            "--seed",
            seed,
            "--out",
        ])
        .arg(dir)
        .args(extra)
        .output()
        .expect("cartera runs");
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_str(&stdout(&output)).expect("json summary")
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("folder")
        .map(|entry| {
            let entry = entry.expect("entry");
            (
                entry.file_name().to_string_lossy().into_owned(),
                std::fs::read(entry.path()).expect("file"),
            )
        })
        .collect()
}

#[test]
fn same_size_and_seed_give_byte_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        dir.path().join("a"),
        dir.path().join("b"),
        dir.path().join("c"),
    );
    generate(&a, "3000", "42", &[]);
    generate(&b, "3000", "42", &[]);
    generate(&c, "3000", "43", &[]);
    let (a, b, c) = (files(&a), files(&b), files(&c));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        ["eurofxref-hist.csv", "prices.csv", "transactions.csv"]
    );
    assert!(a == b, "two runs with the same size and seed differ");
    assert_ne!(a.get("transactions.csv"), c.get("transactions.csv"));
}

#[test]
fn kraken_files_are_deterministic_too() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let summary = generate(&a, "2000", "5", &["--format", "kraken-ledgers"]);
    generate(&b, "2000", "5", &["--format", "kraken-ledgers"]);
    assert!(files(&a) == files(&b));
    // seed 5: 3 + 5 % 23 = 8 accounts, one Kraken file each.
    assert_eq!(summary["accounts"], 8);
    assert!(a.join("kraken-account08.csv").is_file());
}

/// The generic CSV's shape: the mix, transfers in pairs, bursts, dust, the period.
#[test]
fn generic_csv_has_the_shape_of_performance_md() {
    let dir = tempfile::tempdir().unwrap();
    let summary = generate(dir.path(), "10k", "1", &[]);
    let text = std::fs::read_to_string(dir.path().join("transactions.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,\
             fee_amount,fiat_value,fiat_currency,id,group_id,note"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 10_000);
    assert!(rows.iter().all(|r| r.len() == 14));
    let mut types: BTreeMap<&str, usize> = BTreeMap::new();
    let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
    let mut per_second: BTreeMap<&str, usize> = BTreeMap::new();
    let mut accounts = std::collections::BTreeSet::new();
    for row in &rows {
        *types.entry(row[1]).or_default() += 1;
        if !row[12].is_empty() {
            *groups.entry(row[12]).or_default() += 1;
        }
        *per_second.entry(row[0]).or_default() += 1;
        accounts.insert(row[2]);
    }
    let share = |kinds: &[&str]| -> usize {
        kinds
            .iter()
            .map(|k| types.get(k).copied().unwrap_or(0))
            .sum::<usize>()
            / 100
    };
    // Percent of rows, with a tolerance of a few points around the mix of performance.md.
    assert!((31..=39).contains(&share(&["BUY"])), "{types:?}");
    assert!((16..=24).contains(&share(&["SWAP"])), "{types:?}");
    assert!((16..=24).contains(&share(&["SELL"])), "{types:?}");
    assert!(
        (12..=18).contains(&share(&["TRANSFER_OUT", "TRANSFER_IN"])),
        "{types:?}"
    );
    assert!(
        (7..=13).contains(&share(&["STAKING", "REWARD", "AIRDROP"])),
        "{types:?}"
    );
    // Every transfer has its two legs in the file, one out and one in.
    assert!(groups.values().all(|n| *n == 2));
    assert_eq!(types["TRANSFER_OUT"], types["TRANSFER_IN"]);
    // Seed 1: 4 accounts; 10k rows: 20 assets.
    assert_eq!(accounts.len(), 4);
    assert_eq!(summary["accounts"], 4);
    assert_eq!(summary["assets"], 20);
    // Bursts of same-second operations, dust, and a few uncovered disposals.
    assert!(per_second.values().any(|n| *n >= 5));
    assert!(summary["dust"].as_u64().unwrap() > 100);
    let uncovered = summary["uncoveredDisposals"].as_u64().unwrap();
    assert!((1..=200).contains(&uncovered), "{uncovered}");
    // 2014 to 2025, chronological.
    assert!(rows.first().unwrap()[0].starts_with("2014-01-01"));
    assert!(rows.last().unwrap()[0].starts_with("2025"));
    assert!(rows.windows(2).all(|w| w[0][0] <= w[1][0]));
    // A price for every asset on every day of 2014–2025.
    assert_eq!(summary["priceRows"], 20 * 4383);
}

/// The 10k ledger imports through the binary with no invalid row and no warning, and the
/// report of its last year is complete.
#[test]
fn generated_files_import_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), "10k", "1", &[]);
    let ledger = dir.path().join("ledger.sqlite");
    for args in [
        vec!["import", "transactions.csv"],
        vec!["rates", "import", "eurofxref-hist.csv"],
        vec!["prices", "import", "prices.csv"],
    ] {
        let mut full: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        full[args.len() - 1] = dir.path().join(args[args.len() - 1]).display().to_string();
        let full: Vec<&str> = full.iter().map(String::as_str).collect();
        let output = run(&ledger, &full);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let text = stdout(&output);
        assert!(text.contains("warnings      0"), "{args:?}: {text}");
        assert!(text.contains("invalid rows  0"), "{args:?}: {text}");
    }
    let output = run(&ledger, &["tax", "2025", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["completeness"]["status"]["kind"], "complete");
}

#[test]
fn kraken_ledger_files_import_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let summary = generate(dir.path(), "2000", "1", &["--format", "kraken-ledgers"]);
    let ledger = dir.path().join("ledger.sqlite");
    for index in 1..=summary["accounts"].as_u64().unwrap() {
        let file = dir.path().join(format!("kraken-account{index:02}.csv"));
        let account = format!("Account{index:02}");
        let output = run(
            &ledger,
            &["import", file.to_str().unwrap(), "--account", &account],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(text.contains("kraken-ledgers"), "{text}");
        assert!(
            text.contains("warnings      0"),
            "{text}: {}",
            stderr(&output)
        );
        assert!(text.contains("invalid rows  0"), "{text}");
    }
}

#[test]
fn impossible_sizes_and_seeds_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (n, seed, code) in [
        ("0", "1", "bad-size"),
        ("9", "1", "bad-size"),
        ("lots", "1", "bad-size"),
        ("21m", "1", "bad-size"),
        ("99999999999999999999", "1", "bad-size"),
        ("10k", "-1", "bad-seed"),
        ("10k", "seven", "bad-seed"),
    ] {
        let output = cartera()
            .args(["bench", "gen", "--transactions", n, "--seed", seed, "--out"])
            .arg(dir.path().join("never"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{n} {seed}");
        assert!(
            stderr(&output).contains(&format!("error[{code}]")),
            "{n} {seed}: {}",
            stderr(&output)
        );
        assert!(!dir.path().join("never").exists());
    }
}

/// A small harness run: the results file has one object per figure, each with numbers: the
/// import, engine and report figures, the tool latencies (per tool and the maximum over tools),
/// the MCP run and the catalogue sizes.
#[test]
fn harness_writes_results_per_figure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results.json");
    let output = cartera()
        .args(["bench", "run", "--sizes", "1000", "--runs", "1", "--data"])
        .arg(dir.path().join("data"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let figures: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let named = |name: &str| {
        figures
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing: {figures:#?}"))
    };
    let numbers = |figure: &serde_json::Value| {
        let (min, median, max) = (
            figure["min"].as_f64().unwrap(),
            figure["median"].as_f64().unwrap(),
            figure["max"].as_f64().unwrap(),
        );
        assert!(min > 0.0 && min <= median && median <= max, "{figure}");
        (median, max)
    };
    for name in [
        "import",
        "engine",
        "report",
        "engine peak memory",
        "report peak memory",
        "tools cold p99",
        "tools warm p99",
        "tools warm uncached p99",
        "mcp 10,000 calls",
    ] {
        let figure = named(name);
        assert_eq!(figure["size"], "1k", "{figure}");
        numbers(figure);
    }
    assert_eq!(named("import")["unit"], "rows/s");
    assert_eq!(named("tools warm p99")["unit"], "ms");
    assert_eq!(named("mcp 10,000 calls")["unit"], "s");
    assert_eq!(
        named("tools warm p99")["target"],
        "<= 2 ms every tool at 100k"
    );
    // Every tool in every mode, with p50 <= p99 <= max, and the summary is the worst p99.
    let mut worst_warm: f64 = 0.0;
    for tool in shared_types::ToolName::ALL {
        for mode in ["cold", "warm", "warm uncached"] {
            let figure = named(&format!("tool {} {mode}", tool.as_str()));
            let (median, max) = numbers(figure);
            let p99 = figure["p99"].as_f64().unwrap();
            assert!(median <= p99 && p99 <= max, "{figure}");
            if mode == "warm" {
                worst_warm = worst_warm.max(p99);
            }
        }
        let cold = named(&format!("tool {} cold", tool.as_str()));
        assert!(
            cold["note"].as_str().unwrap().contains("; ok ("),
            "valid arguments answer ok: {cold}"
        );
    }
    assert!((named("tools warm p99")["median"].as_f64().unwrap() - worst_warm).abs() < 1e-9);
    // The catalogue does not depend on the ledger: exact character counts.
    let metered = named("catalogue metered");
    let local = named("catalogue local");
    assert_eq!(metered["unit"], "chars");
    let metered_chars = metered["median"].as_f64().unwrap();
    let local_chars = local["median"].as_f64().unwrap();
    assert!(
        metered_chars > local_chars && local_chars > 1000.0,
        "{metered} {local}"
    );
    assert!(
        !figures.iter().any(|f| f["median"].is_null()),
        "{figures:#?}"
    );
    assert!(stdout(&output).contains("engine peak memory"));
    assert!(stdout(&output).contains("tools warm p99"));
}
