use super::*;

#[test]
fn the_coingecko_table_is_sorted_and_unique() {
    for pair in COINGECKO_IDS.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{:?} before {:?}", pair[0], pair[1]);
    }
    assert!(COINGECKO_IDS.len() >= 230);
}

#[test]
fn each_provider_uses_its_own_names() {
    let none = Overrides::new();
    let m = |p, a| market(p, a, &none);
    assert_eq!(m(Provider::Kraken, "BTC").as_deref(), Some("XBTEUR"));
    assert_eq!(m(Provider::Kraken, "DOGE").as_deref(), Some("XDGEUR"));
    assert_eq!(m(Provider::Kraken, "ETH").as_deref(), Some("ETHEUR"));
    assert_eq!(m(Provider::Coinbase, "ETH").as_deref(), Some("ETH-EUR"));
    assert_eq!(m(Provider::Bitvavo, "SOL").as_deref(), Some("SOL-EUR"));
    assert_eq!(m(Provider::Binance, "BTC").as_deref(), Some("BTCEUR"));
    assert_eq!(m(Provider::BinanceUsdt, "ADA").as_deref(), Some("ADAUSDT"));
    assert_eq!(m(Provider::BinanceUsdt, "USDT"), None);
    assert_eq!(m(Provider::Bitstamp, "BTC").as_deref(), Some("btceur"));
    assert_eq!(m(Provider::CoinGecko, "BTC").as_deref(), Some("bitcoin"));
    assert_eq!(
        m(Provider::CoinGecko, "LUNA").as_deref(),
        Some("terra-luna-2")
    );
    // Never a symbol guess: `xbt` is an unrelated CoinGecko token.
    assert_eq!(m(Provider::CoinGecko, "XBT"), None);
    assert_eq!(m(Provider::CoinGecko, "NOPE"), None);
}

#[test]
fn the_users_markets_win_and_an_empty_one_turns_a_provider_off() {
    let mut overrides = Overrides::new();
    overrides.insert(("IOTA".to_owned(), Provider::CoinGecko), "iota".to_owned());
    overrides.insert(("BTC".to_owned(), Provider::Kraken), String::new());
    assert_eq!(
        market(Provider::CoinGecko, "IOTA", &overrides).as_deref(),
        Some("iota")
    );
    assert_eq!(market(Provider::Kraken, "BTC", &overrides), None);
}
