//! Kraken futures account log (§2.5): futures records for the derivatives store.

use rust_decimal::Decimal;
use shared_types::FuturesKind;

use crate::model::{FuturesRecord, Profile, SkipReason, Zone};
use crate::pipeline::{self, Ctx, ProfileOutput, SEP};
use crate::profiles::kraken;
use crate::reader::{self, Records};
use crate::values;

const COLUMNS: [&str; 22] = [
    "uid",
    "dateTime",
    "account",
    "type",
    "symbol",
    "contract",
    "change",
    "new balance",
    "new average entry price",
    "trade price",
    "mark price",
    "funding rate",
    "realized pnl",
    "fee",
    "realized funding",
    "collateral",
    "conversion spread percentage",
    "liquidation fee",
    "position uid",
    "exchange rate",
    "exchange rate from",
    "conversion fee",
];
const C_UID: usize = 0;
const C_TIME: usize = 1;
const C_ACCOUNT: usize = 2;
const C_TYPE: usize = 3;
const C_SYMBOL: usize = 4;
const C_CONTRACT: usize = 5;
const C_CHANGE: usize = 6;
const C_PRICE: usize = 9;
const C_PNL: usize = 12;
const C_FEE: usize = 13;
const C_FUNDING: usize = 14;
const C_LIQ: usize = 17;

/// The whole file's futures records, in file order.
pub(crate) fn read(ctx: &mut Ctx, records: &mut Records<'_>, account: &str) -> ProfileOutput {
    let mut futures = Vec::new();
    read_into(ctx, records, account, &mut |_, record| futures.push(record));
    ProfileOutput {
        drafts: Vec::new(),
        futures,
    }
}

/// Reads the rows, handing each valid row's record to `emit` as it is read (rows are
/// independent: only the uids seen are kept, for `duplicate-id`).
#[allow(clippy::too_many_lines)] // The §2.5 row rules in one pass.
pub(crate) fn read_into(
    ctx: &mut Ctx,
    records: &mut Records<'_>,
    account: &str,
    emit: &mut dyn FnMut(&mut Ctx, FuturesRecord),
) {
    let (cols, unknown) = reader::resolve(&ctx.header, &COLUMNS);
    pipeline::ignore_unknown(ctx, &unknown, Profile::KrakenFutures);
    let mut uids: crate::values::FastMap<String, u64> = crate::values::FastMap::default();
    let book = format!("{account}:futures");
    pipeline::for_rows(ctx, records, |ctx, line, rec| {
        let get = |c: usize| cols[c].map_or("", |i| reader::cell(rec, i));
        let label = get(C_TYPE);
        let lower = label.to_ascii_lowercase();
        let symbol = get(C_SYMBOL);
        let contract_text = get(C_CONTRACT);
        let position_row = !contract_text.is_empty() && symbol.eq_ignore_ascii_case(contract_text);
        let kind = match lower.as_str() {
            "futures trade" | "futures liquidation" | "futures partial liquidation"
                if position_row =>
            {
                return ctx.skip(SkipReason::PositionLeg, 1);
            }
            "futures trade" => FuturesKind::Trade,
            "futures liquidation" | "futures partial liquidation" => FuturesKind::Liquidation,
            "funding rate change" => FuturesKind::FundingFee,
            "settlement" => FuturesKind::Settlement,
            "conversion"
            | "transfer"
            | "subaccount transfer"
            | "cross-exchange transfer"
            | "kfee applied" => {
                return ctx.skip(SkipReason::CollateralMovement, 1);
            }
            "interest payment" | "futures assignor" | "futures assignee" | "options trade" => {
                ctx.err(line, cols[C_TYPE], "unsupported-type", format!("kraken-futures type \"{label}\" is not supported: only futures trades, funding, settlements and liquidations are read; record it with the generic format"));
                return;
            }
            _ => {
                ctx.err(
                    line,
                    cols[C_TYPE],
                    "unknown-type",
                    format!("unknown kraken-futures type \"{label}\""),
                );
                return;
            }
        };
        let time = ctx.utc_stamp(
            line,
            cols[C_TIME],
            get(C_TIME),
            b" ",
            false,
            "YYYY-MM-DD HH:MM:SS[.f]",
            Zone::Utc,
        );
        let settlement = ctx.asset(line, cols[C_SYMBOL], &kraken::alias(symbol));
        let contract = if contract_text.is_empty() {
            symbol
        } else {
            contract_text
        }
        .to_ascii_lowercase();
        let valid_contract = !contract.is_empty()
            && contract.len() <= 40
            && contract.bytes().all(|b| {
                b.is_ascii_lowercase()
                    || b.is_ascii_digit()
                    || matches!(b, b'_' | b'.' | b':' | b'-')
            });
        if !valid_contract {
            ctx.err(
                line,
                cols[C_CONTRACT],
                "bad-asset-symbol",
                format!("\"{contract_text}\" is not a valid asset symbol"),
            );
        }
        let opt = |ctx: &mut Ctx, c: usize, signed: bool| -> Result<Option<Decimal>, ()> {
            let t = get(c);
            if t.is_empty() {
                Ok(None)
            } else {
                ctx.dec(line, cols[c], t, signed).map(Some).ok_or(())
            }
        };
        let change = opt(ctx, C_CHANGE, true);
        let pnl = opt(ctx, C_PNL, true);
        let fee = opt(ctx, C_FEE, false);
        let funding = opt(ctx, C_FUNDING, true);
        let liq = opt(ctx, C_LIQ, false);
        let price = opt(ctx, C_PRICE, false);
        let uid = get(C_UID);
        if uid.is_empty() {
            ctx.err(
                line,
                cols[C_UID],
                "missing-value",
                "a value is required here".to_owned(),
            );
        }
        if ctx.invalid.contains(&line) {
            return;
        }
        let (
            Some(time),
            Some(settlement),
            Ok(change),
            Ok(pnl),
            Ok(fee),
            Ok(funding),
            Ok(liq),
            Ok(price),
        ) = (time, settlement, change, pnl, fee, funding, liq, price)
        else {
            return;
        };
        if !ctx.first_sighting(&mut uids, uid, uid, (line, cols[C_UID])) {
            return;
        }
        let z = Decimal::ZERO;
        let computed = values::sub(pnl.unwrap_or(z), fee.unwrap_or(z))
            .and_then(|v| values::sub(v, liq.unwrap_or(z)))
            .and_then(|v| values::add(v, funding.unwrap_or(z)));
        if let (Some(stated), Some(c)) = (change, computed)
            && stated != c
        {
            ctx.warn(
                line,
                cols[C_CHANGE],
                "change-mismatch",
                format!(
                    "change {} differs from pnl − fees + funding = {}",
                    get(C_CHANGE),
                    values::norm(c)
                ),
            );
        }
        let fee_amount = match (fee, liq) {
            (None, None) => None,
            (a, b) => values::add(a.unwrap_or(z), b.unwrap_or(z)),
        };
        let identity_key = format!("v1{SEP}kraken-futures{SEP}uid{SEP}{uid}");
        let record = FuturesRecord {
            account: book.clone(),
            timestamp: time,
            kind,
            contract,
            settlement_asset: settlement,
            realized_pnl: pnl,
            funding_amount: funding,
            fee_asset: fee_amount.map(|_| settlement),
            fee_amount,
            trade_price: price,
            identity: values::sha256_hex(&identity_key),
            identity_key,
            source_ref: uid.to_owned(),
            note: format!("{label}; account {}", get(C_ACCOUNT)),
            line,
            key_column: cols[C_UID].map(|c| c + 1),
        };
        emit(ctx, record);
    });
}
