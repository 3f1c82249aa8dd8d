//! A minimal multi-tenant tool service: several ledgers (tenants) in one process, a pool of
//! worker threads answering tool calls from one request queue, each tenant with its own tools
//! and result cache. Run it with `cargo run -p cartera --example service`.
#![allow(clippy::print_stdout, reason = "an example shows its answers")]

use std::collections::BTreeMap;
use std::sync::Mutex;

use cartera::{FixedClock, ImportKind, ImportOptions, Ledger, ToolConfig, Tools};
use serde_json::{Value, json};

const RATES: &[u8] = include_bytes!("../../cli/demo/ecb-rates.csv");
const PRICES: &[u8] = include_bytes!("../../cli/demo/prices-daily.csv");
const KRAKEN: &[u8] = include_bytes!("../../cli/demo/kraken-ledgers.csv");
const BITVAVO: &[u8] = include_bytes!("../../cli/demo/bitvavo.csv");

/// One tenant: its ledger (for writes and direct questions) and its tools.
struct Tenant {
    ledger: Ledger,
    tools: Tools,
}

/// A tenant's ledger in memory with the market data and one exchange export.
fn tenant(name: &str, export: (&str, &[u8])) -> Result<Tenant, cartera::Error> {
    let ledger = Ledger::in_memory(FixedClock::parse("2024-12-31T12:00:00Z")?)?;
    for (file, kind, bytes) in [
        ("ecb-rates.csv", ImportKind::EcbRates, RATES),
        ("prices-daily.csv", ImportKind::Prices, PRICES),
        (export.0, ImportKind::Export, export.1),
    ] {
        let options = ImportOptions {
            kind,
            ..ImportOptions::default()
        };
        ledger.import_bytes(file, bytes, &options)?;
    }
    let tools = ledger.tools(&ToolConfig::new(name).locale("en"))?;
    Ok(Tenant { ledger, tools })
}

/// The requests of one round, as a web front end would queue them: (tenant, tool, arguments).
fn requests() -> Vec<(&'static str, &'static str, Value)> {
    let mut queue = Vec::new();
    for _ in 0..4 {
        for tenant in ["alice", "bob"] {
            queue.push((tenant, "portfolio_summary", json!({})));
            queue.push((tenant, "spanish_tax_report", json!({ "year": 2024 })));
            queue.push((tenant, "list_accounts_typo", json!({})));
        }
    }
    queue
}

/// Serves the queue on `workers` threads; answers are keyed by their place in the queue.
fn serve(
    tenants: &BTreeMap<&str, Tenant>,
    queue: Vec<(&'static str, &'static str, Value)>,
    workers: usize,
) -> BTreeMap<usize, (String, String)> {
    let queue = Mutex::new(queue.into_iter().enumerate());
    let answers = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().expect("queue lock").next();
                    let Some((id, (tenant, tool, arguments))) = next else {
                        break;
                    };
                    let answer = match tenants[tenant].tools.call(tool, &arguments) {
                        Ok(result) => summary(&result),
                        Err(cartera::Error::UnknownTool { name, .. }) => {
                            format!("refused: no tool {name:?}")
                        }
                        Err(error) => format!("error: {error}"),
                    };
                    let line = (format!("{tenant} {tool}"), answer);
                    answers.lock().expect("answers lock").insert(id, line);
                }
            });
        }
    });
    answers.into_inner().expect("answers lock")
}

/// A short line for a tool result.
fn summary(result: &Value) -> String {
    let payload = &result["payload"];
    match (
        &payload["metrics"]["totalEquityFiat"],
        &payload["summary"]["capitalGains"],
    ) {
        (Value::String(equity), _) => format!("{}: equity {equity}", result["kind"]),
        (_, Value::String(gains)) => format!("{}: capital gains {gains}", result["kind"]),
        _ => format!("{}", result["kind"]),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tenants = BTreeMap::from([
        ("alice", tenant("alice", ("kraken-ledgers.csv", KRAKEN))?),
        ("bob", tenant("bob", ("bitvavo.csv", BITVAVO))?),
    ]);

    let answers = serve(&tenants, requests(), 4);
    for (id, (request, answer)) in answers.iter().take(6) {
        println!("#{id} {request}: {answer}");
    }
    // Each tenant's answers come from its own ledger and cache, whatever thread served them.
    let first = |tenant: &str| answers.values().find(|(r, _)| r == tenant).map(|(_, a)| a);
    assert_ne!(
        first("alice portfolio_summary"),
        first("bob portfolio_summary")
    );
    for (request, answer) in answers.values() {
        assert_eq!(
            Some(answer),
            first(request),
            "{request} answered differently"
        );
    }

    // A write to one tenant changes its answers only: bob imports a second export; the next
    // round sees it in bob's answers, while alice's stand.
    let options = ImportOptions::default();
    tenants["bob"]
        .ledger
        .import_bytes("kraken-ledgers.csv", KRAKEN, &options)?;
    let again = serve(&tenants, requests(), 4);
    for (id, (request, answer)) in &again {
        let before = &answers[id].1;
        let expected = request.starts_with("bob ") && !request.ends_with("_typo");
        assert_eq!(answer != before, expected, "{request}: {before} → {answer}");
    }
    for (id, (request, answer)) in again.iter().take(6) {
        println!("after bob's import, #{id} {request}: {answer}");
    }
    Ok(())
}
