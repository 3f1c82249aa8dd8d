//! The savings scale as data and the estimated tax on the savings base (`irpf.md` §6).

use rust_decimal::Decimal;

use crate::error::DomainResult;
use crate::num;

/// One period of the savings scale: the years it covers and its brackets as
/// `(upper bound in cents, rate in hundredths of a percent)`; `None` = no upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScalePeriod {
    /// First year covered.
    pub from_year: i32,
    /// Last year covered.
    pub to_year: i32,
    /// `(upper bound in euro cents, rate in basis points)`, the last one unbounded.
    pub brackets: &'static [(Option<i64>, i64)],
    /// The law that sets it.
    pub source: &'static str,
}

/// The savings scale (state + regional halves, territorio común). A later year is added by
/// appending a row.
pub const SAVINGS_SCALE: &[ScalePeriod] = &[
    ScalePeriod {
        from_year: 2009,
        to_year: 2009,
        brackets: &[(None, 1800)],
        source: "Ley 35/2006, original arts. 66 and 76",
    },
    ScalePeriod {
        from_year: 2010,
        to_year: 2011,
        brackets: &[(Some(600_000), 1900), (None, 2100)],
        source: "Ley 26/2009",
    },
    ScalePeriod {
        from_year: 2012,
        to_year: 2014,
        brackets: &[(Some(600_000), 2100), (Some(2_400_000), 2500), (None, 2700)],
        source: "RDL 20/2011, extended by Ley 22/2013",
    },
    ScalePeriod {
        from_year: 2015,
        to_year: 2015,
        brackets: &[(Some(600_000), 1950), (Some(5_000_000), 2150), (None, 2350)],
        source: "DA 31ª LIRPF (RDL 9/2015)",
    },
    ScalePeriod {
        from_year: 2016,
        to_year: 2020,
        brackets: &[(Some(600_000), 1900), (Some(5_000_000), 2100), (None, 2300)],
        source: "Ley 26/2014",
    },
    ScalePeriod {
        from_year: 2021,
        to_year: 2022,
        brackets: &[
            (Some(600_000), 1900),
            (Some(5_000_000), 2100),
            (Some(20_000_000), 2300),
            (None, 2600),
        ],
        source: "Ley 11/2020",
    },
    ScalePeriod {
        from_year: 2023,
        to_year: 2024,
        brackets: &[
            (Some(600_000), 1900),
            (Some(5_000_000), 2100),
            (Some(20_000_000), 2300),
            (Some(30_000_000), 2700),
            (None, 2800),
        ],
        source: "Ley 31/2022",
    },
    ScalePeriod {
        from_year: 2025,
        to_year: 2026,
        brackets: &[
            (Some(600_000), 1900),
            (Some(5_000_000), 2100),
            (Some(20_000_000), 2300),
            (Some(30_000_000), 2700),
            (None, 3000),
        ],
        source: "Ley 7/2024",
    },
];

/// The scale period covering `year`, if any.
pub fn scale_for(year: i32) -> Option<&'static ScalePeriod> {
    SAVINGS_SCALE
        .iter()
        .find(|p| p.from_year <= year && year <= p.to_year)
}

/// One bracket reached by a base (exact; `tax` unrounded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BracketTax {
    /// Lower bound (EUR).
    pub lower: Decimal,
    /// Upper bound (EUR), `None` for the last bracket.
    pub upper: Option<Decimal>,
    /// Rate as a fraction (0.19).
    pub rate: Decimal,
    /// Part of the base in this bracket.
    pub taxed_amount: Decimal,
    /// `taxed_amount × rate`, unrounded.
    pub tax: Decimal,
}

/// The estimated tax on a savings base: rounded total and per-bracket detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavingsTax {
    /// `round_half_up(Σ bracket tax, 2)`.
    pub total: Decimal,
    /// Every bracket the base reached, lowest first.
    pub brackets: Vec<BracketTax>,
}

/// The tax of `irpf.md` §6 on `base` in `year`, or `None` when the year has no scale.
pub fn savings_tax(year: i32, base: Decimal) -> DomainResult<Option<SavingsTax>> {
    let Some(period) = scale_for(year) else {
        return Ok(None);
    };
    let ctx = "savings tax";
    let mut lower = Decimal::ZERO;
    let mut sum = Decimal::ZERO;
    let mut brackets = Vec::new();
    for &(upper_cents, rate_bp) in period.brackets {
        if base <= lower {
            break;
        }
        let upper = upper_cents.map(|c| Decimal::new(c, 2));
        let top = match upper {
            Some(u) if u < base => u,
            _ => base,
        };
        let taxed_amount = num::sub(top, lower, ctx)?;
        let rate = Decimal::new(rate_bp, 4);
        let tax = num::mul(taxed_amount, rate, ctx)?;
        sum = num::add(sum, tax, ctx)?;
        brackets.push(BracketTax {
            lower,
            upper,
            rate,
            taxed_amount,
            tax,
        });
        match upper {
            Some(u) => lower = u,
            None => break,
        }
    }
    Ok(Some(SavingsTax {
        total: num::to_cents(sum),
        brackets,
    }))
}

#[cfg(test)]
mod tests;
