//! Decimal value types, rounding and output formatting (`domain.md` §1.1 to §1.3).
//!
//! `Money` and friends deliberately implement no `Add`/`Sub`/`Mul`/`Div`: rust_decimal's
//! operators panic on overflow, so every operation here is checked and returns a `Result`.

use rust_decimal::{Decimal, RoundingStrategy};

use crate::error::{DomainError, DomainResult};

pub use rust_decimal::Decimal as Dec;

/// "Half-up" of the specification: midpoints away from zero (`domain.md` §1.3).
pub const HALF_UP: RoundingStrategy = RoundingStrategy::MidpointAwayFromZero;

/// Scale of fiscal cents.
pub const CENTS: u32 = 2;

/// Parses a decimal string of `domain.md` §1.1; `-0` is accepted and means zero.
pub fn parse_decimal(field: &str, text: &str, allow_sign: bool) -> DomainResult<Decimal> {
    let invalid = || DomainError::InvalidAmount {
        field: field.to_owned(),
        text: text.to_owned(),
    };
    if !shared_types::decimal::is_decimal_string(text, allow_sign) {
        return Err(invalid());
    }
    let mut value = Decimal::from_str_exact(text).map_err(|_| invalid())?;
    if value.is_zero() {
        value.set_sign_positive(true);
    }
    Ok(value)
}

/// Rounds half-up (away from zero) to `scale` decimals; zero loses its sign.
pub fn round_half_up(value: Decimal, scale: u32) -> Decimal {
    let mut rounded = fast_round_half_up(value, scale)
        .unwrap_or_else(|| value.round_dp_with_strategy(scale, HALF_UP));
    if rounded.is_zero() {
        rounded.set_sign_positive(true);
    }
    rounded
}

/// `value > 0` without a general comparison (`Decimal`'s `cmp` rescales; hot loops test the
/// sign of quantities many times per slice).
#[inline]
pub fn is_positive(value: Decimal) -> bool {
    !value.is_zero() && value.is_sign_positive()
}

/// `value.round_dp_with_strategy(scale, HALF_UP)` by one 128-bit division of the mantissa
/// (rust_decimal's generic path divides, multiplies back and builds its midpoint by repeated
/// multiplication: several hundred instructions per call, and the engine rounds per slice).
/// Same result bit for bit: the magnitude is divided by `10^(old scale − scale)`, a remainder
/// of at least half the divisor rounds away from zero, and the result has scale `scale`.
/// `None` when the value needs no rounding or a bound does not hold (the caller falls back).
fn fast_round_half_up(value: Decimal, scale: u32) -> Option<Decimal> {
    let old_scale = value.scale();
    if old_scale <= scale {
        return None;
    }
    let divisor = 10u128.checked_pow(old_scale - scale)?;
    let magnitude = value.mantissa().unsigned_abs();
    let quotient = magnitude / divisor;
    let remainder = magnitude % divisor;
    let quotient = if remainder >= divisor - remainder {
        quotient.checked_add(1)?
    } else {
        quotient
    };
    let quotient = i128::try_from(quotient).ok()?;
    let signed = if value.is_sign_negative() {
        quotient.checked_neg()?
    } else {
        quotient
    };
    Decimal::try_from_i128_with_scale(signed, scale).ok()
}

/// Rounds half-up to cents.
pub fn to_cents(value: Decimal) -> Decimal {
    round_half_up(value, CENTS)
}

/// The allocation rule of `domain.md` §1.3 over `weights` (in the order given): every part
/// but the last is `round_half_up(A_rem × w_i ÷ W_rem, 2)` of the amount and weight not yet
/// allocated, the last takes the exact remainder, so the parts always sum to `amount`. Weights
/// are non-negative; once the remaining weight is zero the remaining parts are zero but the
/// last, which still takes what is left.
pub fn allocate_cents(
    amount: Decimal,
    weights: &[Decimal],
    context: &(impl std::fmt::Display + ?Sized),
) -> DomainResult<Vec<Decimal>> {
    let mut amount_left = amount;
    let mut weight_left = Decimal::ZERO;
    for w in weights {
        weight_left = add(weight_left, *w, context)?;
    }
    let mut parts = Vec::with_capacity(weights.len());
    for (index, w) in weights.iter().enumerate() {
        let part = if index.saturating_add(1) == weights.len() {
            amount_left
        } else if weight_left.is_zero() {
            Decimal::ZERO
        } else {
            to_cents(div(mul(amount_left, *w, context)?, weight_left, context)?)
        };
        amount_left = sub(amount_left, part, context)?;
        weight_left = sub(weight_left, *w, context)?;
        parts.push(part);
    }
    Ok(parts)
}

/// Whether `value` is an exact cent amount (at most two significant decimals).
pub fn is_cents(value: Decimal) -> bool {
    value.normalize().scale() <= CENTS
}

/// 10^15: a value the engine determines has fewer digits before the point than that (at most
/// 15), the bound every amount read at import keeps (D-84, D-146). A value beyond it comes
/// only from absurd inputs multiplied together (a quadrillion units at a quadrillion per unit)
/// and is treated as unknown, so every sum the engine makes of values stays far from overflow.
pub const VALUE_LIMIT: Decimal = Decimal::from_parts(0xA4C6_8000, 0x0003_8D7E, 0, false, 0);

/// `a × b` rounded half-up to cents, or `None` when the product overflows or its magnitude
/// reaches [`VALUE_LIMIT`] (D-146): a value out of range, never an error.
#[inline]
pub fn cents_product(a: Decimal, b: Decimal) -> Option<Decimal> {
    within_limit(to_cents(a.checked_mul(b)?))
}

/// `value` when its magnitude is below [`VALUE_LIMIT`], else `None` (D-146). Compared on the
/// mantissa (`|m| < 10^(15 + scale)`): a `Decimal` comparison rescales, and the daily series
/// checks every asset's value of every day.
#[inline]
pub fn within_limit(value: Decimal) -> Option<Decimal> {
    // 10^(15 + scale) beyond u128 (scale > 23) is beyond any mantissa (< 2^96) too.
    let inside = 10u128
        .checked_pow(15 + value.scale())
        .is_none_or(|bound| value.mantissa().unsigned_abs() < bound);
    inside.then_some(value)
}

/// `a × part ÷ whole` for a share `part ≤ whole` of `a` (an allocation, a quantity or cost
/// split). When `a × part` is beyond a decimal (a quadrillion euros of a quadrillion units),
/// the quotient `part ÷ whole` (at most one) is taken first, so a share never overflows
/// (D-146); the exact product is used whenever it fits, so ordinary figures are unchanged.
pub fn share(
    a: Decimal,
    part: Decimal,
    whole: Decimal,
    context: &(impl std::fmt::Display + ?Sized),
) -> DomainResult<Decimal> {
    match a.checked_mul(part) {
        Some(product) => div(product, whole, context),
        None => mul(a, div(part, whole, context)?, context),
    }
}

/// Checked addition naming its context on overflow.
pub fn add(
    a: Decimal,
    b: Decimal,
    context: &(impl std::fmt::Display + ?Sized),
) -> DomainResult<Decimal> {
    a.checked_add(b)
        .ok_or_else(|| DomainError::overflow(context.to_string()))
}

/// Checked subtraction naming its context on overflow.
pub fn sub(
    a: Decimal,
    b: Decimal,
    context: &(impl std::fmt::Display + ?Sized),
) -> DomainResult<Decimal> {
    a.checked_sub(b)
        .ok_or_else(|| DomainError::overflow(context.to_string()))
}

/// Checked multiplication naming its context on overflow.
pub fn mul(
    a: Decimal,
    b: Decimal,
    context: &(impl std::fmt::Display + ?Sized),
) -> DomainResult<Decimal> {
    a.checked_mul(b)
        .ok_or_else(|| DomainError::overflow(context.to_string()))
}

/// Checked division naming its context on overflow or a zero divisor.
pub fn div(
    a: Decimal,
    b: Decimal,
    context: &(impl std::fmt::Display + ?Sized),
) -> DomainResult<Decimal> {
    if b.is_zero() {
        return Err(DomainError::DivisionByZero {
            context: context.to_string(),
        });
    }
    a.checked_div(b)
        .ok_or_else(|| DomainError::overflow(context.to_string()))
}

/// Output classes of `domain.md` §1.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputClass {
    /// Half-up to 2 decimals, always 2 printed.
    Fiat,
    /// Half-up to 12 decimals, trailing zeros removed.
    UnitPrice,
    /// Exact, trailing zeros removed.
    Quantity,
    /// Half-up to 2 decimals, always 2 printed.
    Percent,
    /// Half-up to 4 decimals, always 4 printed.
    Ratio,
    /// As stored, trailing zeros removed.
    Rate,
}

/// Formats `value` by its output class; never produces an exponent or a signed zero.
pub fn format(value: Decimal, class: OutputClass) -> String {
    match class {
        OutputClass::Fiat | OutputClass::Percent => fixed(value, 2),
        OutputClass::Ratio => fixed(value, 4),
        OutputClass::UnitPrice => trimmed(round_half_up(value, 12)),
        OutputClass::Quantity | OutputClass::Rate => trimmed(value),
    }
}

/// Formats a fiscal or fiat amount (`FIAT` class).
pub fn fiat(value: Decimal) -> String {
    format(value, OutputClass::Fiat)
}

/// Formats a quantity (`QUANTITY` class).
pub fn quantity(value: Decimal) -> String {
    format(value, OutputClass::Quantity)
}

fn fixed(value: Decimal, scale: u32) -> String {
    let mut rounded = round_half_up(value, scale);
    rounded.rescale(scale);
    rounded.to_string()
}

fn trimmed(value: Decimal) -> String {
    let mut normal = value.normalize();
    if normal.is_zero() {
        normal.set_sign_positive(true);
    }
    // `normalize` can leave a negative scale out of the picture: Decimal never prints an
    // exponent through Display, so `100` stays `100`.
    normal.to_string()
}

/// A quantity of an asset; non-negative for holdings, signed only as a delta.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Quantity(Decimal);

/// An amount of money, EUR unless a currency travels with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(Decimal);

/// A unit price (money per unit), non-negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Price(Decimal);

/// Units of a foreign currency per 1 EUR, strictly positive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate(Decimal);

/// A dimensionless ratio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ratio(Decimal);

macro_rules! decimal_newtype {
    ($name:ident, $label:literal) => {
        impl $name {
            /// The zero value.
            pub const ZERO: $name = $name(Decimal::ZERO);

            /// The underlying decimal.
            pub const fn get(self) -> Decimal {
                self.0
            }

            /// Checked addition.
            pub fn checked_add(self, other: Self) -> DomainResult<Self> {
                add(self.0, other.0, $label).map(Self)
            }

            /// Checked subtraction.
            pub fn checked_sub(self, other: Self) -> DomainResult<Self> {
                sub(self.0, other.0, $label).map(Self)
            }

            /// Whether the value is zero.
            pub fn is_zero(self) -> bool {
                self.0.is_zero()
            }
        }
    };
}

decimal_newtype!(Quantity, "quantity");
decimal_newtype!(Money, "money");
decimal_newtype!(Ratio, "ratio");

impl Quantity {
    /// A quantity from any decimal (signed deltas included).
    pub const fn new(value: Decimal) -> Self {
        Self(value)
    }

    /// Parses a quantity string; `allow_sign` only for deltas and fiat rebates.
    pub fn parse(field: &str, text: &str, allow_sign: bool) -> DomainResult<Self> {
        parse_decimal(field, text, allow_sign).map(Self)
    }

    /// The smaller of two quantities.
    pub fn min(self, other: Self) -> Self {
        if self <= other { self } else { other }
    }
}

impl Money {
    /// Money from any decimal; fiscal values should come through [`Money::cents`].
    pub const fn new(value: Decimal) -> Self {
        Self(value)
    }

    /// Rounds half-up to cents, the moment a fiscal value is determined (`domain.md` §1.3).
    pub fn cents(value: Decimal) -> Self {
        Self(to_cents(value))
    }

    /// Parses a money string.
    pub fn parse(field: &str, text: &str, allow_sign: bool) -> DomainResult<Self> {
        parse_decimal(field, text, allow_sign).map(Self)
    }

    /// The negated amount.
    pub fn negated(self) -> Self {
        let mut value = -self.0;
        if value.is_zero() {
            value.set_sign_positive(true);
        }
        Self(value)
    }

    /// Formats as `FIAT`.
    pub fn to_fiat_string(self) -> String {
        fiat(self.0)
    }
}

impl Price {
    /// A price; negative prices are refused.
    pub fn new(value: Decimal) -> DomainResult<Self> {
        if value.is_sign_negative() && !value.is_zero() {
            return Err(DomainError::InvalidAmount {
                field: "price".to_owned(),
                text: value.to_string(),
            });
        }
        Ok(Self(value))
    }

    /// The underlying decimal.
    pub const fn get(self) -> Decimal {
        self.0
    }
}

impl Rate {
    /// A rate; it must be strictly positive.
    pub fn new(value: Decimal) -> DomainResult<Self> {
        if value <= Decimal::ZERO {
            return Err(DomainError::InvalidAmount {
                field: "rate".to_owned(),
                text: value.to_string(),
            });
        }
        Ok(Self(value))
    }

    /// The underlying decimal.
    pub const fn get(self) -> Decimal {
        self.0
    }
}

impl Ratio {
    /// A ratio from any decimal.
    pub const fn new(value: Decimal) -> Self {
        Self(value)
    }
}

#[cfg(test)]
mod tests;
