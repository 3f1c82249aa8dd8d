//! One ledger shared by request threads answers exactly as a single thread does.

use std::sync::Barrier;

use cartera::{Ledger, ToolConfig, TxQuery};
use serde_json::json;

use crate::demo::{all, clock, import};

/// How many questions [`answer`] knows.
const QUESTIONS: usize = 8;

/// Question `index` of the brief, answered as JSON text.
fn answer(ledger: &Ledger, tools: &cartera::Tools, index: usize) -> String {
    let json = |value: serde_json::Result<String>| value.expect("serialize");
    match index {
        0 => json(serde_json::to_string(
            &ledger.portfolio().expect("portfolio"),
        )),
        1 => json(serde_json::to_string(
            &ledger.tax_report(2023).expect("tax"),
        )),
        2 => json(serde_json::to_string(
            &ledger.tax_reports(2022..=2024).expect("tax range"),
        )),
        3 => json(serde_json::to_string(
            &ledger.lots("BTC", 0, 50).expect("lots"),
        )),
        4 => json(serde_json::to_string(
            &ledger.transactions(&TxQuery::default()).expect("tx"),
        )),
        5 => json(serde_json::to_string(
            &ledger.integrity().expect("integrity"),
        )),
        6 => tools
            .call("portfolio_summary", &json!({}))
            .expect("tool")
            .to_string(),
        _ => tools
            .call("spanish_tax_report", &json!({ "year": 2024 }))
            .expect("tool")
            .to_string(),
    }
}

/// Every answer, asked from question `start` on (so threads ask different questions at the same
/// time), listed in question order.
fn answers(ledger: &Ledger, tools: &cartera::Tools, start: usize) -> Vec<String> {
    let mut got = vec![String::new(); QUESTIONS];
    for step in 0..QUESTIONS {
        let index = (start + step) % QUESTIONS;
        got[index] = answer(ledger, tools, index);
    }
    got
}

#[test]
fn eight_threads_over_two_ledgers_answer_as_one_thread_does() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let paths = [
        folder.path().join("all.sqlite"),
        folder.path().join("kraken.sqlite"),
    ];
    let contents = [
        all(),
        vec!["ecb-rates.csv", "prices-daily.csv", "kraken-ledgers.csv"],
    ];
    for (path, files) in paths.iter().zip(&contents) {
        import(&Ledger::create(path, clock()).expect("create"), files);
    }

    // The single-threaded answers, each from its own fresh ledger value.
    let expected: Vec<Vec<String>> = paths
        .iter()
        .map(|path| {
            let ledger = Ledger::open_read_only(path, clock()).expect("open");
            let tools = ledger.tools(&ToolConfig::new("single")).expect("tools");
            answers(&ledger, &tools, 0)
        })
        .collect();
    assert_ne!(expected[0], expected[1], "the two ledgers must differ");

    // One shared ledger value and one tools value per ledger; 8 threads, 4 on each, start
    // together and ask every question twice, each thread in its own order.
    let shared: Vec<(Ledger, cartera::Tools)> = paths
        .iter()
        .enumerate()
        .map(|(index, path)| {
            let ledger = Ledger::open_read_only(path, clock()).expect("open");
            let tools = ledger
                .tools(&ToolConfig::new(format!("tenant-{index}")))
                .expect("tools");
            (ledger, tools)
        })
        .collect();
    let barrier = Barrier::new(8);
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|thread| {
                let (ledger, tools) = &shared[thread % 2];
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    let first = answers(ledger, tools, thread);
                    let second = answers(ledger, tools, thread + 3);
                    assert_eq!(
                        first, second,
                        "thread {thread}: a repeated question differs"
                    );
                    (thread % 2, first)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("thread"))
            .collect()
    });
    assert_eq!(results.len(), 8);
    for (ledger, got) in results {
        assert_eq!(got, expected[ledger], "ledger {ledger}");
    }
}

/// What a web service shares across its request threads.
#[test]
fn the_shared_types_are_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<Ledger>();
    shared::<cartera::Tools>();
    shared::<cartera::McpServer>();
    shared::<cartera::Error>();
}
