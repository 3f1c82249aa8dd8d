//! One reader per export family (§2).

pub(crate) mod binance;
pub(crate) mod bit2me;
pub(crate) mod bitunix;
pub(crate) mod bitvavo;
pub(crate) mod bybit;
pub(crate) mod coinbase;
pub(crate) mod cryptocom;
pub(crate) mod extra;
pub(crate) mod futures;
pub(crate) mod generic;
pub(crate) mod kraken;
pub(crate) mod kucoin;
pub(crate) mod legs;
pub(crate) mod okx;
pub(crate) mod revolut;

use rust_decimal::Decimal;

use crate::pipeline::Ctx;
use crate::values;

/// A number cell of an export that writes small changes in exponent notation (Binance
/// `-3.605E-05`, Bitvavo `3.8e-07`): read exactly, the exponent bounded
/// ([`values::parse_decimal_exp`]); a plain cell is read as every other number.
pub(crate) fn dec_exp(
    ctx: &mut Ctx,
    line: u64,
    col: Option<usize>,
    text: &str,
    signed: bool,
) -> Option<Decimal> {
    if !text.contains(['e', 'E']) {
        return ctx.dec(line, col, text, signed);
    }
    let parsed = values::parse_decimal_exp(text);
    let refused_sign = !signed && matches!(parsed, Ok(v) if v.is_sign_negative() && !v.is_zero());
    ctx.number(
        (line, col),
        text,
        parsed,
        refused_sign,
        "a plain decimal number or a number in exponent notation such as 3.8E-7",
        || {
            format!(
                "\"{text}\" has more than 28 significant or 28 fractional digits, or an exponent beyond ±{}",
                values::MAX_EXPONENT
            )
        },
    )
}

/// The type the user's label map gives `label` of `profile`, if any.
pub(crate) fn mapped(
    options: &crate::model::ImportOptions,
    profile: crate::model::Profile,
    label: &str,
) -> Option<shared_types::SpotTxType> {
    let id = profile.id();
    options
        .label_map
        .iter()
        .find(|m| m.profile == id && m.label.eq_ignore_ascii_case(label.trim()))
        .map(|m| m.tx_type)
}

/// How to book a label cartera does not read: the `--map` option and the setting.
pub(crate) fn map_hint(profile: crate::model::Profile, label: &str) -> String {
    let short = match profile {
        crate::model::Profile::BinanceStatement => "binance",
        crate::model::Profile::KrakenLedgers => "kraken",
        other => other.id(),
    };
    let label = label.replace('\'', "");
    format!(
        "; to book it, map it to a type: cartera import --map '{short}:{label}=TYPE' (or add it to the setting import.label_map), TYPE one of STAKING, REWARD, AIRDROP, PROMOTION, SPEND, FEE, TRANSFER_IN, TRANSFER_OUT, DEPOSIT, WITHDRAWAL, MINING, FORK"
    )
}

/// Whether a mapped type books the row's asset on the out side.
pub(crate) fn is_out(ty: shared_types::SpotTxType) -> bool {
    use shared_types::SpotTxType as T;
    matches!(ty, T::Spend | T::Fee | T::TransferOut | T::Withdrawal)
}
