use super::*;

#[test]
fn provider_names_round_trip_and_families_share_binance() {
    for provider in Provider::ALL {
        assert_eq!(Provider::parse(provider.name()), Some(provider));
    }
    assert_eq!(Provider::parse(" Kraken "), Some(Provider::Kraken));
    assert_eq!(Provider::parse("cryptocompare"), None);
    assert_eq!(Provider::BinanceUsdt.family(), Family::Binance);
    assert_eq!(Provider::BinanceUsdt.quote(), Quote::Usd);
    assert_eq!(Provider::Kraken.quote(), Quote::Eur);
}

#[test]
fn base_urls_are_replaced_without_their_trailing_slash() {
    let mut config = Config::default();
    assert_eq!(config.base(Family::Kraken), "https://api.kraken.com");
    config.set_base(Family::Kraken, "http://127.0.0.1:9/");
    assert_eq!(config.base(Family::Kraken), "http://127.0.0.1:9");
    assert_eq!(
        config.base(Family::EcbData),
        "https://data-api.ecb.europa.eu"
    );
}
