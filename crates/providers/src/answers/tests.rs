use super::*;

fn ok(body: &str) -> Answer<'_> {
    Answer {
        status: 200,
        content_type: Some("application/json"),
        body: body.as_bytes(),
    }
}

fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn candles(parsed: Parsed) -> Vec<(i64, String)> {
    match parsed {
        Parsed::Candles(c) => c.into_iter().map(|(t, v)| (t, v.to_string())).collect(),
        Parsed::NotListed(why) => panic!("not listed: {why}"),
    }
}

// Kraken docs example (docs.kraken.com `get-ohlc-data`), first two rows.
const KRAKEN_DOCS: &str = r#"{"error": [], "result": {"XXBTZUSD": [[1688671200, "30306.1", "30306.2", "30305.7", "30305.7", "30306.1", "3.39243896", 23], [1688671260, "30304.5", "30304.5", "30300.0", "30300.0", "30300.0", "4.42996871", 18]], "last": 1688672160}}"#;

#[test]
fn kraken_reads_the_pair_key_and_the_close_field() {
    let got = candles(kraken(&ok(KRAKEN_DOCS)).unwrap());
    assert_eq!(
        got,
        vec![
            (1_688_671_200, "30305.7".to_owned()),
            (1_688_671_260, "30300.0".to_owned())
        ]
    );
}

#[test]
fn kraken_errors_come_in_a_200() {
    // Bodies from the reference's error table (python-kraken-sdk, live-checked adapters).
    let unknown = kraken(&ok(r#"{"error":["EQuery:Unknown asset pair"]}"#)).unwrap();
    assert_eq!(
        unknown,
        Parsed::NotListed("EQuery:Unknown asset pair".to_owned())
    );
    let invalid = kraken(&ok(r#"{"error":["EGeneral:Invalid arguments"]}"#)).unwrap_err();
    assert_eq!(invalid, "Kraken error EGeneral:Invalid arguments");
    assert!(kraken_throttled(
        br#"{"error":["EGeneral:Too many requests"]}"#
    ));
    assert!(!kraken_throttled(KRAKEN_DOCS.as_bytes()));
}

#[test]
fn coinbase_reads_close_at_position_five_of_newest_first_numbers() {
    // Polimec `COINBASE_DOT_CORRECT` (1-minute candles).
    let body =
        "[[1701879120,6.138,6.15,6.142,6.15,446.879],[1701879060,6.128,6.141,6.13,6.141,988.289]]";
    let got = candles(coinbase(&ok(body)).unwrap());
    assert_eq!(
        got,
        vec![
            (1_701_879_120, "6.15".to_owned()),
            (1_701_879_060, "6.141".to_owned())
        ]
    );
    let unknown = Answer {
        status: 404,
        content_type: Some("application/json"),
        body: br#"{"message":"NotFound"}"#,
    };
    assert_eq!(
        coinbase(&unknown).unwrap(),
        Parsed::NotListed(r#"HTTP 404: {"message":"NotFound"}"#.to_owned())
    );
}

#[test]
fn bitvavo_reads_milliseconds_and_string_closes() {
    // ccxt `ts/src/test/static/response/bitvavo.json`.
    let body = r#"[[1702354080000,"38766","38766","38766","38766","0.00012865"],[1702354020000,"38761","38764","38761","38761","0.27526588"]]"#;
    let got = candles(bitvavo(&ok(body)).unwrap());
    assert_eq!(got[1], (1_702_354_020, "38761".to_owned()));
    let refused = Answer {
        status: 400,
        content_type: Some("application/json"),
        body: br#"{"errorCode":205,"error":"market parameter NOPE-EUR is invalid."}"#,
    };
    assert!(
        matches!(bitvavo(&refused).unwrap(), Parsed::NotListed(w) if w.contains("NOPE-EUR is invalid"))
    );
}

#[test]
fn binance_reads_the_docs_kline() {
    // Binance spot docs, "Kline/Candlestick data" example.
    let body = r#"[[1499040000000,"0.01634790","0.80000000","0.01575800","0.01577100","148976.11427815",1499644799999,"2434.19055334",308,"1756.87402397","28.46694368","0"]]"#;
    assert_eq!(
        candles(binance(&ok(body)).unwrap()),
        vec![(1_499_040_000, "0.01577100".to_owned())]
    );
    let invalid = Answer {
        status: 400,
        content_type: Some("application/json"),
        body: br#"{"code":-1121,"msg":"Invalid symbol."}"#,
    };
    assert!(matches!(binance(&invalid).unwrap(), Parsed::NotListed(_)));
}

#[test]
fn bitstamp_reads_string_fields() {
    // Polimec `BITSTAMP_USDT_CORRECT`.
    let body = r#"{"data": {"ohlc": [{"close": "1.00010", "high": "1.00010", "low": "1.00010", "open": "1.00010", "timestamp": "1701877320", "volume": "44595.11593"}], "pair": "USDT/USD"}}"#;
    assert_eq!(
        candles(bitstamp(&ok(body)).unwrap()),
        vec![(1_701_877_320, "1.00010".to_owned())]
    );
}

#[test]
fn coingecko_snapshots_close_the_previous_day_and_drop_the_now_point() {
    // Public Go snippet of 2024-01-01 quoted in the reference (trailing intraday "now" point).
    let body = r#"{"prices":[[1704067200000,42208.2],[1704125232000,42773.36]],"market_caps":[[1704067200000,827596236151.1959],[1704125232000,838184180847.9264]],"total_volumes":[[1704067200000,14183728910.169804],[1704125232000,13108507724.910725]]}"#;
    let got = candles(coingecko(&ok(body)).unwrap());
    assert_eq!(got, vec![(1_703_980_800, "42208.2".to_owned())]);
    let window = Window {
        from: d("2023-12-31"),
        to: d("2023-12-31"),
        today: d("2024-01-01"),
        strict_end: true,
    };
    let settled = settle(
        &coingecko(&ok(body))
            .map(|p| match p {
                Parsed::Candles(c) => c,
                Parsed::NotListed(_) => Vec::new(),
            })
            .unwrap(),
        window,
    )
    .unwrap();
    assert_eq!(settled.len(), 1);
    assert_eq!(settled[0].date, d("2023-12-31"));
    assert_eq!(settled[0].close.to_string(), "42208.2");
    // The 365-day window refusal (SixPM-Software/waxtax PR #8), an HTTP 401.
    let window_error = Answer {
        status: 401,
        content_type: Some("application/json"),
        body: br#"{"error":{"status":{"timestamp":"2024-04-20T22:00:05.123+00:00","error_code":10012,"error_message":"Your request exceeds the allowed time range."}}}"#,
    };
    assert!(
        matches!(coingecko(&window_error).unwrap(), Parsed::NotListed(w) if w.starts_with("HTTP 401"))
    );
}

#[test]
fn numbers_with_exponents_are_read_exactly() {
    let body = "[[1704067200,1e-5,2,3,1.5E-7,4]]";
    assert_eq!(
        candles(coinbase(&ok(body)).unwrap()),
        vec![(1_704_067_200, "0.00000015".to_owned())]
    );
}

#[test]
fn malformed_and_mistyped_answers_are_refused_with_an_excerpt() {
    let error = binance(&ok("[[1499040000000,\"0.1\"")).unwrap_err();
    assert!(error.starts_with("malformed JSON"), "{error}");
    let html = Answer {
        status: 200,
        content_type: Some("text/html; charset=utf-8"),
        body: b"<html>Just a moment...</html>",
    };
    assert_eq!(
        coingecko(&html).unwrap_err(),
        "the answer is text/html; charset=utf-8, not JSON: <html>Just a moment...</html>"
    );
    assert_eq!(
        binance(&ok("[[1499040000000]]")).unwrap_err(),
        "a row has no close (position 5)"
    );
    assert_eq!(
        coinbase(&ok("[[1704067200,1,2,3,\"abc\",4]]")).unwrap_err(),
        "abc is not a number"
    );
}

fn window(from: &str, to: &str, today: &str) -> Window {
    Window {
        from: d(from),
        to: d(to),
        today: d(today),
        strict_end: true,
    }
}

#[test]
fn settle_keeps_final_days_inside_the_request() {
    let c = |t: i64, v: &str| (t, v.parse::<Decimal>().unwrap());
    // 2024-01-01 = 1704067200; today's running candle (2024-01-03) is dropped.
    let rows = [
        c(1_704_067_200, "10"),
        c(1_704_153_600, "11"),
        c(1_704_240_000, "12"),
    ];
    let got = settle(&rows, window("2024-01-01", "2024-01-02", "2024-01-03")).unwrap();
    assert_eq!(
        got.iter()
            .map(|c| (c.date, c.close.to_string()))
            .collect::<Vec<_>>(),
        vec![
            (d("2024-01-01"), "10".to_owned()),
            (d("2024-01-02"), "11".to_owned())
        ]
    );
}

#[test]
fn settle_refuses_bad_days_and_prices() {
    let c = |t: i64, v: &str| (t, v.parse::<Decimal>().unwrap());
    let w = window("2024-01-02", "2024-01-03", "2024-02-01");
    assert_eq!(
        settle(&[c(1_704_067_200, "10")], w).unwrap_err(),
        "a candle of 2024-01-01 is before the first day asked, 2024-01-02"
    );
    assert_eq!(
        settle(&[c(1_704_412_800, "10")], w).unwrap_err(),
        "a candle of 2024-01-05 is after the last day asked, 2024-01-03"
    );
    assert_eq!(
        settle(&[c(1_704_153_600, "0")], w).unwrap_err(),
        "the close of 2024-01-02 is 0, not positive"
    );
    assert_eq!(
        settle(&[c(1_704_153_600, "-3")], w).unwrap_err(),
        "the close of 2024-01-02 is -3, not positive"
    );
    assert_eq!(
        settle(&[c(1_704_153_660, "3")], w).unwrap_err(),
        "time 1704153660 is not the start of a UTC day"
    );
    assert_eq!(
        settle(&[c(1_704_153_600, "3"), c(1_704_153_600, "4")], w).unwrap_err(),
        "two different closes for 2024-01-02: 3 and 4"
    );
    // Kraken answers up to now: later candles are ignored, not refused.
    let kraken = Window {
        strict_end: false,
        ..w
    };
    assert_eq!(
        settle(&[c(1_704_412_800, "10")], kraken).unwrap(),
        Vec::new()
    );
}

#[test]
fn kraken_pairs_map_legacy_codes_and_aliases_back_to_cartera_symbols() {
    // Pairs as in rotki `rotkehlchen/tests/data/assets_kraken.json` (AssetPairs, 2021-12):
    // `XXBTZEUR` (altname `XBTEUR`), `XETHZEUR` (`ETHEUR`), `XDGEUR` (base `XXDG`), `SOLEUR`,
    // `USDTEUR`, a dark-pool `.d` pair and a USD pair.
    let body = r#"{"error":[],"result":{
        "XXBTZEUR":{"altname":"XBTEUR","wsname":"XBT/EUR","base":"XXBT","quote":"ZEUR"},
        "XXBTZEUR.d":{"altname":"XBTEUR.d","base":"XXBT","quote":"ZEUR"},
        "XETHZEUR":{"altname":"ETHEUR","wsname":"ETH/EUR","base":"XETH","quote":"ZEUR"},
        "XDGEUR":{"altname":"XDGEUR","wsname":"XDG/EUR","base":"XXDG","quote":"ZEUR"},
        "SOLEUR":{"altname":"SOLEUR","wsname":"SOL/EUR","base":"SOL","quote":"ZEUR"},
        "USDTEUR":{"altname":"USDTEUR","wsname":"USDT/EUR","base":"USDT","quote":"ZEUR"},
        "XXBTZUSD":{"altname":"XBTUSD","wsname":"XBT/USD","base":"XXBT","quote":"ZUSD"}}}"#;
    let pairs = kraken_eur_pairs(&ok(body)).unwrap();
    assert_eq!(
        pairs.into_iter().collect::<Vec<_>>(),
        vec![
            ("BTC".to_owned(), "XBTEUR".to_owned()),
            ("DOGE".to_owned(), "XDGEUR".to_owned()),
            ("ETH".to_owned(), "ETHEUR".to_owned()),
            ("SOL".to_owned(), "SOLEUR".to_owned()),
            ("USDT".to_owned(), "USDTEUR".to_owned()),
        ]
    );
    assert_eq!(
        kraken_eur_pairs(&ok(r#"{"error":["EGeneral:Too many requests"]}"#)).unwrap_err(),
        "Kraken error EGeneral:Too many requests"
    );
}
