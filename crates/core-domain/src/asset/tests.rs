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
