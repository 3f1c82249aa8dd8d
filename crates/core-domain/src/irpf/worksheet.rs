//! Worksheets for the AEAT forms on year-end holdings: the Modelo 721 annex fields per foreign
//! custodian and coin, with the 50,000 EUR threshold and the 20,000 EUR increase rule
//! evaluated, and Modelo 714 apartado Q with the total of casilla 46. They are worksheets to
//! copy from, not the XML message (721) nor the fixed-width file (714).

use rust_decimal::Decimal;

use super::guide::coin_name;
use super::year_end::{Decision721, YearEndHoldings};
use crate::asset::Asset;
use crate::error::DomainResult;
use crate::num;

/// The 721 threshold: no filing when the foreign balances jointly do not exceed it.
pub const THRESHOLD_721: Decimal = Decimal::from_parts(5_000_000, 0, 0, false, 2);
/// The increase over the last filed total that makes a new filing due.
pub const INCREASE_721: Decimal = Decimal::from_parts(2_000_000, 0, 0, false, 2);

/// A 31 December close in EUR and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YearEndClose {
    /// EUR per unit, exact.
    pub close_eur: Decimal,
    /// Where the close came from (the price row's date and currency, the ECB conversion).
    pub origin: String,
}

/// One registro de detalle of the 721 annex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row721 {
    /// Clave de condición del declarante (T = titular).
    pub clave: char,
    /// The custodian's name.
    pub custodian: String,
    /// Its country (ISO 3166-1 alpha-2) when known.
    pub country: Option<String>,
    /// Denominación de la moneda virtual.
    pub coin: String,
    /// Siglas.
    pub siglas: String,
    /// Units, rounded half-up to 6 decimals (numérico 20,6).
    pub units: Decimal,
    /// EUR per unit on 31 December, rounded half-up to 6 decimals; `None` when unvalued.
    pub unit_value: Option<Decimal>,
    /// Where that value came from.
    pub value_origin: Option<String>,
    /// Saldo: the entry's value in EUR (units × close, to cents); `None` when unvalued.
    pub balance: Option<Decimal>,
    /// Origen: A (first time), M (declared before), C (condition lost).
    pub origin: char,
}

/// The Modelo 721 worksheet of a year.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worksheet721 {
    /// The year (31 December).
    pub year: i32,
    /// The decision of the threshold rules.
    pub decision: Decision721,
    /// Σ in-scope balances.
    pub total: Decimal,
    /// The last filed total, when one is known.
    pub last_filed_total: Option<Decimal>,
    /// `total − last_filed_total`, when one is known.
    pub increase: Option<Decimal>,
    /// 1 January … 31 March of the next year.
    pub filing_window: (crate::Date, crate::Date),
    /// The annex rows.
    pub rows: Vec<Row721>,
}

/// One line of Modelo 714 apartado Q.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row714 {
    /// P (pleno dominio).
    pub clave: char,
    /// % titularidad (100.00).
    pub ownership: Decimal,
    /// Descripción: the coin's name.
    pub description: String,
    /// Número de unidades (15 + 9 decimals: rounded half-up to 9).
    pub units: Decimal,
    /// Valor (euros), to cents; `None` when unvalued.
    pub value: Option<Decimal>,
}

/// Modelo 714 apartado Q.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worksheet714 {
    /// The year.
    pub year: i32,
    /// One line per coin.
    pub rows: Vec<Row714>,
    /// Casilla 46: Σ of the printed values.
    pub total_46: Decimal,
    /// Σ units × close, unrounded, over the valued coins.
    pub unrounded_total: Decimal,
    /// Coins without a value (left out of casilla 46).
    pub unvalued: Vec<String>,
}

/// `value` rounded half-up to `scale` decimals and written with exactly that many (the
/// forms' fixed numeric formats).
fn fixed(value: Decimal, scale: u32) -> Decimal {
    let mut v = num::round_half_up(value, scale);
    // Only pads: the value has at most `scale` decimals after the rounding.
    v.rescale(scale);
    v
}

fn add(a: Decimal, b: Decimal) -> DomainResult<Decimal> {
    num::add(a, b, "worksheet")
}

/// The Modelo 721 worksheet from the year-end holdings.
pub fn worksheet_721(
    holdings: &YearEndHoldings,
    close: &dyn Fn(Asset) -> Option<YearEndClose>,
) -> DomainResult<Worksheet721> {
    let m = &holdings.modelo_721;
    let declared_before = m.last_filed_total.is_some();
    let mut rows = Vec::new();
    for custodian in &m.custodians {
        for entry in &custodian.entries {
            if entry.units.is_zero() {
                continue;
            }
            let found = close(entry.asset);
            rows.push(Row721 {
                clave: 'T',
                custodian: custodian.name.clone(),
                country: custodian.country.clone(),
                coin: coin_name(entry.asset.as_str()),
                siglas: entry.asset.as_str().to_owned(),
                units: fixed(entry.units, 6),
                unit_value: found.as_ref().map(|c| fixed(c.close_eur, 6)),
                value_origin: found.map(|c| c.origin),
                balance: entry.value,
                origin: if declared_before { 'M' } else { 'A' },
            });
        }
    }
    for (custodian, asset) in &m.vanished_positions {
        let country = m
            .custodians
            .iter()
            .find(|c| &c.name == custodian)
            .and_then(|c| c.country.clone());
        rows.push(Row721 {
            clave: 'T',
            custodian: custodian.clone(),
            country,
            coin: coin_name(asset.as_str()),
            siglas: asset.as_str().to_owned(),
            units: fixed(Decimal::ZERO, 6),
            unit_value: None,
            value_origin: None,
            balance: Some(Decimal::ZERO),
            origin: 'C',
        });
    }
    let increase = match m.last_filed_total {
        Some(last) => Some(num::sub(m.total_721, last, "worksheet")?),
        None => None,
    };
    Ok(Worksheet721 {
        year: holdings.year,
        decision: m.decision,
        total: m.total_721,
        last_filed_total: m.last_filed_total,
        increase,
        filing_window: m.filing_window,
        rows,
    })
}

/// Modelo 714 apartado Q from the year-end holdings: one line per coin, casilla 46 the sum of
/// the printed lines, and the unrounded total beside it.
pub fn worksheet_714(
    holdings: &YearEndHoldings,
    close: &dyn Fn(Asset) -> Option<YearEndClose>,
) -> DomainResult<Worksheet714> {
    let mut rows = Vec::new();
    let mut total = Decimal::ZERO;
    let mut unrounded = Decimal::ZERO;
    let mut unvalued = Vec::new();
    for (asset, units, value) in &holdings.modelo_714.per_asset {
        if units.is_zero() {
            continue;
        }
        match value {
            Some(v) => {
                total = add(total, *v)?;
                if let Some(c) = close(*asset) {
                    unrounded = add(unrounded, num::mul(*units, c.close_eur, "worksheet")?)?;
                }
            }
            None => unvalued.push(asset.as_str().to_owned()),
        }
        rows.push(Row714 {
            clave: 'P',
            ownership: Decimal::ONE_HUNDRED,
            description: coin_name(asset.as_str()),
            units: fixed(*units, 9),
            value: *value,
        });
    }
    Ok(Worksheet714 {
        year: holdings.year,
        rows,
        total_46: total,
        unrounded_total: unrounded,
        unvalued,
    })
}
