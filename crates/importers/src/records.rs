//! Read records as the store's write port takes them: the one mapping from what an importer
//! read to what `LedgerWrite::write_import_batch` stores, shared by the cli and the `cartera`
//! library.

use core_domain::TxType;
use core_domain::ledger::Fee;
use sha2::{Digest, Sha256};
use use_cases::ports::{NewFuturesRecord, NewSpotRecord};

use crate::{FuturesRecord, Transaction};

fn non_empty(text: String) -> Option<String> {
    Some(text).filter(|t| !t.is_empty())
}

/// A spot transaction as the store writes it; `dedupe_by_content_key` marks a row whose stored
/// content key also makes it a duplicate (a Coinbase `v4` report, `imports.md` §1.14).
pub fn spot_record(transaction: Transaction, dedupe_by_content_key: bool) -> NewSpotRecord {
    NewSpotRecord {
        account: transaction.account,
        row_key: transaction.identity,
        content_key: non_empty(transaction.content_key),
        dedupe_by_content_key,
        tx_type: TxType::Spot(transaction.tx_type),
        instant: transaction.timestamp,
        inflow: transaction.inflow,
        outflow: transaction.outflow,
        fee: transaction.fee,
        stated_value: transaction.fiat_value,
        stated_price: None,
        stated_fee_value: None,
        transfer_group_id: transaction.group_id,
        source_ref: non_empty(transaction.source_ref),
        note: non_empty(transaction.note),
        source_lines: transaction.lines,
    }
}

/// A futures record as the store writes it.
pub fn futures_record(record: FuturesRecord) -> NewFuturesRecord {
    NewFuturesRecord {
        account: record.account,
        row_key: record.identity,
        content_key: None,
        kind: record.kind,
        contract: record.contract,
        instant: record.timestamp,
        settlement_asset: record.settlement_asset,
        realized_pnl: record.realized_pnl,
        funding: record.funding_amount,
        fee: match (record.fee_asset, record.fee_amount) {
            (Some(asset), Some(quantity)) => Some(Fee { asset, quantity }),
            _ => None,
        },
        trade_price: record.trade_price,
        source_ref: non_empty(record.source_ref),
        note: non_empty(record.note),
        source_lines: vec![record.line],
    }
}

/// Lowercase hex SHA-256 of a file's bytes, as the import log keeps it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}
