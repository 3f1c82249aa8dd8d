use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::NaiveDate;
use providers::chain::{AssetRequest, Catalog, fetch_asset};
use providers::symbols::Overrides;
use providers::testing::{CountingPause, Exchanges, Reply, Server};
use providers::{Client, Config, Family, Provider};

pub(crate) fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

pub(crate) fn day(text: &str) -> i64 {
    (d(text) - d("1970-01-01")).num_days()
}

pub(crate) fn days(from: &str, to: &str) -> Vec<NaiveDate> {
    d(from).iter_days().take_while(|x| *x <= d(to)).collect()
}

/// A series of closes `100 + i` from `from` to `to` (inclusive).
pub(crate) fn series(from: &str, to: &str) -> BTreeMap<i64, String> {
    (day(from)..=day(to))
        .enumerate()
        .map(|(i, x)| (x, format!("{}.5", 100 + i)))
        .collect()
}

pub(crate) fn client_for(server: &Server, pause: &CountingPause) -> Client {
    let mut config = Config {
        connect_timeout: std::time::Duration::from_millis(500),
        read_timeout: std::time::Duration::from_millis(500),
        ..Config::default()
    };
    for family in Family::ALL {
        config.set_base(family, server.base());
    }
    Client::new(config, Box::new(pause.clone())).unwrap()
}

pub(crate) fn exchanges(
    today: &str,
    markets: Vec<(Provider, &str, BTreeMap<i64, String>)>,
    fallback: impl Fn(&str, usize) -> Option<Reply> + Send + Sync + 'static,
) -> Server {
    let series = markets
        .into_iter()
        .map(|(p, m, s)| ((p, m.to_owned()), s))
        .collect();
    Server::start(
        Exchanges {
            series,
            today: day(today),
            fallback: Box::new(fallback),
        }
        .into_handler(),
    )
}

#[test]
fn an_unknown_pair_passes_to_the_next_provider_and_unlisted_days_are_gaps() {
    let server = exchanges(
        "2024-03-01",
        vec![(
            Provider::Coinbase,
            "ABC-EUR",
            series("2024-01-10", "2024-03-01"),
        )],
        |_, _| None,
    );
    let pause = CountingPause::default();
    let mut client = client_for(&server, &pause);
    let missing = days("2024-01-01", "2024-01-31");
    let overrides = Overrides::new();
    let request = AssetRequest {
        asset: "ABC",
        missing: &missing,
        today: d("2024-03-01"),
        providers: &Provider::ALL,
        overrides: &overrides,
    };
    let mut seen = 0;
    let outcome = fetch_asset(&mut client, &mut Catalog::default(), &request, |_| {
        seen += 1;
    });
    assert_eq!(seen, 1);
    assert_eq!(outcome.series.len(), 1);
    let series = &outcome.series[0];
    assert_eq!(
        (series.provider, series.market.as_str()),
        (Provider::Coinbase, "ABC-EUR")
    );
    assert_eq!(series.closes.len(), 22);
    assert_eq!(series.closes[0].date, d("2024-01-10"));
    assert_eq!(series.closes[0].close.to_string(), "100.5");
    assert_eq!(outcome.gaps.len(), 1);
    assert_eq!(
        (
            outcome.gaps[0].from,
            outcome.gaps[0].to,
            outcome.gaps[0].days
        ),
        (d("2024-01-01"), d("2024-01-09"), 9)
    );
    assert_eq!(
        outcome.notes,
        vec![
            "kraken: not among its EUR pairs (AssetPairs)",
            "bitvavo: does not list ABC-EUR (HTTP 400: {\"errorCode\":205,\"error\":\"market parameter ABC-EUR is invalid.\"})",
            "binance: does not list ABCEUR (HTTP 400: {\"code\":-1121,\"msg\":\"Invalid symbol.\"})",
            "bitstamp: does not list abceur (HTTP 404: {\"errors\":[{\"message\":\"Not found\"}]})",
            "binance-usdt: does not list ABCUSDT (HTTP 400: {\"code\":-1121,\"msg\":\"Invalid symbol.\"})",
            "coingecko: no curated CoinGecko id for this asset",
        ]
    );
    // A 4xx is never retried: one request per provider (Kraken's pair list instead of a
    // candle request), none to CoinGecko.
    assert_eq!(server.requests().len(), 6);
    assert_eq!(server.requests()[0], "/0/public/AssetPairs");
}

#[test]
fn paging_follows_each_providers_limit() {
    // 2,500 days: Coinbase 300 per request, Binance 1000, Bitvavo 1440, Bitstamp 1000.
    let (from, to, today) = ("2017-01-01", "2023-11-05", "2024-06-01");
    for (provider, market, prefix, expected) in [
        (Provider::Coinbase, "XYZ-EUR", "/products/XYZ-EUR/", 9),
        (
            Provider::Binance,
            "XYZEUR",
            "/api/v3/klines?symbol=XYZEUR",
            3,
        ),
        (Provider::Bitvavo, "XYZ-EUR", "/v2/XYZ-EUR/", 2),
        (Provider::Bitstamp, "xyzeur", "/api/v2/ohlc/xyzeur/", 3),
    ] {
        let server = exchanges(
            today,
            vec![(provider, market, series(from, today))],
            |_, _| None,
        );
        let pause = CountingPause::default();
        let mut client = client_for(&server, &pause);
        let missing = days(from, to);
        assert_eq!(missing.len(), 2500);
        let overrides = Overrides::new();
        let request = AssetRequest {
            asset: "XYZ",
            missing: &missing,
            today: d(today),
            providers: &[provider],
            overrides: &overrides,
        };
        let outcome = fetch_asset(&mut client, &mut Catalog::default(), &request, |_| {});
        assert_eq!(outcome.series[0].closes.len(), 2500, "{provider}");
        assert!(outcome.gaps.is_empty(), "{provider}: {:?}", outcome.gaps);
        assert_eq!(server.count(prefix), expected, "{provider}");
    }
}

#[test]
fn kraken_serves_only_its_latest_720_candles_and_the_rest_goes_on_down_the_chain() {
    let today = "2024-06-01";
    let server = exchanges(
        today,
        vec![
            (Provider::Kraken, "XBTEUR", series("2013-09-10", today)),
            (Provider::Coinbase, "BTC-EUR", series("2015-04-23", today)),
        ],
        |_, _| None,
    );
    let pause = CountingPause::default();
    let mut client = client_for(&server, &pause);
    let missing = days("2021-01-01", "2024-05-31");
    let overrides = Overrides::new();
    let request = AssetRequest {
        asset: "BTC",
        missing: &missing,
        today: d(today),
        providers: &Provider::ALL,
        overrides: &overrides,
    };
    let outcome = fetch_asset(&mut client, &mut Catalog::default(), &request, |_| {});
    assert_eq!(outcome.series.len(), 2);
    let kraken = &outcome.series[0];
    assert_eq!(kraken.provider, Provider::Kraken);
    assert_eq!(kraken.closes.len(), 719);
    assert_eq!(kraken.closes[0].date, d("2022-06-13"));
    assert_eq!(
        kraken.requests,
        vec![
            "/0/public/OHLC?pair=XBTEUR&interval=1440&since=1655010000".replace(
                "1655010000",
                &((day("2022-06-13") - 1) * 86_400).to_string()
            )
        ]
    );
    let coinbase = &outcome.series[1];
    assert_eq!(coinbase.closes.len(), missing.len() - 719);
    assert!(outcome.gaps.is_empty());
}

#[test]
fn a_malformed_body_is_refused_and_the_next_provider_asked() {
    let server = exchanges(
        "2024-03-01",
        vec![
            (
                Provider::Kraken,
                "ETHEUR",
                series("2024-01-01", "2024-03-01"),
            ),
            (
                Provider::Coinbase,
                "ETH-EUR",
                series("2024-01-01", "2024-03-01"),
            ),
        ],
        |path, _| {
            path.starts_with("/0/public/OHLC").then(|| {
                Reply::json("{\"error\":[],\"result\":{\"XETHZEUR\":[[1704067200,\"2200.1\"")
            })
        },
    );
    let pause = CountingPause::default();
    let mut client = client_for(&server, &pause);
    let missing = days("2024-02-01", "2024-02-10");
    let overrides = Overrides::new();
    let request = AssetRequest {
        asset: "ETH",
        missing: &missing,
        today: d("2024-03-01"),
        providers: &Provider::ALL,
        overrides: &overrides,
    };
    let outcome = fetch_asset(&mut client, &mut Catalog::default(), &request, |_| {});
    assert_eq!(outcome.series[0].provider, Provider::Coinbase);
    assert_eq!(outcome.series[0].closes.len(), 10);
    assert_eq!(outcome.bad_answers.len(), 1);
    let message = outcome.bad_answers[0].to_string();
    assert!(
        message.starts_with(&format!(
            "kraken sent an answer that cannot be used for {}/0/public/OHLC?pair=ETHEUR&interval=1440&since=",
            server.base()
        )),
        "{message}"
    );
    assert!(message.contains("malformed JSON"), "{message}");
}

#[test]
fn bad_prices_and_dates_outside_the_request_store_nothing_of_that_answer() {
    for body in [
        // A close of zero.
        providers::testing::shapes::binance(&[(day("2024-02-01"), "0")]),
        // A negative close.
        providers::testing::shapes::binance(&[(day("2024-02-01"), "-1.5")]),
        // A day after the request.
        providers::testing::shapes::binance(&[(day("2024-02-20"), "3.5")]),
    ] {
        let server = Server::start(Arc::new(move |_: &str, _| Reply::json(&body)));
        let pause = CountingPause::default();
        let mut client = client_for(&server, &pause);
        let missing = days("2024-02-01", "2024-02-02");
        let overrides = Overrides::new();
        let request = AssetRequest {
            asset: "ETH",
            missing: &missing,
            today: d("2024-03-01"),
            providers: &[Provider::Binance],
            overrides: &overrides,
        };
        let outcome = fetch_asset(&mut client, &mut Catalog::default(), &request, |_| {
            panic!("nothing is stored")
        });
        assert!(outcome.series.is_empty());
        assert_eq!(outcome.bad_answers.len(), 1);
        assert_eq!(outcome.gaps[0].days, 2);
    }
}
