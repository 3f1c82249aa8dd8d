use super::{Asset, CurrencyCode};

#[test]
fn symbols_are_validated_and_ordered_by_bytes() {
    assert_eq!(Asset::from_input(" btc ").unwrap().as_str(), "BTC");
    assert_eq!(Asset::new("BTC").unwrap().id(), "btc");
    for bad in ["", "btc", "BTC-X", "ABCDEFGHIJKLMNOPQRSTU", "É"] {
        assert!(Asset::new(bad).is_err(), "{bad}");
    }
    let mut assets: Vec<Asset> = ["ETH", "BTC", "BTC.B", "1INCH"]
        .iter()
        .map(|s| Asset::new(s).unwrap())
        .collect();
    assets.sort();
    let sorted: Vec<&str> = assets.iter().map(Asset::as_str).collect();
    assert_eq!(sorted, ["1INCH", "BTC", "BTC.B", "ETH"]);
    assert!(Asset::new("USD").unwrap().is_fiat());
    assert!(Asset::new("USDT").unwrap().is_crypto());
}

#[test]
fn optional_assets_and_row_sides_cost_no_extra_bytes() {
    use crate::ledger::{AssetAmount, SpotRow};
    assert_eq!(size_of::<Option<Asset>>(), size_of::<Asset>());
    assert_eq!(size_of::<Option<AssetAmount>>(), size_of::<AssetAmount>());
    // Rows are the largest part of a loaded ledger: a field that makes them grow should be
    // a decision, not an accident.
    assert!(size_of::<SpotRow>() <= 240, "{}", size_of::<SpotRow>());
}

#[test]
fn a_currency_code_is_its_three_letter_symbol() {
    for code in shared_types::FIAT_CODES {
        let asset = Asset::new(code).unwrap();
        let compact = CurrencyCode::of(asset).unwrap();
        assert_eq!(compact.asset(), asset);
        assert_eq!(compact.to_string(), *code);
        assert_eq!(format!("{compact:?}"), format!("{asset:?}"));
    }
    let (eur, usd) = (Asset::new("EUR").unwrap(), Asset::new("USD").unwrap());
    assert!(CurrencyCode::of(eur) < CurrencyCode::of(usd));
    assert_eq!(
        CurrencyCode::of(Asset::new("BTC").unwrap()).map(CurrencyCode::asset),
        Some(Asset::new("BTC").unwrap())
    );
    assert_eq!(CurrencyCode::of(Asset::new("USDT").unwrap()), None);
    assert_eq!(CurrencyCode::of(Asset::new("EU").unwrap()), None);
    assert_eq!(std::mem::size_of::<CurrencyCode>(), 3);
}

#[test]
fn fiat_is_exactly_the_closed_list_of_codes() {
    for code in shared_types::FIAT_CODES {
        assert!(Asset::new(code).unwrap().is_fiat(), "{code}");
    }
    for symbol in [
        "BTC", "ETH", "EU", "EURO", "USDT", "USDC", "EUR.", "ZAS", "AAA", "ZZZ", "1INCH", "E",
    ] {
        assert!(!Asset::new(symbol).unwrap().is_fiat(), "{symbol}");
    }
    assert_eq!(shared_types::FIAT_CODES.len(), 42);
}
