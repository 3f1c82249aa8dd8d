use rust_decimal::Decimal;

use super::*;

fn d(text: &str) -> Date {
    Date::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn a(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap()
}

fn x(text: &str) -> Decimal {
    Decimal::from_str_exact(text).unwrap()
}

fn rates() -> RateTable {
    RateTable::new([
        RateRow {
            currency: a("USD"),
            date: d("2023-04-06"),
            rate: x("1.0915"),
        },
        RateRow {
            currency: a("USD"),
            date: d("2023-04-11"),
            rate: x("1.0904"),
        },
        RateRow {
            currency: a("USD"),
            date: d("2023-12-29"),
            rate: x("1.1050"),
        },
        RateRow {
            currency: a("GBP"),
            date: d("2023-04-06"),
            rate: x("0.8765"),
        },
    ])
    .unwrap()
}

#[test]
fn rate_lookup_carries_back_without_age_limit_and_records_the_date() {
    let table = rates();
    let easter = table.rate(a("USD"), d("2023-04-09")).unwrap();
    assert_eq!(
        (easter.rate, easter.rate_date),
        (x("1.0915"), d("2023-04-06"))
    );
    let year_end = table.rate(a("USD"), d("2023-12-31")).unwrap();
    assert_eq!(
        crate::num::format(year_end.rate, crate::num::OutputClass::Rate),
        "1.105"
    );
    assert_eq!(year_end.rate_date, d("2023-12-29"));
    assert!(table.rate(a("USD"), d("2023-04-05")).is_none());
    assert!(table.rate(a("JPY"), d("2023-04-09")).is_none());
    assert_eq!(
        table.to_eur(x("10"), a("EUR"), d("1999-01-01")).unwrap(),
        Some((x("10"), None))
    );
    assert_eq!(
        table.to_eur(x("10"), a("JPY"), d("2023-04-09")).unwrap(),
        None
    );
}

#[test]
fn price_candidates_newest_first_then_eur_usd_alphabetical() {
    let prices = PriceTable::new([
        PriceRow {
            asset: a("ETH"),
            date: d("2023-04-08"),
            close: x("1700"),
            currency: a("GBP"),
        },
        PriceRow {
            asset: a("ETH"),
            date: d("2023-04-08"),
            close: x("1900"),
            currency: a("USD"),
        },
        PriceRow {
            asset: a("ETH"),
            date: d("2023-04-07"),
            close: x("1750"),
            currency: a("EUR"),
        },
        PriceRow {
            asset: a("XYZ"),
            date: d("2023-04-01"),
            close: x("1"),
            currency: a("EUR"),
        },
        PriceRow {
            asset: a("JJJ"),
            date: d("2023-04-09"),
            close: x("1"),
            currency: a("JPY"),
        },
    ])
    .unwrap();
    let table = rates();
    // 04-08 is newer than the EUR row of 04-07; USD comes before GBP; the rate of the
    // operation's date (04-09 → 1.0915 of 04-06) converts.
    match prices.lookup(a("ETH"), d("2023-04-09"), &table).unwrap() {
        PriceLookup::Found { price, fx, .. } => {
            assert_eq!(price.currency.asset(), a("USD"));
            assert_eq!(price.date, d("2023-04-08"));
            assert_eq!(fx.unwrap().rate_date, d("2023-04-06"));
        }
        other => panic!("{other:?}"),
    }
    // Exactly 7 days back is inside the window, 8 is outside.
    assert!(matches!(
        prices.lookup(a("XYZ"), d("2023-04-08"), &table).unwrap(),
        PriceLookup::Found { .. }
    ));
    assert_eq!(
        prices.lookup(a("XYZ"), d("2023-04-09"), &table).unwrap(),
        PriceLookup::MissingPrice
    );
    assert_eq!(
        prices.lookup(a("JJJ"), d("2023-04-09"), &table).unwrap(),
        PriceLookup::MissingFxRate
    );
    assert_eq!(
        prices.lookup(a("NOPE"), d("2023-04-09"), &table).unwrap(),
        PriceLookup::MissingPrice
    );
    // A price dated after d is never a candidate.
    assert_eq!(
        prices.lookup(a("XYZ"), d("2023-03-31"), &table).unwrap(),
        PriceLookup::MissingPrice
    );
}

#[test]
fn tables_refuse_bad_rows() {
    assert!(
        RateTable::new([RateRow {
            currency: a("USD"),
            date: d("2023-01-01"),
            rate: x("0")
        }])
        .is_err()
    );
    assert!(
        PriceTable::new([PriceRow {
            asset: a("BTC"),
            date: d("2023-01-01"),
            close: x("1"),
            currency: a("USDT")
        }])
        .is_err()
    );
}

#[test]
fn sparse_series_over_centuries_still_answer() {
    let prices = PriceTable::new([
        PriceRow {
            asset: a("OLD"),
            date: d("1700-01-01"),
            close: x("1"),
            currency: a("EUR"),
        },
        PriceRow {
            asset: a("OLD"),
            date: d("2023-04-08"),
            close: x("2"),
            currency: a("EUR"),
        },
    ])
    .unwrap();
    match prices.lookup(a("OLD"), d("2023-04-09"), &rates()).unwrap() {
        PriceLookup::Found { close_eur, .. } => assert_eq!(close_eur, x("2")),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        prices.lookup(a("OLD"), d("1800-01-01"), &rates()).unwrap(),
        PriceLookup::MissingPrice
    );
}

#[test]
fn a_cursor_answers_as_the_table_forward_backward_and_for_unknown_assets() {
    let row = |asset: &str, date: &str, close: &str, currency: &str| PriceRow {
        asset: a(asset),
        date: d(date),
        close: x(close),
        currency: a(currency),
    };
    let prices = PriceTable::new([
        row("ETH", "2023-04-03", "1600", "EUR"),
        row("ETH", "2023-04-07", "1750", "EUR"),
        row("ETH", "2023-04-08", "1900", "USD"),
        row("ETH", "2023-04-08", "1700", "GBP"),
        row("ETH", "2023-04-20", "1800", "JPY"),
        row("BTC", "2023-04-05", "27000", "EUR"),
    ])
    .unwrap();
    let rates = rates();
    let start = d("2023-03-30");
    let days: Vec<Date> = (0..40).map(|i| start + chrono::Days::new(i)).collect();
    // Forward (the sweep), then a few dates out of order.
    let order = days.iter().copied().chain([
        d("2023-04-08"),
        d("2023-04-01"),
        d("2023-04-30"),
        d("2023-04-07"),
    ]);
    for asset in ["ETH", "BTC", "XYZ"] {
        let mut cursor = prices.cursor(a(asset));
        for day in order.clone() {
            assert_eq!(
                cursor.lookup(day, &rates).unwrap(),
                prices.lookup(a(asset), day, &rates).unwrap(),
                "{asset} {day}"
            );
        }
    }
}

fn close(asset: &str, date: &str, currency: &str, value: &str) -> PriceRow {
    PriceRow {
        asset: a(asset),
        date: d(date),
        close: x(value),
        currency: a(currency),
    }
}

#[test]
fn the_builder_takes_closes_in_any_order_and_the_last_repeat_wins() {
    // Interleaved assets, currencies out of order, and a repeated key.
    let rows = [
        close("ETH", "2023-04-10", "USD", "2000"),
        close("BTC", "2023-04-10", "EUR", "26000"),
        close("ETH", "2023-04-09", "EUR", "1800"),
        close("ETH", "2023-04-10", "EUR", "1850"),
        close("BTC", "2023-04-09", "EUR", "25000"),
        close("ETH", "2023-04-10", "EUR", "1860"),
    ];
    let mut builder = PriceTableBuilder::new();
    for row in rows {
        builder.push(row);
    }
    let table = builder.finish().unwrap();
    let rates = rates();
    let PriceLookup::Found { close_eur, .. } =
        table.lookup(a("ETH"), d("2023-04-10"), &rates).unwrap()
    else {
        panic!("no ETH close");
    };
    assert_eq!(close_eur, x("1860"));
    assert_eq!(
        table.latest_closes(),
        vec![
            (a("BTC"), a("EUR"), d("2023-04-10"), x("26000")),
            (a("ETH"), a("EUR"), d("2023-04-10"), x("1860")),
            (a("ETH"), a("USD"), d("2023-04-10"), x("2000")),
        ]
    );
}

#[test]
fn the_builder_reports_the_first_invalid_close() {
    let mut builder = PriceTableBuilder::new();
    builder.push(close("ETH", "2023-04-10", "EUR", "-1"));
    builder.push(close("ETH", "2023-04-11", "BTC", "1"));
    let err = builder.finish().unwrap_err();
    assert!(err.to_string().contains("2023-04-10"), "{err}");
}

/// Closes of `assets`, `days` each from 2015-01-01, asset by asset; two quote currencies for
/// the first asset.
fn many_closes(assets: &[&str], days: u64) -> Vec<PriceRow> {
    let mut rows = Vec::new();
    for (n, symbol) in (0_i64..).zip(assets) {
        for day in 0..days {
            let date = d("2015-01-01") + chrono::Days::new(day);
            let close = Decimal::new(1_000 + i64::try_from(day).unwrap() * 7 + n, 2);
            rows.push(PriceRow {
                asset: a(symbol),
                date,
                close,
                currency: a("EUR"),
            });
            if n == 0 && day % 3 == 0 {
                rows.push(PriceRow {
                    asset: a(symbol),
                    date,
                    close,
                    currency: a("USD"),
                });
            }
        }
    }
    rows
}

/// Tables built from the two halves of a list and joined equal the table of the whole list:
/// halves split where the asset changes (no asset in common) and halves of a list not grouped
/// by asset (assets in both).
#[test]
fn joined_halves_equal_one_build() {
    let grouped = many_closes(&["BTC", "ETH", "ADA", "SOL", "DOT"], 900);
    let mut interleaved = grouped.clone();
    interleaved.sort_by_key(|row| (row.date, row.asset));
    for rows in [&grouped, &interleaved] {
        let (lower, upper) = rows.split_at(rows.len() / 2);
        let build = |rows: &[PriceRow]| PriceTable::new(rows.iter().copied()).unwrap();
        let joined = build(lower).join(build(upper));
        assert_eq!(format!("{joined:?}"), format!("{:?}", build(rows)));
        assert_eq!(joined.assets.len(), 5);
    }
}

/// Joining tables equals building one from both lists, the later list winning a repeated
/// close; the quote currencies come in candidate order.
#[test]
fn join_equals_one_build_and_quote_currencies_are_in_candidate_order() {
    let rows = many_closes(&["BTC", "ETH"], 30);
    let (first, second) = rows.split_at(40);
    let mut later = second.to_vec();
    // A repeated (asset, date, currency) in the later list, with another close.
    let mut repeated = first[3];
    repeated.close = x("1.23");
    later.push(repeated);
    let joined = PriceTable::new(first.iter().copied())
        .unwrap()
        .join(PriceTable::new(later.iter().copied()).unwrap());
    let one = PriceTable::new(first.iter().chain(&later).copied()).unwrap();
    assert_eq!(format!("{joined:?}"), format!("{one:?}"));
    assert_eq!(joined.quote_currencies(), [a("EUR"), a("USD")]);
    assert!(PriceTable::default().quote_currencies().is_empty());
}

#[test]
fn the_day_index_answers_as_a_search_over_the_points() {
    // Gaps, two candidates on one day, a single point and a week-long run.
    let rank = CurrencyRank::of(a("EUR")).expect("EUR ranks");
    let day = |n: i64| d("2024-02-26") + chrono::Days::new(n.unsigned_abs());
    for offsets in [
        vec![0_i64],
        vec![0, 1, 2, 3, 4, 5, 6],
        vec![0, 3, 3, 9, 10, 40],
    ] {
        let points: Vec<PricePoint> = offsets.iter().map(|&n| (day(n), rank, x("1"))).collect();
        let series = Series::new(points.clone());
        for n in 0..=45 {
            let at = day(n);
            let expected = points.partition_point(|p| p.0 <= at);
            assert_eq!(series.up_to(at).len(), expected, "{offsets:?} at {at}");
        }
        let before = d("2024-02-20");
        assert!(
            series.up_to(before).is_empty(),
            "{offsets:?} before the first"
        );
    }
}
