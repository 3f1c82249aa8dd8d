use rust_decimal::Decimal;

use super::{SAVINGS_SCALE, savings_tax};
use crate::num::fiat;

fn check(year: i32, base: &str, expected: &str) {
    let base: Decimal = base.parse().unwrap();
    let tax = savings_tax(year, base).unwrap().unwrap();
    assert_eq!(fiat(tax.total), expected, "{year} {base}");
}

#[test]
fn scale_covers_2009_to_2026_exactly_once_with_increasing_bounds() {
    for year in 2009..=2026 {
        let count = SAVINGS_SCALE
            .iter()
            .filter(|p| p.from_year <= year && year <= p.to_year)
            .count();
        assert_eq!(count, 1, "{year}");
    }
    for year in [2008, 2027] {
        assert!(super::scale_for(year).is_none());
    }
    for period in SAVINGS_SCALE {
        assert!(period.from_year <= period.to_year);
        let (last, init) = period.brackets.split_last().unwrap();
        assert!(last.0.is_none(), "last bracket is unbounded");
        let mut previous_bound = 0;
        let mut previous_rate = 0;
        for (bound, rate) in init {
            let bound = bound.unwrap();
            assert!(bound > previous_bound);
            assert!(*rate >= previous_rate);
            previous_bound = bound;
            previous_rate = *rate;
        }
        assert!(last.1 >= previous_rate);
    }
}

#[test]
fn spec_test_vectors() {
    for (year, expected) in [
        (2009, "900.00"),
        (2010, "950.00"),
        (2012, "1050.00"),
        (2015, "975.00"),
        (2016, "950.00"),
        (2021, "950.00"),
        (2023, "950.00"),
        (2025, "950.00"),
    ] {
        check(year, "5000.00", expected);
    }
    for (year, expected) in [
        (2009, "5400.00"),
        (2010, "6180.00"),
        (2012, "7380.00"),
        (2015, "6330.00"),
        (2016, "6180.00"),
        (2021, "6180.00"),
        (2023, "6180.00"),
        (2025, "6180.00"),
    ] {
        check(year, "30000.00", expected);
    }
    for (year, expected) in [
        (2009, "68074.88"),
        (2010, "79300.70"),
        (2012, "101392.32"),
        (2015, "87755.54"),
        (2016, "85864.57"),
        (2021, "91210.39"),
        (2023, "93774.26"),
        (2025, "95338.14"),
    ] {
        check(year, "378193.79", expected);
    }
}

#[test]
fn brackets_are_listed_exactly() {
    let tax = savings_tax(2024, "378193.79".parse().unwrap())
        .unwrap()
        .unwrap();
    let rendered: Vec<String> = tax
        .brackets
        .iter()
        .map(|b| {
            format!(
                "{}-{} {} {} {}",
                b.lower,
                b.upper.map_or("∞".to_owned(), |u| u.to_string()),
                b.rate,
                b.taxed_amount,
                b.tax.normalize()
            )
        })
        .collect();
    assert_eq!(
        rendered,
        [
            "0-6000.00 0.1900 6000.00 1140",
            "6000.00-50000.00 0.2100 44000.00 9240",
            "50000.00-200000.00 0.2300 150000.00 34500",
            "200000.00-300000.00 0.2700 100000.00 27000",
            "300000.00-∞ 0.2800 78193.79 21894.2612",
        ]
    );
    assert_eq!(fiat(tax.total), "93774.26");
    let zero = savings_tax(2024, Decimal::ZERO).unwrap().unwrap();
    assert!(zero.brackets.is_empty());
    assert_eq!(fiat(zero.total), "0.00");
    assert!(savings_tax(2027, Decimal::ONE).unwrap().is_none());
}
