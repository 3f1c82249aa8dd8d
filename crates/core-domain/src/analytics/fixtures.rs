//! Hand-built engine outputs for unit tests of analytics and holdings (no FIFO involved: the
//! lots, operations and slices are written out as the spec's examples state them).

use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::asset::Asset;
use crate::engine::{
    DisposalLeg, EffectiveRow, EngineInput, EngineOutput, FlagSet, Lot, LotId, Operation, QueueKey,
    Slice, SliceParts,
};
use crate::ledger::{AccountId, AssetAmount, RowKey, SpotRow, TxType};
use crate::market::{Market, PriceRow, RateRow};
use crate::time::{Date, FiscalTimezone, Instant};

use super::{AnalyticsContext, DisplayCurrency};

pub(crate) fn d(text: &str) -> Decimal {
    crate::num::parse_decimal("test", text, true).unwrap()
}

pub(crate) fn a(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap()
}

pub(crate) fn date(text: &str) -> Date {
    Date::parse_from_str(text, "%Y-%m-%d").unwrap()
}

pub(crate) fn at(text: &str) -> Instant {
    Instant::parse(text).unwrap()
}

/// `(lot index, quantity, gross, acquisition value)` of one slice.
pub(crate) type SliceSpec<'a> = (Option<u32>, &'a str, Option<&'a str>, Option<&'a str>);

/// A ledger built by hand: rows plus the engine records the spec states for them.
#[derive(Default)]
pub(crate) struct Fixture {
    pub input: EngineInput,
    pub(crate) output: EngineOutput,
    pub(crate) prices: Vec<PriceRow>,
    pub(crate) rates: Vec<RateRow>,
}

impl Fixture {
    /// Adds a row; returns its index.
    pub(crate) fn row(
        &mut self,
        key: &str,
        account: u32,
        tx_type: SpotTxType,
        instant: &str,
        inflow: Option<(&str, &str)>,
        outflow: Option<(&str, &str)>,
    ) -> u32 {
        let index = self.input.rows.len() as u32;
        let amount = |(q, s): (&str, &str)| AssetAmount {
            asset: a(s),
            quantity: d(q),
        };
        self.input.rows.push(EffectiveRow {
            row: SpotRow {
                row_key: RowKey::new(key),
                seq: u64::from(index) + 1,
                account_id: AccountId(account),
                tx_type: TxType::Spot(tx_type),
                instant: at(instant),
                inflow: inflow.map(amount),
                outflow: outflow.map(amount),
                fee: None,
                values: None,
                transfer_group_id: None,
            },
        });
        self.output.ledger_order.push(index);
        index
    }

    /// Adds a lot acquired by `row`; returns its index.
    pub(crate) fn lot(
        &mut self,
        row: u32,
        symbol: &str,
        original: &str,
        remaining: &str,
        cost: Option<(&str, &str)>,
        flags: FlagSet,
    ) -> u32 {
        let spot = &self.input.rows[row as usize].row;
        let tz = FiscalTimezone::EuropeMadrid;
        let lot_id = LotId { row, k: 0 };
        let index = self.output.lots.len() as u32;
        self.output.lots.push(Lot {
            lot_id,
            asset: a(symbol),
            account_id: spot.account_id,
            origin_type: SpotTxType::Buy,
            carried_from: None,
            acquired_at: spot.instant,
            acquired_on: tz.fiscal_date(spot.instant),
            queue_key: QueueKey {
                acquired_at: spot.instant,
                seq: spot.seq,
                k: 0,
                tiebreak: 0,
            },
            original_quantity: d(original),
            remaining_quantity: d(remaining),
            acquisition_value: cost.map(|c| d(c.0)),
            remaining_cost: cost.map(|c| d(c.1)),
            provenance: None,
            fx: None,
            price: None,
            flags,
        });
        self.output.lot_index.push((lot_id, index));
        self.output.lot_index.sort_unstable();
        index
    }

    /// Adds a principal disposal of `row` with one slice per `(lot, quantity, gross, cost)`.
    pub(crate) fn disposal(
        &mut self,
        row: u32,
        tx_type: SpotTxType,
        symbol: &str,
        quantity: &str,
        gross: Option<&str>,
        slices: &[SliceSpec<'_>],
    ) {
        let spot = &self.input.rows[row as usize].row;
        let start = self.output.slices.len() as u32;
        let op_index = self.output.operations.len() as u32;
        for (n, (lot, q, g, cost)) in slices.iter().enumerate() {
            let lot_id = lot.map(|l| self.output.lots[l as usize].lot_id);
            let g = g.map(d);
            let cost = cost.map(d);
            let result = match (g, cost, lot_id) {
                (Some(g), Some(c), Some(_)) => Some(g - c),
                _ => None,
            };
            self.output.slices.push(Slice::from(SliceParts {
                operation: op_index,
                leg: DisposalLeg::Principal,
                n: n as u32,
                lot_id,
                asset: a(symbol),
                quantity: d(q),
                gross_value: g,
                fee_expense: Some(Decimal::ZERO),
                acquisition_value: cost,
                acquired_at: None,
                acquired_on: None,
                lot_account_id: None,
                acquisition_provenance: None,
                result,
                included: result.is_some(),
                flags: FlagSet::EMPTY,
            }));
        }
        let end = self.output.slices.len() as u32;
        let tz = FiscalTimezone::EuropeMadrid;
        self.output.operations.push(Operation {
            row,
            seq: spot.seq,
            leg: DisposalLeg::Principal,
            tx_type,
            asset: a(symbol),
            quantity: d(quantity),
            disposed_at: spot.instant,
            fiscal_date: tz.fiscal_date(spot.instant),
            account_id: spot.account_id,
            gross_value: gross.map(d),
            fee_expense: Some(Decimal::ZERO),
            clave: None,
            flags: FlagSet::EMPTY,
            valuation: None,
            swap: None,
            slices: start..end,
        });
    }

    /// EUR closes of `symbol` from `first` on, one per day (`None` = no price that day).
    pub(crate) fn closes(&mut self, symbol: &str, first: &str, closes: &[Option<&str>]) {
        let mut day = date(first);
        for close in closes {
            if let Some(close) = close {
                self.prices.push(PriceRow {
                    asset: a(symbol),
                    date: day,
                    close: d(close),
                    currency: a("EUR"),
                });
            }
            day = day.succ_opt().unwrap();
        }
    }

    pub(crate) fn usd_rate(&mut self, on: &str, rate: &str) {
        self.rates.push(RateRow {
            currency: a("USD"),
            date: date(on),
            rate: d(rate),
        });
    }

    pub(crate) fn market(&self) -> Market {
        Market::new(self.rates.clone(), self.prices.clone()).unwrap()
    }

    pub(crate) fn ctx<'a>(
        &'a self,
        market: &'a Market,
        as_of: &str,
        currency: DisplayCurrency,
    ) -> AnalyticsContext<'a> {
        AnalyticsContext {
            input: &self.input,
            output: &self.output,
            market,
            timezone: FiscalTimezone::EuropeMadrid,
            as_of: at(as_of),
            currency,
        }
    }
}

/// `domain.md` D-14, written out: lots after the sale and the sale's slice.
pub(crate) fn d14() -> Fixture {
    let mut f = Fixture::default();
    let v1 = f.row(
        "v1",
        1,
        SpotTxType::Buy,
        "2024-01-01T10:00:00Z",
        Some(("1", "BTC")),
        Some(("40000", "EUR")),
    );
    let v2 = f.row(
        "v2",
        1,
        SpotTxType::Buy,
        "2024-01-03T10:00:00Z",
        Some(("10", "ETH")),
        Some(("20000", "EUR")),
    );
    let v3 = f.row(
        "v3",
        1,
        SpotTxType::Sell,
        "2024-01-05T10:00:00Z",
        Some(("21000", "EUR")),
        Some(("0.5", "BTC")),
    );
    let btc = f.lot(
        v1,
        "BTC",
        "1",
        "0.5",
        Some(("40000.00", "20000.00")),
        FlagSet::EMPTY,
    );
    f.lot(
        v2,
        "ETH",
        "10",
        "10",
        Some(("20000.00", "20000.00")),
        FlagSet::EMPTY,
    );
    f.disposal(
        v3,
        SpotTxType::Sell,
        "BTC",
        "0.5",
        Some("21000.00"),
        &[(Some(btc), "0.5", Some("21000.00"), Some("20000.00"))],
    );
    f.closes(
        "BTC",
        "2024-01-01",
        &[
            Some("40000"),
            Some("42000"),
            Some("41000"),
            Some("43000"),
            Some("42000"),
            Some("44100"),
        ],
    );
    f.closes(
        "ETH",
        "2024-01-01",
        &[
            Some("2000"),
            Some("2050"),
            Some("2100"),
            Some("2000"),
            None,
            Some("2200"),
        ],
    );
    f
}

/// The as-of instant of D-14 (fiscal date 2024-01-06).
pub(crate) const D14_AS_OF: &str = "2024-01-06T12:00:00Z";
