//! Crypto.com App transaction history (CSV): one row per balance change, labelled by
//! `Transaction Kind`; a trade is one row with `Currency`/`Amount` given and `To Currency`/
//! `To Amount` received; `Native Amount` values the row in the user's display currency.
//! Dust conversions are the one multi-row operation (debited and credited rows of one
//! instant). Shapes and labels: `test_data/cryptocom-app/README.md`.

use std::collections::BTreeMap;

use core_domain::ledger::StatedAmount;
use core_domain::{Asset, Instant};
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::extra::{self, check_sign, one_row_move, transfer_type};
use crate::model::{Profile, SkipReason, Zone};
use crate::ops;
use crate::pipeline::{self, Ctx, Draft, KeyBase};
use crate::reader::{self, Records};

const ID: &str = "cryptocom-app";

/// The header every layout has.
pub(crate) const REQUIRED: [&str; 10] = [
    "Timestamp (UTC)",
    "Transaction Description",
    "Currency",
    "Amount",
    "To Currency",
    "To Amount",
    "Native Currency",
    "Native Amount",
    "Native Amount (in USD)",
    "Transaction Kind",
];

const COLUMNS: [&str; 11] = [
    "Timestamp (UTC)",
    "Transaction Description",
    "Currency",
    "Amount",
    "To Currency",
    "To Amount",
    "Native Currency",
    "Native Amount",
    "Native Amount (in USD)",
    "Transaction Kind",
    "Transaction Hash",
];
const C_TS: usize = 0;
const C_DESC: usize = 1;
const C_CUR: usize = 2;
const C_AMT: usize = 3;
const C_TOCUR: usize = 4;
const C_TOAMT: usize = 5;
const C_NCUR: usize = 6;
const C_NAMT: usize = 7;
const C_KIND: usize = 9;
const C_HASH: usize = 10;

/// What a `Transaction Kind` means.
#[derive(Clone, Copy)]
enum Kind {
    /// `Currency`/`Amount` given, `To Currency`/`To Amount` received.
    Exchange,
    /// A card purchase: `Amount` of `Currency` received, `Native Amount` paid.
    CardBuy,
    /// A leg of a dust conversion (negative: the coin converted; positive: the CRO received).
    Dust,
    Income(SpotTxType),
    Spend,
    Transfer {
        inflow: bool,
    },
    /// A sub-wallet move: to the named wallet (negative amount) or back from it (positive).
    Move {
        wallet: &'static str,
        out_of_main: bool,
    },
    Skip,
}

fn kind(label: &str) -> Result<Kind, Option<&'static str>> {
    use SpotTxType as T;
    Ok(match label {
        "viban_purchase"
        | "van_purchase"
        | "crypto_viban_exchange"
        | "crypto_exchange"
        | "crypto_to_van_sell_order"
        | "trading.limit_order.fiat_wallet.sell_commit"
        | "recurring_buy_order" => Kind::Exchange,
        "crypto_purchase" => Kind::CardBuy,
        "dust_conversion_debited" | "dust_conversion_credited" => Kind::Dust,
        "crypto_earn_interest_paid"
        | "crypto_earn_extra_interest_paid"
        | "mco_stake_reward"
        | "supercharger_reward_to_app_credited" => Kind::Income(T::Reward),
        "finance.lockup.dpos_compound_interest.crypto_wallet"
        | "finance.dpos.non_compound_interest.crypto_wallet"
        | "finance.dpos.compound_interest.crypto_wallet" => Kind::Income(T::Staking),
        "referral_bonus"
        | "referral_gift"
        | "referral_card_cashback"
        | "transfer_cashback"
        | "gift_card_reward"
        | "campaign_reward"
        | "rewards_platform_deposit_credited"
        | "pay_checkout_reward"
        | "mobile_airtime_reward"
        | "reward.loyalty_program.trading_rebate.crypto_wallet" => Kind::Income(T::Promotion),
        "crypto_payment" | "card_top_up" => Kind::Spend,
        "crypto_withdrawal" | "crypto_to_exchange_transfer" => Kind::Transfer { inflow: false },
        "crypto_deposit" | "exchange_to_crypto_transfer" => Kind::Transfer { inflow: true },
        "crypto_earn_program_created" => Kind::Move {
            wallet: "earn",
            out_of_main: true,
        },
        "crypto_earn_program_withdrawn" => Kind::Move {
            wallet: "earn",
            out_of_main: false,
        },
        "lockup_lock" | "finance.lockup.dpos_lock.crypto_wallet" => Kind::Move {
            wallet: "lockup",
            out_of_main: true,
        },
        "lockup_unlock" => Kind::Move {
            wallet: "lockup",
            out_of_main: false,
        },
        "supercharger_deposit" => Kind::Move {
            wallet: "supercharger",
            out_of_main: true,
        },
        "supercharger_withdrawal" => Kind::Move {
            wallet: "supercharger",
            out_of_main: false,
        },
        "finance.dpos.staking.crypto_wallet" => Kind::Move {
            wallet: "staking",
            out_of_main: true,
        },
        "finance.dpos.unstaking.crypto_wallet" => Kind::Move {
            wallet: "staking",
            out_of_main: false,
        },
        "trading.limit_order.fiat_wallet.purchase_lock"
        | "trading.limit_order.fiat_wallet.purchase_unlock"
        | "trading.limit_order.fiat_wallet.sell_lock"
        | "trading.limit_order.cash_account.purchase_lock"
        | "trading.limit_order.cash_account.purchase_unlock" => Kind::Skip,
        _ => return Err(refusal(label)),
    })
}

/// Why a kind the export is known to write is refused (`unsupported-type`); `None` for a
/// kind cartera does not know.
fn refusal(label: &str) -> Option<&'static str> {
    match label {
        "crypto_transfer" => Some(
            "a transfer to or from another Crypto.com user may be a gift or a move between own accounts, and the file does not say which",
        ),
        "reimbursement"
        | "admin_wallet_credited"
        | "crypto_payment_refund"
        | "airdrop_to_exchange_transfer"
        | "nft_payout_credited" => Some("its fiscal nature cannot be read from the export"),
        "crypto_credit_program_created"
        | "crypto_credit_loan_credited"
        | "crypto_credit_repayment_created"
        | "crypto_credit_withdrawal_created" => Some("crypto-backed loans are not supported"),
        "card_cashback_reverted" | "reimbursement_reverted" => {
            Some("reversals of earlier credits are not supported")
        }
        "lockup_swap_credited"
        | "lockup_swap_debited"
        | "dynamic_coin_swap_credited"
        | "dynamic_coin_swap_debited"
        | "dynamic_coin_swap_bonus_exchange_deposit"
        | "interest_swap_credited"
        | "interest_swap_debited"
        | "crypto_wallet_swap_credited"
        | "crypto_wallet_swap_debited"
        | "lockup_upgrade"
        | "council_node_deposit_created" => {
            Some("the export writes this conversion as rows it does not link")
        }
        _ => None,
    }
}

/// A dust leg kept until the end of the file: `(line, asset, signed amount)`.
type DustLeg = (u64, Asset, Decimal);

/// Reads the rows; dust conversions are emitted at the end of the file, once all their legs
/// are known (the streamed read then takes them in any order).
#[allow(clippy::too_many_lines)] // One table of kinds, read in one place.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let (cols, unknown) = reader::resolve(&ctx.header, &COLUMNS);
    pipeline::ignore_unknown(ctx, &unknown, Profile::CryptocomApp);
    let mut dust: BTreeMap<Instant, Vec<DustLeg>> = BTreeMap::new();
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let label = get(C_KIND);
        let kind = match kind(label) {
            Ok(k) => Some(k),
            Err(Some(reason)) => {
                extra::unsupported_type(ctx, line, cols[C_KIND], ID, label, reason);
                None
            }
            Err(None) => {
                extra::unknown_type(ctx, line, cols[C_KIND], ID, label);
                None
            }
        };
        let instant = ctx.utc_stamp(
            line,
            cols[C_TS],
            get(C_TS),
            b" ",
            false,
            "YYYY-MM-DD HH:MM:SS",
            Zone::Utc,
        );
        let currency = ctx.asset(line, cols[C_CUR], get(C_CUR));
        let amount = ctx.dec(line, cols[C_AMT], get(C_AMT), true);
        let to = match (get(C_TOCUR), get(C_TOAMT)) {
            ("", _) => Some(None),
            (c, a) => {
                let c = ctx.asset(line, cols[C_TOCUR], c);
                let a = ctx.dec(line, cols[C_TOAMT], a, true);
                c.zip(a).map(Some)
            }
        };
        let native = match (get(C_NCUR), get(C_NAMT)) {
            ("", _) | (_, "") => Some(None),
            (c, a) => {
                let c = ctx.asset(line, cols[C_NCUR], c);
                let a = ctx.dec(line, cols[C_NAMT], a, true);
                c.zip(a).map(Some)
            }
        };
        if ctx.invalid.contains(&line) {
            return;
        }
        let (Some(kind), Some(instant), Some(currency), Some(amount), Some(to), Some(native)) =
            (kind, instant, currency, amount, to, native)
        else {
            return;
        };
        let value = native
            .filter(|(c, _)| c.is_fiat())
            .map(|(c, a)| StatedAmount {
                amount: a.abs(),
                currency: c,
            });
        let mut d = Draft::new(
            account.to_owned(),
            account,
            instant,
            SpotTxType::Buy,
            KeyBase::Content,
            line,
        );
        d.note = note(label, get(C_DESC), get(C_HASH));
        let qty = amount.abs();
        let cell = get(C_AMT);
        let drafts = match kind {
            Kind::Skip => {
                ctx.skip(SkipReason::InternalMovement, 1);
                return;
            }
            Kind::Dust => {
                if amount.is_zero() {
                    check_sign(ctx, line, cols[C_AMT], amount, true, (label, cell));
                    return;
                }
                dust.entry(instant)
                    .or_default()
                    .push((line, currency, amount));
                return;
            }
            Kind::Exchange => {
                if !check_sign(ctx, line, cols[C_AMT], amount, false, (label, cell)) {
                    return;
                }
                let Some((to_cur, to_amt)) = to else {
                    ctx.err(
                        line,
                        cols[C_TOCUR],
                        "missing-value",
                        "a value is required here".to_owned(),
                    );
                    return;
                };
                if !check_sign(
                    ctx,
                    line,
                    cols[C_TOAMT],
                    to_amt,
                    true,
                    (label, get(C_TOAMT)),
                ) {
                    return;
                }
                let group = format!("{instant} {label}");
                let drafts = exchange(&d, (to_cur, to_amt), (currency, qty), value, &group);
                if drafts.is_empty() {
                    ctx.skip(SkipReason::InternalMovement, 1);
                    return;
                }
                drafts
            }
            Kind::CardBuy => {
                if !check_sign(ctx, line, cols[C_AMT], amount, true, (label, cell)) {
                    return;
                }
                let Some((paid_cur, paid)) = native.filter(|(_, a)| !a.is_zero()) else {
                    ctx.err(
                        line,
                        cols[C_NAMT],
                        "missing-value",
                        "a value is required here".to_owned(),
                    );
                    return;
                };
                d.ty = SpotTxType::Buy;
                d.inflow = Some(pipeline::amount(currency, qty));
                d.outflow = Some(pipeline::amount(paid_cur, paid.abs()));
                vec![d]
            }
            Kind::Income(ty) => {
                if !check_sign(ctx, line, cols[C_AMT], amount, true, (label, cell)) {
                    return;
                }
                d.ty = if ty == SpotTxType::Staking && currency.is_fiat() {
                    SpotTxType::Reward
                } else {
                    ty
                };
                d.inflow = Some(pipeline::amount(currency, qty));
                d.fiat_value = value;
                vec![d]
            }
            Kind::Spend => {
                if !check_sign(ctx, line, cols[C_AMT], amount, false, (label, cell)) {
                    return;
                }
                d.ty = SpotTxType::Spend;
                d.outflow = Some(pipeline::amount(currency, qty));
                d.fiat_value = value;
                vec![d]
            }
            Kind::Transfer { inflow } => {
                if !check_sign(ctx, line, cols[C_AMT], amount, inflow, (label, cell)) {
                    return;
                }
                d.ty = transfer_type(currency, inflow);
                if inflow {
                    d.inflow = Some(pipeline::amount(currency, qty));
                } else {
                    d.outflow = Some(pipeline::amount(currency, qty));
                }
                vec![d]
            }
            Kind::Move {
                wallet,
                out_of_main,
            } => {
                if !check_sign(ctx, line, cols[C_AMT], amount, !out_of_main, (label, cell)) {
                    return;
                }
                let sub = extra::child(account, wallet);
                let (from, to) = if out_of_main {
                    (account.to_owned(), sub)
                } else {
                    (sub, account.to_owned())
                };
                one_row_move(ctx, d, (currency, qty), from, to)
            }
        };
        let shape_cols = (cols[C_TOCUR].or(cols[C_CUR]), cols[C_CUR]);
        ctx.emit_shaped(line, shape_cols, drafts, emit);
    });
    for (instant, legs) in dust {
        dust_group(ctx, account, instant, &legs, cols[C_KIND], emit);
    }
}

/// The drafts of a one-row exchange: `BUY`, `SELL`, `SWAP` (valued by `value`), a fiat
/// exchange or a same-asset conversion (§1.6).
fn exchange(
    base: &Draft,
    inflow: ops::Side,
    outflow: ops::Side,
    value: Option<StatedAmount>,
    group: &str,
) -> Vec<Draft> {
    let mut drafts =
        ops::exchange(base, inflow, outflow, &BTreeMap::new(), false, group).unwrap_or_default();
    for d in &mut drafts {
        if d.ty == SpotTxType::Swap {
            d.fiat_value = value;
        }
    }
    drafts
}

/// One dust conversion: the debited coin and the credited coin of one instant.
fn dust_group(
    ctx: &mut Ctx,
    account: &str,
    instant: Instant,
    legs: &[DustLeg],
    col: Option<usize>,
    emit: &mut dyn FnMut(&mut Ctx, Draft),
) {
    let lines: Vec<u64> = legs.iter().map(|l| l.0).collect();
    let key = format!("dust conversion {instant}");
    let mut ins = BTreeMap::new();
    let mut outs = BTreeMap::new();
    for &(_, asset, amount) in legs {
        let map = if amount.is_sign_positive() {
            &mut ins
        } else {
            &mut outs
        };
        if !ops::sum_into(map, asset, amount.abs()) {
            ctx.group_err(
                &lines,
                col,
                "decimal-out-of-range",
                &format!("the legs of {key} overflow"),
            );
            return;
        }
    }
    if outs.len() > 1 && ins.len() == 1 {
        ctx.group_err(
            &lines,
            col,
            "ambiguous-group",
            &format!(
                "the rows of {key} cannot be split into operations without guessing: several coins were converted and the export does not say which part of the credit each one gave"
            ),
        );
        return;
    }
    let Some((inflow, outflow)) = ops::sides(ctx, &lines, col, &key, &ins, &outs) else {
        return;
    };
    let first = lines.iter().copied().min().unwrap_or(0);
    let mut base = Draft::new(
        account.to_owned(),
        account,
        instant,
        SpotTxType::Swap,
        KeyBase::Content,
        first,
    );
    base.extra_lines = lines.iter().copied().filter(|l| *l != first).collect();
    "dust_conversion".clone_into(&mut base.note);
    match ops::exchange(&base, inflow, outflow, &BTreeMap::new(), false, &key) {
        Some(drafts) => {
            for d in drafts {
                emit(ctx, d);
            }
        }
        None => ctx.skip(SkipReason::InternalMovement, lines.len() as u64),
    }
}

fn note(label: &str, description: &str, hash: &str) -> String {
    let mut note = label.to_owned();
    for part in [description, hash] {
        if !part.is_empty() {
            note.push_str("; ");
            note.push_str(part);
        }
    }
    // The pipeline caps every note at its limit (D-85).
    note
}
