use super::*;

fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn days(from: &str, n: i64) -> Vec<NaiveDate> {
    (0..n)
        .map(|i| d(from) + chrono::TimeDelta::days(i))
        .collect()
}

#[test]
fn pages_cut_runs_to_the_per_request_limit_and_bridge_short_stretches() {
    let missing = days("2020-01-01", 700);
    assert_eq!(
        pages(&missing, 300),
        vec![
            (d("2020-01-01"), d("2020-10-26")),
            (d("2020-10-27"), d("2021-08-22")),
            (d("2021-08-23"), d("2021-11-30")),
        ]
    );
    let mut scattered = days("2020-01-01", 2);
    scattered.extend(days("2020-01-20", 1));
    scattered.extend(days("2021-01-01", 1));
    assert_eq!(
        pages(&scattered, 1000),
        vec![
            (d("2020-01-01"), d("2020-01-20")),
            (d("2021-01-01"), d("2021-01-01"))
        ]
    );
}

#[test]
fn runs_group_consecutive_days() {
    let mut missing = days("2020-01-01", 3);
    missing.extend(days("2020-02-01", 1));
    assert_eq!(
        runs(&missing),
        vec![
            Gap {
                from: d("2020-01-01"),
                to: d("2020-01-03"),
                days: 3
            },
            Gap {
                from: d("2020-02-01"),
                to: d("2020-02-01"),
                days: 1
            }
        ]
    );
}

#[test]
fn request_paths_are_the_providers_own() {
    let (a, b) = (d("2024-01-01"), d("2024-01-02"));
    assert_eq!(
        path(Provider::Kraken, "XBTEUR", a, b),
        "/0/public/OHLC?pair=XBTEUR&interval=1440&since=1703980800"
    );
    assert_eq!(
        path(Provider::Coinbase, "BTC-EUR", a, b),
        "/products/BTC-EUR/candles?granularity=86400&start=2024-01-01T00:00:00Z&end=2024-01-02T00:00:00Z"
    );
    assert_eq!(
        path(Provider::Binance, "BTCEUR", a, b),
        "/api/v3/klines?symbol=BTCEUR&interval=1d&startTime=1704067200000&endTime=1704153600000&limit=1000"
    );
    assert_eq!(
        path(Provider::Bitvavo, "BTC-EUR", a, b),
        "/v2/BTC-EUR/candles?interval=1d&start=1704067200000&end=1704239999999&limit=1440"
    );
    assert_eq!(
        path(Provider::Bitstamp, "btceur", a, b),
        "/api/v2/ohlc/btceur/?step=86400&limit=1000&start=1704067200&end=1704153600"
    );
    assert_eq!(
        path(Provider::CoinGecko, "bitcoin", a, b),
        "/api/v3/coins/bitcoin/market_chart/range?vs_currency=eur&from=1704153600&to=1704240000&interval=daily"
    );
}
