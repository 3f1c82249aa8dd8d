//! `GetModeloWorksheets`: the Modelo 721 and Modelo 714 (apartado Q) worksheets of a year,
//! from the year-end holdings of its report.

use core_domain::irpf::worksheet::{
    INCREASE_721, THRESHOLD_721, YearEndClose, worksheet_714, worksheet_721,
};
use core_domain::market::PriceLookup;
use core_domain::{Asset, Date, num};
use shared_types::dto::{
    ModeloWorksheetsDto, Worksheet714Dto, Worksheet714RowDto, Worksheet721Dto, Worksheet721RowDto,
};

use super::convert::{date, fiat, fiat_opt};
use super::state::Derived;
use super::tax::{check_year, year_report};
use crate::error::{UseCaseError, UseCaseResult};

/// The close of `asset` on 31 December of `year` with where it came from.
fn year_end_close(derived: &Derived, year: i32, asset: Asset) -> Option<YearEndClose> {
    let day = Date::from_ymd_opt(year, 12, 31)?;
    match derived.valuation_market().price(asset, day) {
        Ok(PriceLookup::Found {
            close_eur,
            price,
            fx,
        }) => {
            let origin = match fx {
                Some(fx) => format!(
                    "daily close of {} in {} (cartera price store), ECB rate {} of {}",
                    price.date, price.currency, fx.rate, fx.rate_date
                ),
                None => format!(
                    "daily close of {} in {} (cartera price store)",
                    price.date, price.currency
                ),
            };
            Some(YearEndClose { close_eur, origin })
        }
        _ => None,
    }
}

/// Both worksheets of `year`.
pub(crate) fn worksheets(derived: &Derived, year: i32) -> UseCaseResult<ModeloWorksheetsDto> {
    check_year("year", year)?;
    let report = year_report(derived, year, true)?;
    let holdings =
        report
            .year_end_holdings
            .as_ref()
            .ok_or_else(|| UseCaseError::InvalidRequest {
                field: "year".to_owned(),
                reason: format!("no year-end holdings for {year}"),
            })?;
    let close = |asset: Asset| year_end_close(derived, year, asset);
    let w721 = worksheet_721(holdings, &close)?;
    let w714 = worksheet_714(holdings, &close)?;
    let difference = num::sub(w714.unrounded_total, w714.total_46, "worksheet")?;
    Ok(ModeloWorksheetsDto {
        modelo721: Worksheet721Dto {
            year: w721.year,
            decision: w721.decision.as_str().to_owned(),
            total: fiat(w721.total),
            threshold: fiat(THRESHOLD_721),
            last_filed_total: fiat_opt(w721.last_filed_total),
            increase: fiat_opt(w721.increase),
            increase_limit: fiat(INCREASE_721),
            filing_from: date(w721.filing_window.0),
            filing_to: date(w721.filing_window.1),
            rows: w721
                .rows
                .iter()
                .map(|r| Worksheet721RowDto {
                    clave: r.clave.to_string(),
                    custodian: r.custodian.clone(),
                    country: r.country.clone(),
                    coin: r.coin.clone(),
                    siglas: r.siglas.clone(),
                    units: r.units.to_string(),
                    unit_value: r.unit_value.map(|v| v.to_string()),
                    value_origin: r.value_origin.clone(),
                    balance: fiat_opt(r.balance),
                    origin: r.origin.to_string(),
                })
                .collect(),
        },
        modelo714: Worksheet714Dto {
            year: w714.year,
            rows: w714
                .rows
                .iter()
                .map(|r| Worksheet714RowDto {
                    clave: r.clave.to_string(),
                    ownership: fiat(r.ownership),
                    description: r.description.clone(),
                    units: r.units.to_string(),
                    value: fiat_opt(r.value),
                })
                .collect(),
            total46: fiat(w714.total_46),
            unrounded_total: w714.unrounded_total.normalize().to_string(),
            rounding_difference: difference.normalize().to_string(),
            unvalued: w714.unvalued,
        },
    })
}
