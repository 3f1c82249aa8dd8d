use super::*;

#[test]
fn tables_cover_2023_to_2025_with_the_form_limits() {
    assert_eq!(covered_years(), vec![2023, 2024, 2025]);
    let limits: Vec<usize> = BOX_TABLES.iter().map(|t| t.crypto_row_limit).collect();
    assert_eq!(limits, vec![120, 120, 300]);
    assert!(box_table(2022).is_none());
    assert!(box_table(2026).is_none());
}

#[test]
fn box_numbers_are_unique_and_four_digits() {
    for table in &BOX_TABLES {
        let mut seen = std::collections::BTreeSet::new();
        for def in table.boxes {
            assert_eq!(def.number.len(), 4, "{}", def.number);
            assert!(def.number.bytes().all(|c| c.is_ascii_digit()));
            assert!(seen.insert(def.number), "duplicate {}", def.number);
        }
    }
}

#[test]
fn labels_roll_the_year_and_name_the_origin() {
    let table = box_table(2024).unwrap();
    assert_eq!(
        table.get("1808").unwrap().label(true, 2024),
        "Pérdida patrimonial imputable a 2024"
    );
    assert_eq!(
        table.get("0439").unwrap().label(false, 2024),
        "2020 negative savings gains balance set against gains"
    );
    assert_eq!(
        table.get("0448").unwrap().label(true, 2025),
        "Resto de saldo neto negativo de ganancias y pérdidas del ahorro de 2024 compensado con \
         rendimientos (límite 25 %)"
    );
}

#[test]
fn coin_names_as_box_1802_takes_them() {
    assert_eq!(coin_name("BTC"), "BITCOIN (BTC)");
    assert_eq!(coin_name("eth"), "ETHEREUM (ETH)");
    assert_eq!(coin_name("XRP"), "XRP");
    assert_eq!(coin_name("PEPE"), "PEPE");
    assert_eq!(
        coin_name("ETHEREUMCLASSICWRAPPEDTOKEN"),
        "ETHEREUMCLASSICWRAPPEDTOK"
    );
    let mut sorted = COIN_NAMES.to_vec();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        COIN_NAMES.to_vec(),
        "the name table is searched by symbol"
    );
}

#[test]
fn carried_amounts_land_in_the_box_of_their_origin_year() {
    let t = box_table(2025).unwrap();
    let n = |o, k, nat| carry_box(t, 2025, o, k, nat).map(|d| d.number);
    assert_eq!(n(2021, CarryKind::SavingsGp, Nature::Same), Some("0439"));
    assert_eq!(n(2024, CarryKind::SavingsGp, Nature::Same), Some("0442"));
    assert_eq!(n(2021, CarryKind::SavingsGp, Nature::Cross), Some("0453"));
    assert_eq!(n(2024, CarryKind::SavingsGp, Nature::Cross), Some("0448"));
    assert_eq!(n(2023, CarryKind::SavingsRcm, Nature::Cross), Some("0445"));
    assert_eq!(n(2020, CarryKind::SavingsGp, Nature::Same), None);
    assert_eq!(n(2025, CarryKind::SavingsGp, Nature::Same), None);
}

fn row(symbol: &str, clave: Clave, t: &str, a: &str) -> CryptoEntry {
    let t = crate::num::parse_decimal("t", t, false).unwrap();
    let a = crate::num::parse_decimal("a", a, false).unwrap();
    let result = t - a;
    CryptoEntry {
        coin: coin_name(symbol),
        symbol: symbol.to_owned(),
        clave,
        transmission_amount: t,
        transmission_expenses: Decimal::ZERO,
        box_1804: t,
        acquisition_amount: a,
        acquisition_expenses: Decimal::ZERO,
        box_1806: a,
        box_1807: (result < Decimal::ZERO).then(|| -result),
        box_1809: (result >= Decimal::ZERO).then_some(result),
    }
}

#[test]
fn over_the_limit_gains_and_losses_of_a_coin_and_clave_are_netted() {
    let rows = vec![
        row("BTC", Clave::F, "100.00", "40.00"),
        row("BTC", Clave::F, "50.00", "80.00"),
        row("BTC", Clave::N, "10.00", "20.00"),
        row("ETH", Clave::F, "5.00", "9.00"),
        row("ETH", Clave::F, "1.00", "0.50"),
    ];
    let merged = per_coin_clave(&rows).unwrap();
    let view: Vec<String> = merged
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {:?} {:?}",
                r.symbol,
                r.clave.as_str(),
                r.box_1804,
                r.box_1806,
                r.box_1807.map(|d| d.to_string()),
                r.box_1809.map(|d| d.to_string()),
            )
        })
        .collect();
    assert_eq!(
        view,
        [
            "BTC F 150.00 120.00 None Some(\"30.00\")",
            "BTC N 10.00 20.00 Some(\"10.00\") None",
            "ETH F 6.00 9.50 Some(\"3.50\") None",
        ]
    );
}
