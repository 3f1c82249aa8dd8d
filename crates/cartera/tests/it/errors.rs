//! Each failure the brief names comes back as its variant of the one error enum.

use cartera::{Error, ImportKind, ImportOptions, ImportStatus, Ledger, ToolConfig, ToolProfile};
use serde_json::json;

use crate::demo::{clock, import};

#[test]
fn a_file_that_is_not_a_ledger_is_refused_and_left_untouched() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let path = folder.path().join("notes.sqlite");
    let text = "these are my notes, not a ledger\n".repeat(200);
    std::fs::write(&path, &text).expect("write");
    for opened in [
        Ledger::open_read_only(&path, clock()),
        Ledger::open(&path, clock()),
        Ledger::create(&path, clock()),
    ] {
        match opened {
            Err(Error::NotALedger { path: named, .. }) => assert_eq!(named, path),
            other => panic!("expected NotALedger, got {other:?}"),
        }
    }
    assert_eq!(std::fs::read_to_string(&path).expect("read"), text);
}

#[test]
fn a_missing_file_in_read_only_mode_is_no_ledger_and_nothing_is_created() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let path = folder.path().join("absent.sqlite");
    for opened in [
        Ledger::open_read_only(&path, clock()),
        Ledger::open(&path, clock()),
    ] {
        match opened {
            Err(Error::NoLedger { path: named }) => assert_eq!(named, path),
            other => panic!("expected NoLedger, got {other:?}"),
        }
    }
    let entries = std::fs::read_dir(folder.path()).expect("list").count();
    assert_eq!(entries, 0, "opening created files");
}

#[test]
fn a_bad_tool_name_is_unknown_tool_with_the_exposed_list() {
    let ledger = Ledger::in_memory(clock()).expect("ledger");
    let metered = ledger.tools(&ToolConfig::new("t")).expect("tools");
    match metered.call("portfolio_sumary", &json!({})) {
        Err(Error::UnknownTool { name, exposed }) => {
            assert_eq!(name, "portfolio_sumary");
            assert_eq!(exposed.len(), 25);
            assert_eq!(exposed[0], "portfolio_summary");
        }
        other => panic!("expected UnknownTool, got {other:?}"),
    }
    // An extended tool is unknown to the local profile, which exposes the 14 core tools.
    let local = ToolConfig::new("t").profile(ToolProfile::Local {
        context_window: 8192,
    });
    let local = ledger.tools(&local).expect("tools");
    match local.call("tx_search", &json!({})) {
        Err(Error::UnknownTool { exposed, .. }) => assert_eq!(exposed.len(), 14),
        other => panic!("expected UnknownTool, got {other:?}"),
    }
    // Bad arguments of a known tool are the tool's own error result, for the model to read.
    let answer = metered
        .call("spanish_tax_report", &json!({ "year": "last" }))
        .expect("a tool result");
    assert_eq!(answer["kind"], "error");
    assert_eq!(answer["code"], "INVALID_TOOL_INPUT");
    assert_eq!(answer["path"], "/year");
}

#[test]
fn writes_to_a_read_only_ledger_are_read_only_errors() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let path = folder.path().join("ledger.sqlite");
    let writer = Ledger::create(&path, clock()).expect("create");
    import(&writer, &["kraken-ledgers.csv"]);
    drop(writer);
    let reader = Ledger::open_read_only(&path, clock()).expect("open");
    assert_eq!(
        reader.set_setting("fiscal_timezone", "Atlantic/Canary"),
        Err(Error::ReadOnly)
    );
    let bytes = include_bytes!("../../../cli/demo/bitvavo.csv");
    assert_eq!(
        reader.import_bytes("bitvavo.csv", bytes, &ImportOptions::default()),
        Err(Error::ReadOnly)
    );
    assert_eq!(reader.lots("BTC", 0, 10).expect("lots").total_count, 2);
}

#[test]
fn bad_requests_settings_and_options_have_their_variants() {
    let ledger = Ledger::in_memory(clock()).expect("ledger");
    assert!(matches!(
        ledger.set_setting("fiscal_timezone", "Europe/Paris"),
        Err(Error::InvalidSetting { .. })
    ));
    assert!(matches!(
        ledger.set_setting("no.such.key", "1"),
        Err(Error::InvalidRequest { .. })
    ));
    assert_eq!(
        ledger.set_setting("fiscal_timezone", "Atlantic/Canary"),
        Ok("\"Atlantic/Canary\"".to_owned())
    );
    let query = cartera::TxQuery {
        from: Some("31/12/2024".to_owned()),
        ..cartera::TxQuery::default()
    };
    assert!(matches!(
        ledger.transactions(&query),
        Err(Error::InvalidRequest { field, .. }) if field == "from"
    ));
    let options = ImportOptions {
        timezone: Some("Mars/Olympus".to_owned()),
        ..ImportOptions::default()
    };
    assert!(matches!(
        ledger.import_bytes("x.csv", b"a,b\n", &options),
        Err(Error::InvalidOption { what, .. }) if what == "timezone"
    ));
    assert!(matches!(
        ledger.tools(&ToolConfig::new("t").locale("")),
        Err(Error::InvalidOption { what, .. }) if what == "locale"
    ));
    assert!(matches!(
        ledger.import_file("/nonexistent/export.csv", &ImportOptions::default()),
        Err(Error::Io { .. })
    ));
}

#[test]
fn a_rejected_file_writes_nothing_and_reports_why() {
    let ledger = Ledger::in_memory(clock()).expect("ledger");
    let options = ImportOptions {
        kind: ImportKind::Export,
        ..ImportOptions::default()
    };
    let report = ledger
        .import_bytes("mystery.csv", b"foo,bar\n1,2\n", &options)
        .expect("a report");
    assert_eq!(report.status, ImportStatus::Rejected);
    assert_eq!(report.added, 0);
    assert_eq!(report.findings.len(), 1, "{report:#?}");
    assert_eq!(report.findings[0].level, "error");
    assert_eq!(ledger.version().expect("version").version, 0);
}
