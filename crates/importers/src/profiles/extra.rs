//! The further exchanges (issue 22): their detection definitions, their dispatch, and the
//! helpers their one-row readers share (labels, signs, one-row sub-wallet moves).
//!
//! Each exchange has its own module; this one keeps the edits to the shared pipeline to a
//! table and two calls.

use core_domain::Asset;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::model::{ImportOptions, Profile, SkipReason};
use crate::pipeline::{self, Ctx, Def, Draft, GroupRef, ProfileOutput};
use crate::reader::Records;

/// Detection of the further exchanges (`imports.md` §1.4 semantics).
pub(crate) const DEFS: &[Def] = &[
    Def {
        profile: Profile::CryptocomApp,
        required: &super::cryptocom::REQUIRED,
        forbidden: &[],
        layouts: &[("v2", &["Transaction Hash"]), ("v1", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::RevolutCrypto,
        required: &super::revolut::REQUIRED,
        forbidden: &[],
        layouts: &[("", &[])],
        exactly_one: false,
    },
    // The same profile's statement before 2023 (a second definition: no column is common to
    // both but `Type`).
    Def {
        profile: Profile::RevolutCrypto,
        required: &super::revolut::V1,
        forbidden: &[],
        layouts: &[("v1", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Bit2me,
        required: &super::bit2me::REQUIRED,
        forbidden: &[],
        layouts: &[("", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Bitunix,
        required: &super::bitunix::REQUIRED,
        forbidden: &[],
        layouts: &[("", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::REQUIRED,
        forbidden: &[],
        layouts: super::kucoin::LAYOUTS,
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::TRADES_V4,
        forbidden: &[],
        layouts: &[("trades-v4", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::TRADES_V3,
        forbidden: &[],
        layouts: &[("trades-v3", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::TRADES_V2,
        forbidden: &[],
        layouts: &[("trades-v2", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::TRADES_V1,
        forbidden: &["amount_coin"],
        layouts: &[("trades-v1", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::ORDERS_V1,
        forbidden: &[],
        layouts: &[("orders-v1", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::WITHDRAWALS_OLD,
        forbidden: &["UID"],
        layouts: &[("withdrawals-old", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::WITHDRAWALS_OLDEST,
        forbidden: &["UID"],
        layouts: &[("withdrawals-old", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::DEPOSITS_OLD,
        forbidden: &["UID", "Wallet Address/Account", "Wallet Address"],
        layouts: &[("deposits-old", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Kucoin,
        required: &super::kucoin::MOVEMENTS_OLD,
        forbidden: &[],
        layouts: &[("movements-old", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Okx,
        required: &super::okx::REQUIRED,
        forbidden: &[],
        layouts: super::okx::LAYOUTS,
        exactly_one: false,
    },
    // OKX's older generations, each a definition of its own (they share no column with the
    // current histories' `id,Time,Amount,Symbol`).
    Def {
        profile: Profile::Okx,
        required: &super::okx::TRADING_V1,
        forbidden: &[],
        layouts: &[("trading-v1", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Okx,
        required: &super::okx::FILLS,
        forbidden: &[],
        layouts: &[("fills", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Okx,
        required: &super::okx::BILLS,
        forbidden: &[],
        layouts: &[("bills", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Bybit,
        required: &super::bybit::REQUIRED,
        forbidden: &[],
        layouts: &[("spot", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Bybit,
        required: &super::bybit::FUNDING,
        forbidden: &[],
        layouts: &[("funding", &[])],
        exactly_one: false,
    },
    Def {
        profile: Profile::Bybit,
        required: &super::bybit::DEPOSITS_V1,
        forbidden: &[],
        layouts: &[("deposits-v1", &[])],
        exactly_one: false,
    },
];

/// Whether a header cell that would be refused (`duplicate-header`, or an empty cell:
/// `unknown-column`) is a shape of the profile's real export: OKX's older trading history names
/// two columns `Unit` (the amount's and the balance's), its older funding history has an
/// unnamed second column.
pub(crate) fn header_quirk(format: &crate::model::FormatInfo, code: &str, cell: &str) -> bool {
    format.profile == Profile::Okx
        && match (format.layout, code) {
            ("trading-v1", "duplicate-header") => cell.eq_ignore_ascii_case("Unit"),
            ("funding", "unknown-column") => cell.is_empty(),
            _ => false,
        }
}

/// Whether the profile's export is downloaded as an `.xlsx` workbook (read by `workbook.rs`);
/// any other workbook is refused.
pub(crate) fn reads_workbooks(profile: Profile) -> bool {
    profile == Profile::Bit2me
}

/// Whether `--timezone` applies to the profile (its timestamps may carry no zone).
pub(crate) fn takes_timezone(profile: Profile) -> bool {
    // Revolut writes some dates with a zone and others without: each cell says (§1.7).
    matches!(
        profile,
        Profile::RevolutCrypto | Profile::Kucoin | Profile::Okx | Profile::Bybit
    ) || needs_timezone(profile).is_some()
}

/// The timestamp column of a profile whose timestamps never carry a zone: the file needs
/// `--timezone` (`timezone-required` on that header cell otherwise).
pub(crate) fn needs_timezone(profile: Profile) -> Option<&'static str> {
    match profile {
        Profile::Bit2me => Some("Fecha"),
        _ => None,
    }
}

/// Reads the rows into drafts (the whole-file path).
pub(crate) fn read(
    profile: Profile,
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
) -> ProfileOutput {
    let mut drafts = Vec::new();
    read_into(
        profile,
        ctx,
        records,
        account,
        layout,
        options,
        &mut |_, d| drafts.push(d),
    );
    ProfileOutput {
        drafts,
        futures: Vec::new(),
    }
}

/// Reads the rows, handing each draft to `emit` (in file order, except where a profile says
/// otherwise).
pub(crate) fn read_into(
    profile: Profile,
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    layout: &str,
    options: &ImportOptions,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    match profile {
        Profile::CryptocomApp => super::cryptocom::read_into(ctx, records, account, emit),
        Profile::RevolutCrypto if layout == "v1" => {
            super::revolut::read_v1_into(ctx, records, account, options, emit);
        }
        Profile::RevolutCrypto => super::revolut::read_into(ctx, records, account, options, emit),
        Profile::Bit2me => super::bit2me::read_into(ctx, records, account, options, emit),
        Profile::Bitunix => super::bitunix::read_into(ctx, records, account, emit),
        Profile::Kucoin => super::kucoin::read_into(ctx, records, account, layout, options, emit),
        Profile::Okx if layout == "fills" => {
            super::okx::read_fills_into(ctx, records, account, options, emit);
        }
        Profile::Okx if layout == "bills" => {
            super::okx::read_bills_into(ctx, records, account, options, emit);
        }
        Profile::Okx => super::okx::read_into(ctx, records, account, layout, options, emit),
        Profile::Bybit => super::bybit::read_into(ctx, records, account, layout, options, emit),
        _ => {}
    }
}

/// A `YYYY-MM-DD HH:MM:SS` cell in the local time of `zone`; without a zone (no preamble
/// states one and no `--timezone`), `timezone-required`.
pub(crate) fn local_stamp(
    ctx: &mut Ctx,
    line: u64,
    col: Option<usize>,
    text: &str,
    zone: Option<crate::model::Zone>,
) -> Option<core_domain::Instant> {
    let Some(zone) = zone else {
        ctx.err(
            line,
            col,
            "timezone-required",
            "these timestamps carry no time zone; pass --timezone".to_owned(),
        );
        return None;
    };
    ctx.utc_stamp(line, col, text, b" ", false, "YYYY-MM-DD HH:MM:SS", zone)
}

/// `unknown-type` naming the label and the profile.
pub(crate) fn unknown_type(ctx: &mut Ctx, line: u64, col: Option<usize>, id: &str, label: &str) {
    ctx.err(
        line,
        col,
        "unknown-type",
        format!("unknown {id} type \"{label}\""),
    );
}

/// `unsupported-type` with its reason.
pub(crate) fn unsupported_type(
    ctx: &mut Ctx,
    line: u64,
    col: Option<usize>,
    id: &str,
    label: &str,
    reason: &str,
) {
    ctx.err(
        line,
        col,
        "unsupported-type",
        format!(
            "{id} type \"{label}\" is not supported: {reason}; record it with the generic format"
        ),
    );
}

/// Checks that `amount` is non-zero and has the sign the label demands (`sign-mismatch`,
/// `not-positive`); `false` when it fails.
pub(crate) fn check_sign(
    ctx: &mut Ctx,
    line: u64,
    col: Option<usize>,
    amount: Decimal,
    positive: bool,
    (label, cell): (&str, &str),
) -> bool {
    if amount.is_zero() {
        ctx.err(
            line,
            col,
            "not-positive",
            format!("\"{cell}\" must be greater than zero"),
        );
        return false;
    }
    if amount.is_sign_positive() != positive {
        let word = if positive { "positive" } else { "negative" };
        ctx.err(
            line,
            col,
            "sign-mismatch",
            format!("\"{label}\" rows must have a {word} amount"),
        );
        return false;
    }
    true
}

/// The transfer type of an inflow or outflow: fiat `DEPOSIT`/`WITHDRAWAL`, crypto
/// `TRANSFER_IN`/`TRANSFER_OUT`.
pub(crate) fn transfer_type(asset: Asset, inflow: bool) -> SpotTxType {
    match (asset.is_fiat(), inflow) {
        (true, true) => SpotTxType::Deposit,
        (true, false) => SpotTxType::Withdrawal,
        (false, true) => SpotTxType::TransferIn,
        (false, false) => SpotTxType::TransferOut,
    }
}

/// Makes `d` the one-sided move of `quantity` `asset` in (`inflow`) or out: fiat
/// `DEPOSIT`/`WITHDRAWAL`, crypto `TRANSFER_IN`/`TRANSFER_OUT`.
pub(crate) fn set_transfer(d: &mut Draft, asset: Asset, quantity: Decimal, inflow: bool) {
    d.ty = transfer_type(asset, inflow);
    if inflow {
        d.inflow = Some(pipeline::amount(asset, quantity));
    } else {
        d.outflow = Some(pipeline::amount(asset, quantity));
    }
}

/// Makes `d` a `BUY` of `own` paying `other` (`bought`), or a `SELL` of `own` for `other`.
pub(crate) fn set_trade(
    d: &mut Draft,
    bought: bool,
    own: core_domain::ledger::AssetAmount,
    other: core_domain::ledger::AssetAmount,
) {
    if bought {
        d.ty = SpotTxType::Buy;
        d.inflow = Some(own);
        d.outflow = Some(other);
    } else {
        d.ty = SpotTxType::Sell;
        d.inflow = Some(other);
        d.outflow = Some(own);
    }
}

/// A sub-wallet move written as one row (`imports.md` §1.17): `d` (its key, fee and lines
/// set) becomes the `TRANSFER_OUT` on `from`, followed by the `TRANSFER_IN` on `to` (role
/// `move-in`, no fee); both share the identity of the `TRANSFER_OUT` as group. A fiat asset
/// is skipped as `internal-movement` (nothing is returned).
pub(crate) fn one_row_move(
    ctx: &mut Ctx,
    mut d: Draft,
    (asset, quantity): (Asset, Decimal),
    from: String,
    to: String,
) -> Vec<Draft> {
    if asset.is_fiat() || from.eq_ignore_ascii_case(&to) {
        ctx.skip(SkipReason::InternalMovement, 1 + d.extra_lines.len() as u64);
        return Vec::new();
    }
    if d.key_account.is_none() {
        d.key_account = Some(d.account.clone());
    }
    d.account = from;
    d.ty = SpotTxType::TransferOut;
    d.outflow = Some(pipeline::amount(asset, quantity));
    d.inflow = None;
    d.group = GroupRef::FirstIdentity;
    let mut i = d.with_role("move-in".to_owned());
    i.account = to;
    i.ty = SpotTxType::TransferIn;
    i.inflow = Some(pipeline::amount(asset, quantity));
    i.outflow = None;
    i.fee = None;
    i.fiat_value = None;
    vec![d, i]
}

/// The key account of a draft booked on a child of `account` (content keys name the file's
/// account, `imports.md` §1.14).
pub(crate) fn child(account: &str, segment: &str) -> String {
    format!("{account}:{segment}")
}

/// Whether header cell `cell` is the column `name` (ASCII case folding). A name ending in
/// `(UTC*)` matches a column whose name states its zone: `Filled Time(UTC)`,
/// `Filled Time(UTC+08:00)` (KuCoin writes the download's zone into the header).
pub(crate) fn header_matches(cell: &str, name: &str) -> bool {
    // OKX writes a byte-order mark before its header cells.
    let cell = cell.trim_start_matches('\u{feff}');
    let Some(prefix) = name.strip_suffix("(UTC*)") else {
        return cell.eq_ignore_ascii_case(name);
    };
    cell.get(..prefix.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        && cell
            .get(prefix.len()..)
            .is_some_and(|z| header_zone(z).is_some())
}

/// The zone of a header suffix `(UTC)`, `(UTC+0)`, `(UTC+8)` or `(UTC±HH:MM)`.
pub(crate) fn header_zone(suffix: &str) -> Option<crate::model::Zone> {
    let inner = suffix.strip_prefix("(UTC")?.strip_suffix(')')?;
    utc_offset(inner)
}

/// An offset written after `UTC`: empty (UTC itself), `+0`, `+8`, `-3:30`, `+08:00`.
pub(crate) fn utc_offset(text: &str) -> Option<crate::model::Zone> {
    if text.is_empty() {
        return Some(crate::model::Zone::Utc);
    }
    let (sign, rest) = text.split_at_checked(1)?;
    if sign != "+" && sign != "-" {
        return None;
    }
    let (h, m) = rest.split_once(':').unwrap_or((rest, "00"));
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    crate::values::parse_zone(&format!("{sign}{h:0>2}:{m}"))
}

/// A time cell `YYYY-MM-DD HH:MM:SS` (or `…T…`, with fractions), placed in the zone the cell
/// states (`Z`, ` UTC`, `±HH:MM`), else in `zone` (the header's, or `--timezone`);
/// `timezone-required` when neither states one (no zone is assumed, §1.16).
pub(crate) fn zoned_instant(
    ctx: &mut Ctx,
    line: u64,
    col: Option<usize>,
    text: &str,
    zone: Option<crate::model::Zone>,
) -> Option<core_domain::Instant> {
    let Some(stamp) = crate::values::parse_stamp(text, b" T", false, true) else {
        ctx.err(
            line,
            col,
            "bad-timestamp",
            format!("\"{text}\" is not a timestamp of the form YYYY-MM-DD HH:MM:SS"),
        );
        return None;
    };
    if let Some(z) = stamp.zone.or(zone) {
        ctx.place(line, col, stamp.local, z)
    } else {
        ctx.err(
            line,
            col,
            "timezone-required",
            "these timestamps carry no time zone; pass --timezone".to_owned(),
        );
        None
    }
}

/// Refuses a recognised export that is not read (a file-level `header-mismatch` naming it and
/// the export to download instead).
pub(crate) fn refuse(ctx: &mut Ctx, what: &str, instead: &str) {
    let f = ctx.header.error(
        0,
        "header-mismatch",
        format!("this is {what}, which is not read; {instead}"),
    );
    ctx.findings.push(f);
}

/// The side a `Deposit`/`Withdrawal` cell states (KuCoin's account history `Side`):
/// `Some(true)` for money in; `unknown-type` otherwise.
pub(crate) fn side_word(
    ctx: &mut Ctx,
    line: u64,
    col: Option<usize>,
    id: &str,
    word: &str,
) -> Option<bool> {
    match word.to_ascii_lowercase().as_str() {
        "deposit" => Some(true),
        "withdrawal" => Some(false),
        _ => {
            unknown_type(ctx, line, col, id, word);
            None
        }
    }
}

/// The columns `names` (matched as [`header_matches`] matches), warning once for every other
/// non-empty column that is not `informative` (§1.3).
pub(crate) fn columns(
    ctx: &mut Ctx,
    names: &[&str],
    informative: &[&str],
    profile: Profile,
) -> Vec<Option<usize>> {
    let cols: Vec<Option<usize>> = names
        .iter()
        .map(|n| ctx.header.cells.iter().position(|c| header_matches(c, n)))
        .collect();
    let unknown: Vec<usize> = (0..ctx.header.cells.len())
        .filter(|i| {
            let cell = &ctx.header.cells[*i];
            !cols.contains(&Some(*i))
                && !cell.is_empty()
                && !informative.iter().any(|n| header_matches(cell, n))
        })
        .collect();
    pipeline::ignore_unknown(ctx, &unknown, profile);
    cols
}

/// Books `d` as a credit of `side` typed `ty`, when the type allows that side (§1.6; the
/// finding is reported on `col` otherwise).
pub(crate) fn credit(
    ctx: &mut Ctx,
    mut d: Draft,
    ty: SpotTxType,
    side: (Asset, Decimal),
    col: Option<usize>,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    d.ty = ty;
    d.inflow = Some(pipeline::amount(side.0, side.1));
    if ctx.shape(d.line, (col, col), ty, d.inflow.as_ref(), None) {
        emit(ctx, d);
    }
}

/// A one-row move between `account` and its Earn child `account:earn`: out of the account into
/// Earn when `into_earn`, back otherwise (KuCoin and Bybit Earn subscriptions, D-150).
pub(crate) fn earn_move(
    ctx: &mut Ctx,
    d: Draft,
    account: &str,
    side: (Asset, Decimal),
    into_earn: bool,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let earn = child(account, "earn");
    let (from, to) = if into_earn {
        (account.to_owned(), earn)
    } else {
        (earn, account.to_owned())
    };
    for d in one_row_move(ctx, d, side, from, to) {
        emit(ctx, d);
    }
}
