//! The report commands on the demo ledger: snapshots of the human and the JSON output of every
//! command, byte-identical reruns, and the 2024 report against the hand computation.

use crate::support::DemoLedger;

/// Every report command with the arguments the snapshots pin (name, arguments).
const COMMANDS: &[(&str, &[&str])] = &[
    ("portfolio", &["portfolio"]),
    ("portfolio_usd", &["portfolio", "--currency", "USD"]),
    ("portfolio_account", &["portfolio", "--account", "Kraken"]),
    ("tax_2022", &["tax", "2022"]),
    ("tax_2023", &["tax", "2023"]),
    ("tax_2024", &["tax", "2024"]),
    ("tax_compare", &["tax", "compare", "2023", "2024"]),
    ("integrity", &["integrity"]),
    ("integrity_flag", &["integrity", "--flag", "MISSING_PRICE"]),
    ("lots_btc", &["lots", "BTC"]),
    (
        "tx_eth_2024",
        &["tx", "--symbol", "ETH", "--from", "2024-01-01"],
    ),
    (
        "tx_keys",
        &["tx", "--type", "SELL", "--type", "SWAP", "--keys"],
    ),
    ("holdings_at", &["holdings-at", "2024-12-31"]),
    ("holdings_at_mid_year", &["holdings-at", "2023-06-30"]),
    ("accounts", &["accounts"]),
    ("settings", &["settings"]),
];

#[test]
fn every_report_command_prints_its_table_and_its_json() {
    let demo = DemoLedger::build();
    for (name, args) in COMMANDS {
        let human = demo.ok(args);
        insta::assert_snapshot!(format!("{name}_human"), human);
        let mut json_args = vec!["--json"];
        json_args.extend_from_slice(args);
        let json = demo.ok(&json_args);
        assert!(
            serde_json::from_str::<serde_json::Value>(&json).is_ok(),
            "{name}: --json is not one JSON document"
        );
        insta::assert_snapshot!(format!("{name}_json"), json);
    }
}

#[test]
fn each_report_command_prints_the_same_bytes_twice() {
    let demo = DemoLedger::build();
    for (name, args) in COMMANDS {
        for json in [false, true] {
            let mut all: Vec<&str> = if json { vec!["--json"] } else { Vec::new() };
            all.extend_from_slice(args);
            let first = demo.run(&all);
            let second = demo.run(&all);
            assert!(first.status.success(), "{name}");
            assert_eq!(first.stdout, second.stdout, "{name} (json {json})");
            assert_eq!(first.stderr, second.stderr, "{name} (json {json})");
        }
    }
    // A second ledger built from the same files prints the same bytes too.
    let other = DemoLedger::build();
    for args in [
        &["tax", "2024"][..],
        &["--json", "lots", "ETH"],
        &["portfolio"],
    ] {
        assert_eq!(demo.run(args).stdout, other.run(args).stdout, "{args:?}");
    }
}

/// `(field, expected)` pairs of a JSON object, compared as strings.
fn check(document: &serde_json::Value, pointer: &str, expected: &[(&str, &str)]) {
    let object = document
        .pointer(pointer)
        .unwrap_or_else(|| panic!("{pointer} is absent"));
    for (field, value) in expected {
        assert_eq!(
            object.get(*field).and_then(serde_json::Value::as_str),
            Some(*value),
            "{pointer}/{field}"
        );
    }
}

#[test]
fn tax_2024_matches_the_hand_computation() {
    // Hand computation of crates/cli/demo/README.md ("Hand computation of 2024"), restated:
    // - five slices (FIFO, global per asset), results: BTC sell 0.06 at 62,634 less 9.77 fee =
    //   3748.27 − 2269.63 (2634.66 × 0.06 / 0.06965) = +1478.64; ARB→ETH swap 977.55 − 2.69 gas =
    //   974.86 − 720.42 = +254.44; the gas itself 2.69 − 2.06 = +0.63; ETH sell of 0.75 split
    //   over two lots: 1301.57 − 965.94 = +335.63 and 1146.23 − 993.65 = +152.58;
    //   T_sav = 1478.64 + 254.44 + 0.63 + 335.63 + 152.58 = 2221.92.
    // - R = 12 DOT rewards 123.25 + 4 Coinbase staking receipts 1.35 = 124.60; A = 0.
    // - Phase 1: no negative balance, c = 0. Phase 2: the 2022 item 585.89 and the 2023 item
    //   431.81 are used whole: carry_forward_used = 1017.70, T_sav = 1204.22.
    // - Savings base = 1204.22 + 124.60 = 1328.82; tax = 1328.82 × 19 % = 252.4758 → 252.48.
    let demo = DemoLedger::build();
    let report = demo.json(&["tax", "2024"]);
    check(
        &report,
        "/summary",
        &[
            ("capitalGains", "2221.92"),
            ("capitalLosses", "0.00"),
            ("savingsBaseYields", "124.60"),
            ("generalBaseAirdrops", "0.00"),
            ("netPatrimonialResult", "2221.92"),
            ("estimatedIrpf", "252.48"),
            ("savingsTransmissionBalance", "2221.92"),
            ("currentYearCrossCompensation", "0.00"),
            ("carryForwardUsed", "1017.70"),
            ("savingsBaseAfterCompensation", "1328.82"),
            ("generalGainsAfterCompensation", "0.00"),
            ("carryForwardGenerated", "0.00"),
            ("carryForwardRemaining", "0.00"),
            ("carryForwardExpired", "0.00"),
        ],
    );
    check(
        &report,
        "/bases",
        &[
            ("savingsGpAfterCompensation", "1204.22"),
            ("savingsRcmAfterCompensation", "124.60"),
        ],
    );
    let results: Vec<(&str, &str, &str, &str)> = report["auditTrail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["asset"].as_str().unwrap(),
                s["quantity"].as_str().unwrap(),
                s["acquisitionValue"].as_str().unwrap(),
                s["result"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            ("BTC", "0.06", "2269.63", "1478.64"),
            ("ARB", "625", "720.42", "254.44"),
            ("ETH", "0.00085", "2.06", "0.63"),
            ("ETH", "0.3987962", "965.94", "335.63"),
            ("ETH", "0.3512038", "993.65", "152.58"),
        ]
    );
    let used: Vec<(i64, &str)> = report["carryForward"]["used"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["originYear"].as_i64().unwrap(),
                u["amount"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(used, [(2022, "585.89"), (2023, "431.81")]);
    assert_eq!(report["completeness"]["status"]["kind"], "complete");

    // The human report states the same figures.
    let human = demo.ok(&["tax", "2024"]);
    for line in [
        "IRPF 2024 (EUR, FIFO): COMPLETE",
        " carry-forward used                      1017.70",
        " savings base after compensation         1328.82",
        " estimated IRPF                           252.48",
    ] {
        assert!(human.contains(line), "missing {line:?} in\n{human}");
    }
}

#[test]
fn tax_csv_writes_the_modelo_100_rows_and_the_annex() {
    let demo = DemoLedger::build();
    let out = demo.dir.path().join("csv");
    let output = demo.run(&["tax", "2024", "--csv", out.to_str().unwrap()]);
    assert!(output.status.success());
    assert_eq!(
        demo.redact(&crate::support::stderr(&output)),
        "wrote [DIR]/csv/modelo100_2024.csv\nwrote [DIR]/csv/annex_2024.csv\n"
    );
    let modelo = std::fs::read_to_string(out.join("modelo100_2024.csv")).unwrap();
    // The Modelo 100 rows of the demo README (2024), then the totals.
    assert_eq!(
        modelo,
        "base,box_1802,box_1803,box_1804,box_1806,box_1807,box_1809,slice_count,operation_count\n\
         SAVINGS,ARB,N,974.86,720.42,,254.44,1,1\n\
         SAVINGS,BTC,F,3748.27,2269.63,,1478.64,1,1\n\
         SAVINGS,ETH,F,2447.80,1959.59,,488.21,2,1\n\
         SAVINGS,ETH,B,2.69,2.06,,0.63,1,1\n\
         TOTAL,,,7173.62,4951.70,0.00,2221.92,5,4\n"
    );
    let annex = std::fs::read_to_string(out.join("annex_2024.csv")).unwrap();
    let lines: Vec<&str> = annex.lines().collect();
    assert_eq!(lines.len(), 6, "{annex}");
    assert!(lines[0].starts_with("operation_id,slice_id,asset,clave,base,included,"));
    assert!(annex.ends_with('\n') && !annex.contains('\r'));
    insta::assert_snapshot!("annex_2024_csv", annex);
}

#[test]
fn the_other_demo_years_match_the_readme() {
    let demo = DemoLedger::build();
    for (year, gains, losses, yields, airdrops, tax, base, generated, remaining) in [
        (
            "2022", "0.37", "622.74", "145.91", "0.00", "20.79", "109.43", "585.89", "585.89",
        ),
        (
            "2023", "0.00", "459.98", "112.66", "720.42", "16.05", "84.49", "431.81", "1017.70",
        ),
    ] {
        let report = demo.json(&["tax", year]);
        check(
            &report,
            "/summary",
            &[
                ("capitalGains", gains),
                ("capitalLosses", losses),
                ("savingsBaseYields", yields),
                ("generalBaseAirdrops", airdrops),
                ("estimatedIrpf", tax),
                ("savingsBaseAfterCompensation", base),
                ("carryForwardGenerated", generated),
                ("carryForwardRemaining", remaining),
            ],
        );
    }
    let warnings = demo.json(&["tax", "2023"])["warnings"].clone();
    assert_eq!(warnings, serde_json::json!(["GENERAL_BASE_NOT_TAXED"]));
}

#[test]
fn portfolio_matches_the_demo_holdings() {
    // Holdings on 31 Dec 2024 of the demo README: BTC 0.05965 (cost 1252.98), ETH 1.27149504
    // (2548.68), DOT 172.4643 (2863.18), valued at the closes 88676.35, 3131.76 and 6.7886.
    let demo = DemoLedger::build();
    let summary = demo.json(&["portfolio"]);
    let holdings: Vec<(&str, &str, &str, &str)> = summary["valued"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["symbol"].as_str().unwrap(),
                h["amount"].as_str().unwrap(),
                h["costBasisFiat"].as_str().unwrap(),
                h["currentValueFiat"].as_str().unwrap(),
            )
        })
        .collect();
    // 0.05965 × 88676.35 = 5289.544… → 5289.54; 1.27149504 × 3131.76 = 3982.017… → 3982.02;
    // 172.4643 × 6.7886 = 1170.7871… → 1170.79.
    assert_eq!(
        holdings,
        [
            ("BTC", "0.05965", "1252.98", "5289.54"),
            ("ETH", "1.27149504", "2548.68", "3982.02"),
            ("DOT", "172.4643", "2863.18", "1170.79"),
        ]
    );
    assert_eq!(summary["metrics"]["totalEquityFiat"], "10442.35");
}

#[test]
fn every_report_table_fits_100_columns_in_both_languages() {
    let demo = DemoLedger::build();
    for (name, args) in COMMANDS {
        for lang in ["en", "es"] {
            let mut all = args.to_vec();
            all.extend_from_slice(&["--lang", lang]);
            let text = demo.ok(&all);
            // Table lines: a header rule, and the rows (indented) that follow it.
            let mut in_table = false;
            for line in text.lines() {
                if line.starts_with("---") {
                    in_table = true;
                } else if !line.starts_with(' ') {
                    in_table = false;
                }
                if in_table || line.starts_with("---") {
                    assert!(line.chars().count() <= 100, "{name} {lang}: {line}");
                }
            }
        }
    }
    // The portfolio is stacked: one `label: value` block per asset, figures whole.
    let portfolio = demo.ok(&["portfolio"]);
    assert!(
        portfolio.contains(
            "Valued holdings\n asset:          BTC\n quantity:       0.05965\n avg cost EUR:   \
             21005.53\n"
        ),
        "{portfolio}"
    );
    let tax = demo.ok(&["tax", "2024", "--lang", "es"]);
    assert!(
        tax.contains(
            " 1802 activo:          BTC\n 1803 clave:           F\n 1804 transmisión EUR: \
             3.748,27\n 1806 adquisición EUR: 2.269,63\n"
        ),
        "{tax}"
    );
}
