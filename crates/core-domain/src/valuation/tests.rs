use proptest::prelude::*;
use rust_decimal::Decimal;

use super::Prices;
use crate::asset::Asset;
use crate::market::{Market, PriceRow, RateRow};
use crate::time::Date;

fn day(offset: i64) -> Date {
    Date::from_ymd_opt(2024, 3, 1)
        .and_then(|d| d.checked_add_signed(chrono::TimeDelta::days(offset)))
        .unwrap()
}

fn asset(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap()
}

/// BTC quoted in EUR every other day, ETH in USD on days 0–9 (USD rates from day 3), and
/// XYZ never: found, carried back, unconvertible and missing answers.
fn market() -> Market {
    let prices = (0..20)
        .step_by(2)
        .map(|i| PriceRow {
            asset: asset("BTC"),
            date: day(i),
            close: Decimal::new(60_000 + i, 0),
            currency: asset("EUR"),
        })
        .chain((0..10).map(|i| PriceRow {
            asset: asset("ETH"),
            date: day(i),
            close: Decimal::new(3_000 + i, 0),
            currency: asset("USD"),
        }));
    let rates = (3..20).map(|i| RateRow {
        currency: asset("USD"),
        date: day(i),
        rate: Decimal::new(10_800 + i, 4),
    });
    Market::new(rates, prices).unwrap()
}

proptest! {
    /// The memo (an asset's series and its last answer) answers every sequence of lookups
    /// as the table does, repeated dates and assets without closes included.
    #[test]
    fn memoised_lookups_equal_the_table(
        lookups in proptest::collection::vec((0usize..3, 0i64..30), 1..60)
    ) {
        let market = market();
        let mut prices = Prices::new(&market);
        for (which, offset) in lookups {
            let symbol = ["BTC", "ETH", "XYZ"][which];
            let date = day(offset);
            prop_assert_eq!(
                prices.price(asset(symbol), date),
                market.price_raw(asset(symbol), date)
            );
        }
    }
}
