//! Catalogue size ceilings and the ledger of `crates/ai-tools/catalogue-size.md` (`tools.md`
//! §13.3): every change to a definition adds one ledger row.

use serde_json::json;

use crate::support::{Rig, local};

const METERED_CEILING: usize = 24_000;
const LOCAL_CEILING: usize = 12_000;

#[test]
fn sizes_stay_under_the_ceilings_and_match_the_ledger() {
    let metered = Rig::metered(json!({}))
        .host
        .tools_list_json()
        .chars()
        .count();
    let local_size = Rig::new(local(8192), 1, json!({}))
        .host
        .tools_list_json()
        .chars()
        .count();
    assert!(
        metered <= METERED_CEILING,
        "metered catalogue {metered} > {METERED_CEILING}: trim descriptions"
    );
    assert!(
        local_size <= LOCAL_CEILING,
        "local catalogue {local_size} > {LOCAL_CEILING}: trim descriptions"
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue-size.md");
    let ledger = std::fs::read_to_string(&path).unwrap_or_default();
    let last = ledger
        .lines()
        .rfind(|line| line.starts_with("| ") && !line.starts_with("| date"))
        .unwrap_or_default();
    let cells: Vec<&str> = last.split('|').map(str::trim).collect();
    let recorded = (
        cells.get(3).copied().unwrap_or(""),
        cells.get(4).copied().unwrap_or(""),
    );
    assert!(
        recorded
            == (
                metered.to_string().as_str(),
                local_size.to_string().as_str()
            ),
        "the last row of {} records {recorded:?}; append:\n| YYYY-MM-DD | <change> | {metered} | {local_size} |",
        path.display()
    );
}
