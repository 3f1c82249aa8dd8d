//! Formatting helpers: every figure through `core_domain::num::format` and its output class.

use core_domain::engine::FlagSet;
use core_domain::num::{self, OutputClass};
use core_domain::{Date, Instant};
use rust_decimal::Decimal;

pub(crate) fn fiat(value: Decimal) -> String {
    num::format(value, OutputClass::Fiat)
}

pub(crate) fn fiat_opt(value: Option<Decimal>) -> Option<String> {
    value.map(fiat)
}

pub(crate) fn qty(value: Decimal) -> String {
    num::format(value, OutputClass::Quantity)
}

pub(crate) fn unit(value: Decimal) -> String {
    num::format(value, OutputClass::UnitPrice)
}

pub(crate) fn pct(value: Decimal) -> String {
    num::format(value, OutputClass::Percent)
}

pub(crate) fn ratio(value: Decimal) -> String {
    num::format(value, OutputClass::Ratio)
}

pub(crate) fn rate(value: Decimal) -> String {
    num::format(value, OutputClass::Rate)
}

pub(crate) fn date(value: Date) -> String {
    core_domain::time::format_date(value)
}

pub(crate) fn instant(value: Instant) -> String {
    value.to_string()
}

pub(crate) fn flags(set: FlagSet) -> Vec<String> {
    set.iter().map(|f| f.as_str().to_owned()).collect()
}

pub(crate) fn count(n: usize) -> u64 {
    n as u64
}

/// Quantities not covered by acquisitions, per asset, as the wire's gap items.
pub(crate) fn gap_items(
    uncovered: &[(core_domain::Asset, Decimal)],
) -> Vec<shared_types::dto::GapItem> {
    uncovered
        .iter()
        .map(|(asset, quantity)| shared_types::dto::GapItem {
            symbol: asset.to_string(),
            amount: qty(*quantity),
        })
        .collect()
}
