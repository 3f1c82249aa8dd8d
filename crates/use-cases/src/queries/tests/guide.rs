//! The Renta Web guide on the worked examples of the IRPF spec (I-2, I-4, I-5, I-6): every box
//! with its exact amount, as the `--json` document and the tool carry it.

use core_domain::testkit::Ledger;
use serde_json::{Value, json};

use super::{i5, queries, tax, to_json};
use crate::fake::Fake;

fn guide(fake: Fake, now: &str, year: i32) -> Value {
    let q = queries(fake, now);
    to_json(&tax(&q, year).renta_guide)
}

fn boxes(guide: &Value) -> Vec<(String, String, Option<i64>)> {
    guide["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["box"].as_str().unwrap().to_owned(),
                b["amount"].as_str().unwrap().to_owned(),
                b["originYear"].as_i64(),
            )
        })
        .collect()
}

fn owned(list: &[(&str, &str, Option<i64>)]) -> Vec<(String, String, Option<i64>)> {
    list.iter()
        .map(|(b, a, o)| ((*b).to_owned(), (*a).to_owned(), *o))
        .collect()
}

fn notes(guide: &Value) -> Vec<String> {
    guide["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn i6_2023_loss_yields_airdrop_mining_and_cross_compensation() {
    let g = guide(
        Fake::new(&core_domain::testkit::examples::i6()),
        "2025-01-01T00:00:00Z",
        2023,
    );
    assert_eq!(g["covered"], json!(true));
    assert_eq!(g["rowLimit"], json!(120));
    assert_eq!(
        g["cryptoRows"],
        json!([{
            "coin": "POLKADOT (DOT)", "symbol": "DOT", "clave": "F",
            "transmissionAmount": "420.00", "transmissionExpenses": "0.00", "box1804": "420.00",
            "acquisitionAmount": "500.00", "acquisitionExpenses": "0.00", "box1806": "500.00",
            "box1807": "80.00", "box1809": null
        }])
    );
    assert_eq!(
        boxes(&g),
        owned(&[
            ("1813", "80.00", None),
            ("1814", "0.00", None),
            ("0033", "50.00", None),
            ("0304", "24.00", None),
            ("0446", "12.50", None),
            ("1270", "67.50", None),
        ])
    );
    assert_eq!(
        g["boxes"][0]["label"],
        json!("Suma de pérdidas patrimoniales de monedas virtuales")
    );
    assert_eq!(g["pending"], json!([]));
    assert_eq!(
        notes(&g),
        [
            "ACQUISITION_FEES_INCLUDED",
            "MINING",
            "INCOMPLETE",
            "BANKRUPTCY_OR_FRAUD_LOSS"
        ]
    );
    assert_eq!(g["notes"][1]["amount"], json!("25.00"));
}

#[test]
fn i6_2024_uses_the_2023_loss_in_0442_and_annex_c3() {
    let g = guide(
        Fake::new(&core_domain::testkit::examples::i6()),
        "2025-01-01T00:00:00Z",
        2024,
    );
    assert_eq!(
        boxes(&g),
        owned(&[
            ("1813", "0.00", None),
            ("1814", "270.00", None),
            ("0442", "67.50", Some(2023)),
        ])
    );
    assert_eq!(
        g["boxes"][2]["label"],
        json!(
            "Saldo neto negativo de ganancias y pérdidas del ahorro de 2023 compensado con ganancias"
        )
    );
    assert_eq!(
        g["pending"],
        json!([{"originYear": 2023, "boxes": ["1267", "1268", "1269"],
                "atStart": "67.50", "applied": "67.50", "pendingAfter": "0.00"}])
    );
}

#[test]
fn i5_2023_takes_part_of_the_2022_loss_and_keeps_the_rest_pending() {
    let g = guide(i5(), "2024-01-01T00:00:00Z", 2023);
    assert_eq!(g["cryptoRows"][0]["coin"], json!("SOLANA (SOL)"));
    assert_eq!(g["cryptoRows"][0]["box1809"], json!("100.00"));
    assert_eq!(
        boxes(&g),
        owned(&[
            ("1813", "0.00", None),
            ("1814", "100.00", None),
            ("0442", "100.00", Some(2022)),
        ])
    );
    assert_eq!(
        g["pending"],
        json!([{"originYear": 2022, "boxes": ["1267", "1268", "1269"],
                "atStart": "195.69", "applied": "100.00", "pendingAfter": "95.69"}])
    );
}

fn i4() -> Ledger {
    core_domain::testkit::examples::i4()
}

#[test]
fn i4_2024_large_sale_with_fees_staking_and_airdrop() {
    let g = guide(Fake::new(&i4()), "2025-01-01T00:00:00Z", 2024);
    assert_eq!(
        g["cryptoRows"],
        json!([{
            "coin": "BITCOIN (BTC)", "symbol": "BTC", "clave": "F",
            "transmissionAmount": "524828.32", "transmissionExpenses": "524.83",
            "box1804": "524303.49", "acquisitionAmount": "147309.70",
            "acquisitionExpenses": "0.00", "box1806": "147309.70",
            "box1807": null, "box1809": "376993.79"
        }])
    );
    assert_eq!(
        boxes(&g),
        owned(&[
            ("1813", "0.00", None),
            ("1814", "376993.79", None),
            ("0033", "1200.00", None),
            ("0304", "800.00", None),
        ])
    );
}

#[test]
fn a_year_without_a_box_table_names_the_years_the_guide_covers() {
    let q = queries(
        Fake::new(&core_domain::testkit::examples::i2()),
        "2023-01-01T00:00:00Z",
    );
    let report = tax(&q, 2020);
    let g = to_json(&report.renta_guide);
    assert_eq!(g["covered"], json!(false));
    assert_eq!(g["coveredEjercicios"], json!([2023, 2024, 2025]));
    assert_eq!(g["rowLimit"], json!(null));
    assert_eq!(g["boxes"], json!([]));
    // The figures are still in the report.
    assert_eq!(report.summary.savings_base_after_compensation, "750.00");
}
