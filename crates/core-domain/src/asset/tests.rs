use super::Asset;

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
