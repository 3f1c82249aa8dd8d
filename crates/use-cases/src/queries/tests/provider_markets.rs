//! `prices.provider_markets`: the user's market per asset and price provider.

use crate::ports::SettingKey;
use crate::queries::settings::{SettingValue, canonical_text, parse_value};

#[test]
fn markets_are_validated_and_stored_canonically() {
    let key = SettingKey::PricesProviderMarkets;
    assert_eq!(
        canonical_text(
            key,
            r#"{"iota": {"CoinGecko": "iota", "kraken": ""}, "BTC": {"kraken": "XBTEUR"}}"#
        )
        .unwrap(),
        r#"{"BTC":{"kraken":"XBTEUR"},"IOTA":{"coingecko":"iota","kraken":""}}"#
    );
    let SettingValue::ProviderMarkets(markets) =
        parse_value(key, r#"{"IOTA": {"coingecko": "iota"}}"#).unwrap()
    else {
        panic!("provider markets expected");
    };
    assert_eq!(markets.len(), 1);
    for (text, reason) in [
        (
            "[]",
            "must be an object {\"ASSET\": {\"provider\": \"market\"}}",
        ),
        (
            r#"{"BTC": {"cryptocompare": "BTC"}}"#,
            "\"cryptocompare\" is not a price provider (kraken, coinbase, bitvavo, binance, bitstamp, binance-usdt, coingecko)",
        ),
        (
            r#"{"BTC": {"kraken": 5}}"#,
            "the kraken market of BTC must be a string",
        ),
        (
            r#"{"BTC": {"kraken": "XBT EUR"}}"#,
            "\"XBT EUR\" is not a market name (no spaces, at most 64 characters)",
        ),
    ] {
        let error = parse_value(key, text).unwrap_err().to_string();
        assert!(error.contains(reason), "{text}: {error}");
    }
}
