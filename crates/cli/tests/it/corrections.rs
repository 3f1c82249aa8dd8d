//! The correction commands on the demo ledger: an edit changes a figure and `--restore` brings
//! it back, links and unlinks move custody, settings and accounts are validated.

use crate::support::{DemoLedger, stderr, stdout};

/// The Kraken sale of 0.06 BTC on 2024-03-12 (`tx --keys`; keys are content hashes, stable).
const BTC_SALE: &str = "b8d4aed97b056d0dc09c2079f87b2140adbab06e74e892a17690b5aa2f04089f";
/// The Coinbase send of 0.5 ETH on 2024-02-20 and the hardware wallet's receipt of it.
const ETH_SEND: &str = "2063fc27cdbd8619e0b5fe3b68c1067d24f1bcc765c11b2fd525736c4fce7746";
const ETH_RECEIPT: &str = "c5bac90b3c600e61c005318209dd84ecf665e99932c7f385fcbb8839351c98cc";
/// Kraken's withdrawal of 0.05 BTC on 2023-06-10.
const BTC_SEND: &str = "bdc4e60343a4e2957a8642b015bda89f58ef8e26bec3329c761d46d182e7707d";

fn gains(demo: &DemoLedger) -> String {
    demo.json(&["tax", "2024"])["summary"]["capitalGains"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn fails_with(demo: &DemoLedger, args: &[&str], code: i32, message: &str) {
    let output = demo.run(args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "{args:?}: {}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains(message),
        "{args:?}: {:?} not in {}",
        message,
        stderr(&output)
    );
}

#[test]
fn edit_changes_a_figure_and_restore_brings_it_back() {
    let demo = DemoLedger::build();
    assert_eq!(gains(&demo), "2221.92");
    // An authoritative price of 60,000 EUR: gross 0.06 × 60000 = 3600.00, less the 9.77 fee =
    // 3590.23, less the acquisition 2269.63 = +1320.60 instead of +1478.64 (−158.04).
    let out = demo.ok(&[
        "edit",
        &BTC_SALE[..12],
        "--price",
        "60000",
        "--currency",
        "EUR",
    ]);
    assert_eq!(out, format!("edited {BTC_SALE}\n"));
    assert_eq!(gains(&demo), "2063.88");
    let tx = demo.ok(&["tx", "--type", "SELL"]);
    assert!(tx.contains("SELL*"), "{tx}");
    demo.ok(&["edit", BTC_SALE, "--restore"]);
    assert_eq!(gains(&demo), "2221.92");
    // Excluding the sale removes its slice.
    demo.ok(&[
        "edit",
        BTC_SALE,
        "--exclude",
        "--note",
        "duplicate of the bank statement",
    ]);
    assert_eq!(gains(&demo), "743.28");
    demo.ok(&["edit", BTC_SALE, "--restore"]);
    fails_with(
        &demo,
        &["edit", BTC_SALE, "--restore"],
        1,
        "has no edit to restore",
    );
}

#[test]
fn edits_that_break_a_rule_are_refused_with_the_rule() {
    let demo = DemoLedger::build();
    fails_with(
        &demo,
        &["edit", BTC_SALE, "--in-amount", "0"],
        1,
        "in.quantity must be > 0",
    );
    fails_with(
        &demo,
        &["edit", BTC_SALE, "--type", "STAKING"],
        1,
        "rule: an edit must change something",
    );
    fails_with(
        &demo,
        &["edit", BTC_SALE, "--value", "5", "--currency", "BTC"],
        2,
        "is not a fiat code",
    );
    fails_with(&demo, &["edit", BTC_SALE, "--value", "5"], 2, "--currency");
    fails_with(
        &demo,
        &["edit", BTC_SALE],
        2,
        "an edit must change something",
    );
    fails_with(
        &demo,
        &["edit", "0000000000", "--exclude"],
        1,
        "no row has the key",
    );
    fails_with(
        &demo,
        &["edit", BTC_SALE, "--timestamp", "yesterday"],
        2,
        "not an instant",
    );
    assert_eq!(gains(&demo), "2221.92");
}

fn binance_eth(demo: &DemoLedger) -> String {
    let holdings = demo.json(&["holdings-at", "2024-12-31"]);
    holdings["custodians"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Binance")
        .and_then(|c| c["entries"].as_array())
        .and_then(|e| e.iter().find(|e| e["symbol"] == "ETH"))
        .and_then(|e| e["units"].as_str())
        .unwrap()
        .to_owned()
}

#[test]
fn link_and_unlink_move_custody() {
    let demo = DemoLedger::build();
    assert_eq!(binance_eth(&demo), "0.0466862");
    // Name Binance as the destination of the Coinbase send: the 0.5 ETH are now there.
    let out = demo.ok(&["link", ETH_SEND, "--to", "Binance"]);
    assert_eq!(out, format!("linked {ETH_SEND} -> Binance\n"));
    assert_eq!(binance_eth(&demo), "0.5466862");
    fails_with(
        &demo,
        &["link", ETH_SEND, "--to", "Kraken"],
        1,
        "already linked",
    );
    let out = demo.ok(&["unlink", &ETH_SEND[..10]]);
    assert_eq!(out, format!("unlinked {ETH_SEND} (1 link(s) removed)\n"));
    assert_eq!(binance_eth(&demo), "0.0466862");
    fails_with(&demo, &["unlink", ETH_SEND], 1, "nothing to unlink");
    // The two legs of the send, linked explicitly, then unlinked by the incoming leg.
    demo.ok(&["link", ETH_SEND, ETH_RECEIPT]);
    demo.ok(&["unlink", ETH_RECEIPT]);
    fails_with(
        &demo,
        &["link", BTC_SEND, ETH_RECEIPT],
        1,
        "the two legs move different assets",
    );
    fails_with(
        &demo,
        &["link", ETH_SEND, "--to", "Nowhere"],
        1,
        "not found",
    );
}

#[test]
fn settings_are_validated_and_listed() {
    let demo = DemoLedger::build();
    assert_eq!(
        demo.ok(&["settings", "set", "fiscal_timezone", "Atlantic/Canary"]),
        "fiscal_timezone = \"Atlantic/Canary\"\n"
    );
    assert_eq!(
        demo.ok(&["settings", "get", "fiscal_timezone"]),
        "\"Atlantic/Canary\"\n"
    );
    demo.ok(&["settings", "set", "irpf.art_33_5_warnings", "true"]);
    assert_eq!(
        demo.json(&["settings", "get", "irpf.art_33_5_warnings"])["value"],
        serde_json::json!(true)
    );
    fails_with(
        &demo,
        &["settings", "set", "fiscal_timezone", "Europe/Paris"],
        1,
        "is not Europe/Madrid or Atlantic/Canary",
    );
    fails_with(
        &demo,
        &["settings", "set", "irpf.start_year", "1999"],
        1,
        "must be a year from 2009 to 9999",
    );
    demo.ok(&["settings", "set", "irpf.start_year", "2022"]);
    fails_with(
        &demo,
        &[
            "settings",
            "set",
            "irpf.declared_carry_forwards",
            r#"[{"origin_year":2022,"kind":"SAVINGS_GP","amount":"100"}]"#,
        ],
        1,
        "is not before irpf.start_year 2022",
    );
    fails_with(
        &demo,
        &[
            "settings",
            "set",
            "irpf.general_absorption",
            r#"{"2015":"1"}"#,
        ],
        1,
        "is not 2013 or 2014",
    );
    fails_with(
        &demo,
        &["settings", "set", "nope", "1"],
        2,
        "is not a setting",
    );
    demo.ok(&["settings", "unset", "fiscal_timezone"]);
    assert_eq!(
        demo.ok(&["settings", "get", "fiscal_timezone"]),
        "(unset; default: \"Europe/Madrid\")\n"
    );
    insta::assert_snapshot!("settings_after_changes", demo.ok(&["settings"]));
}

#[test]
fn accounts_set_changes_the_modelo_721_scope() {
    let demo = DemoLedger::build();
    let output = demo.run(&[
        "accounts",
        "set",
        "kraken",
        "--kind",
        "foreign_provider",
        "--country",
        "us",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "Kraken: custody FOREIGN_PROVIDER, country US\n"
    );
    let accounts = demo.ok(&["accounts"]);
    assert!(
        accounts.contains(" Kraken           FOREIGN_PROVIDER   US "),
        "{accounts}"
    );
    // Kraken held 0.00965 BTC (855.73) and 172.4643 DOT (1170.79) on 31 Dec 2024.
    let year_end = demo.json(&["holdings-at", "2024-12-31"]);
    assert_eq!(year_end["yearEnd"]["modelo721"]["total721"], "2026.52");
    assert_eq!(year_end["yearEnd"]["modelo721"]["decision"], "NOT_REQUIRED");
    fails_with(
        &demo,
        &["accounts", "set", "Kraken:spot", "--kind", "SELF_CUSTODY"],
        1,
        "is a sub-account of Kraken",
    );
    fails_with(
        &demo,
        &[
            "accounts",
            "set",
            "Bitvavo",
            "--kind",
            "SPANISH_PROVIDER",
            "--country",
            "NL",
        ],
        1,
        "located in Spain",
    );
    fails_with(
        &demo,
        &["accounts", "set", "Bitvavo", "--kind", "BANK"],
        1,
        "is not one of",
    );
    fails_with(
        &demo,
        &["accounts", "set", "Nowhere", "--kind", "SELF_CUSTODY"],
        1,
        "no account is named",
    );
}

#[test]
fn correction_commands_answer_in_json_too() {
    let demo = DemoLedger::build();
    let answers = [
        demo.ok(&["--json", "edit", BTC_SALE, "--exclude"]),
        demo.ok(&["--json", "edit", BTC_SALE, "--restore"]),
        demo.ok(&["--json", "link", ETH_SEND, "--to", "Binance"]),
        demo.ok(&["--json", "unlink", ETH_SEND]),
        demo.ok(&["--json", "settings", "set", "display_currency", "USD"]),
        demo.ok(&["--json", "settings", "unset", "display_currency"]),
        demo.ok(&[
            "--json",
            "accounts",
            "set",
            "Ledger",
            "--kind",
            "SELF_CUSTODY",
        ]),
    ];
    insta::assert_snapshot!("correction_json_answers", answers.concat());
}
