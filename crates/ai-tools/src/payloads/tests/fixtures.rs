//! DTO fixtures of the acceptance cases. Figures are built as strings from integer cents;
//! nothing here computes a money value with a decimal type.

use serde_json::{Value, json};
use shared_types::dto::{
    AccountHoldingsResult, AccountSection, AllocationItem, AssetAllocation, AssetKpi, AuditRowDto,
    CompletenessDto, ConcentrationBlockDto, ConcentrationDto, CustodyLocations, DeltaDto,
    DerivativesPnl, DrawdownCurve, FeeDto, FiscalIntegrity, IntegrityGroupDto, IntegrityRowDto,
    KpisDto, LatestPrices, LotDto, Metrics, PerformanceHistory, PortfolioSummary, RiskMetricsDto,
    SummaryDeltas, TaxReport, TaxSummary, TaxYearComparison, TaxYearSideDto, TradeStatsDto, TxRow,
    UnvaluedHolding, ValuedHolding, VolatilityHeatmap,
};
use shared_types::{QualityFlag, ToolName};
use use_cases::queries::ScenarioAnswer;

use super::fake::Fake;

/// `c` cents as an Amount.
pub(super) fn cents(c: i64) -> String {
    let sign = if c < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
}

/// `c` cents ÷ `q` units as a UnitPrice (half-up to twelve decimals, trailing zeros removed).
fn unit(c: i64, units: i64) -> String {
    let scaled = i128::from(c) * 10_000_000_000;
    let divisor = i128::from(units);
    let rounded = (2 * scaled + divisor) / (2 * divisor);
    let int = rounded / 1_000_000_000_000;
    let frac = format!("{:012}", rounded % 1_000_000_000_000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    }
}

/// Day `i` of 2024 (0 = 1 January).
pub(super) fn day(i: usize) -> String {
    let months = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut rest = i;
    for (m, len) in months.iter().enumerate() {
        if rest < *len {
            return format!("2024-{:02}-{:02}", m + 1, rest + 1);
        }
        rest -= len;
    }
    panic!("day {i} is not in 2024")
}

pub(super) fn metrics_fixture(equity: &str, cost: &str, unrealized: &str) -> Metrics {
    Metrics {
        rates_incomplete: false,
        prices_incomplete: false,
        total_equity_fiat: equity.to_owned(),
        total_cost_basis_fiat: cost.to_owned(),
        total_realized_pnl_fiat: "0.00".to_owned(),
        total_unrealized_pnl_fiat: unrealized.to_owned(),
        total_pnl_fiat: unrealized.to_owned(),
        currency: "EUR".to_owned(),
    }
}

pub(super) fn valued_fixture(symbol: &str, amount: &str, cost: &str, now: &str) -> ValuedHolding {
    ValuedHolding {
        id: symbol.to_ascii_lowercase(),
        symbol: symbol.to_owned(),
        amount: amount.to_owned(),
        avg_price_fiat: "10".to_owned(),
        cost_basis_fiat: cost.to_owned(),
        current_value_fiat: now.to_owned(),
        unrealized_pnl_fiat: "0.00".to_owned(),
        current_price_fiat: "10".to_owned(),
        allocation_pct: "10.00".to_owned(),
        currency: "EUR".to_owned(),
        locations: vec!["Kraken".to_owned()],
        untracked_quantity: "0".to_owned(),
    }
}

fn unvalued_fixture(
    symbol: &str,
    amount: &str,
    cost: Option<&str>,
    reason: &str,
) -> UnvaluedHolding {
    UnvaluedHolding {
        id: symbol.to_ascii_lowercase(),
        symbol: symbol.to_owned(),
        amount: amount.to_owned(),
        cost_basis_fiat: cost.map(str::to_owned),
        currency: "EUR".to_owned(),
        reason: reason.to_owned(),
        locations: vec![],
    }
}

/// The 40-holding fixture of AC-29; with `unvalued`, SYNTH18–20 lack a price and SYNTH21–23
/// a rate.
pub(super) fn forty(unvalued: bool) -> PortfolioSummary {
    let named = [
        "B2M", "GIGA", "HBAR", "XRP", "ADA", "VELO", "USDC", "USDT", "XLM", "JASMY", "AI16Z",
        "ETH", "SOL", "PLUME", "BNB", "BTC", "PUMP",
    ];
    let symbol = |i: usize| {
        named
            .get(i)
            .map_or_else(|| format!("SYNTH{:02}", i - 16), |s| (*s).to_owned())
    };
    let mut valued = Vec::new();
    let mut rest = Vec::new();
    for (i, k) in (0..40_i64).enumerate() {
        let q = k + 1;
        let c = (40 - k) * 13_750;
        let s = symbol(i);
        if unvalued && i >= 34 {
            let (cost, reason) = if i < 37 {
                (Some(cents(c)), "no_price")
            } else {
                (None, "no_rate")
            };
            rest.push(unvalued_fixture(
                &s,
                &q.to_string(),
                cost.as_deref(),
                reason,
            ));
            continue;
        }
        valued.push(ValuedHolding {
            avg_price_fiat: unit(c, q),
            unrealized_pnl_fiat: "0.00".to_owned(),
            ..valued_fixture(&s, &q.to_string(), &cents(c), &cents(c))
        });
    }
    let sum: i64 = (0..40_i64)
        .take(valued.len())
        .map(|k| (40 - k) * 13_750)
        .sum();
    PortfolioSummary {
        as_of: "2024-01-06".to_owned(),
        metrics: Metrics {
            rates_incomplete: unvalued,
            prices_incomplete: unvalued,
            total_equity_fiat: cents(sum),
            total_cost_basis_fiat: cents(sum),
            total_realized_pnl_fiat: "500.00".to_owned(),
            total_unrealized_pnl_fiat: "0.00".to_owned(),
            total_pnl_fiat: "500.00".to_owned(),
            currency: "EUR".to_owned(),
        },
        valued,
        unvalued: rest,
        missing: vec![],
    }
}

/// AC-31: a (100.00, cost 60.00), b (50.00, 40.00), c unvalued (cost 25.00), realized 12.34.
pub(super) fn abc_summary() -> PortfolioSummary {
    PortfolioSummary {
        as_of: "2024-01-06".to_owned(),
        metrics: Metrics {
            total_realized_pnl_fiat: "12.34".to_owned(),
            total_pnl_fiat: "62.34".to_owned(),
            prices_incomplete: true,
            ..metrics_fixture("150.00", "100.00", "50.00")
        },
        valued: vec![
            valued_fixture("A", "1", "60.00", "100.00"),
            valued_fixture("B", "1", "40.00", "50.00"),
        ],
        unvalued: vec![unvalued_fixture("C", "1", Some("25.00"), "no_price")],
        missing: vec![],
    }
}

/// `groups` defect groups of counts 100, 99, …; the first (MISSING_PRICE) holds `rows` rows.
pub(super) fn integrity(groups: usize, rows: usize) -> FiscalIntegrity {
    let flags = QualityFlag::ALL;
    let group = |i: usize| {
        let flag = flags[i % flags.len()];
        let count = 100 - i as u64;
        IntegrityGroupDto {
            quality_flag: flag.as_str().to_owned(),
            severity: flag.severity().as_str().to_owned(),
            count,
            pending_review: count / 2,
            rows: if i == 0 {
                (0..rows)
                    .map(|k| (k, k % 2 == 0))
                    .map(|(k, even)| IntegrityRowDto {
                        occurred_at: Some(format!("{}T10:00:00Z", day(k))),
                        symbol: Some("BTC".to_owned()),
                        account: Some("Kraken".to_owned()),
                        quantity: even.then(|| "0.5".to_owned()),
                        detail_key: format!("quality.missing_price.row{k}"),
                        pending_review: true,
                        row_key: Some(format!("k-MISSING_PRICE-{k}")),
                    })
                    .collect()
            } else {
                vec![]
            },
        }
    };
    let list: Vec<IntegrityGroupDto> = (0..groups).map(group).collect();
    FiscalIntegrity {
        total_defects: list.iter().map(|g| g.count).sum(),
        pending_review: list.iter().map(|g| g.pending_review).sum(),
        groups: list,
        needs_recalculation: false,
        counters: serde_json::from_value(json!({
            "excludedOperations": 0, "uncoveredQuantity": [], "flaggedOpenLots": 0,
            "unresolvedIncome": 0, "unresolvedDerivatives": 0, "unknownRows": 0
        }))
        .unwrap(),
    }
}

/// Acquisition date of lot `k` (strictly increasing).
pub(super) fn lot_date(k: usize) -> String {
    day(k)
}

fn lot_fixture(k: usize) -> LotDto {
    let closed = k % 3 == 0;
    LotDto {
        number: u64::try_from(k).unwrap_or(0) + 1,
        lot_id: format!("L:row-key-{k}:0"),
        date: lot_date(k),
        acquired_at: format!("{}T10:00:00Z", lot_date(k)),
        exchange: "Kraken:spot".to_owned(),
        original_qty: "0.01234567".to_owned(),
        remaining_qty: if closed { "0" } else { "0.01234567" }.to_owned(),
        unit_cost: Some("68850.123456789012".to_owned()),
        total_cost: Some("850.00".to_owned()),
        status: if closed { "CLOSED" } else { "OPEN" }.to_owned(),
        history_count: u64::from(closed),
        relocation_count: 0,
        flags: vec![],
        slices: vec![],
        relocations: vec![],
    }
}

/// A fake holding `n` BTC lots, newest first (lot-(n−1) … lot-0).
pub(super) fn lots_fake(n: usize) -> Fake {
    Fake {
        lots: (0..n).rev().map(lot_fixture).collect(),
        lots_symbol: "BTC".to_owned(),
        ..Fake::default()
    }
}

pub(super) fn tx_row_fixture(i: usize) -> TxRow {
    TxRow {
        row_key: format!("row-key-{i}"),
        date: format!("{}T10:00:00Z", day(300 - i)),
        tx_type: "BUY".to_owned(),
        asset_in: Some("BTC".to_owned()),
        amount_in: Some("0.1".to_owned()),
        asset_out: Some("EUR".to_owned()),
        amount_out: Some("5000".to_owned()),
        price_fiat: Some("50000".to_owned()),
        total_fiat: Some("5000.00".to_owned()),
        fiat_currency: Some("EUR".to_owned()),
        fee: FeeDto::Charged {
            amount: "5".to_owned(),
            asset: "EUR".to_owned(),
        },
        exchange: "Kraken".to_owned(),
        edited: false,
    }
}

/// A typical spot row (about 280 characters once projected).
pub(super) fn typical_tx_row(i: usize) -> TxRow {
    TxRow {
        date: format!("{}T10:21:07.123Z", day(300 - i)),
        amount_in: Some("0.01234567".to_owned()),
        amount_out: Some("850.12".to_owned()),
        price_fiat: Some("68860.845219274711".to_owned()),
        total_fiat: Some("850.12".to_owned()),
        fee: FeeDto::Charged {
            amount: "1.275".to_owned(),
            asset: "EUR".to_owned(),
        },
        exchange: "Kraken:spot".to_owned(),
        ..tx_row_fixture(i)
    }
}

/// AC-41: Kraken (empty), Kraken:earn (ADA), Kraken:spot (BTC, ETH).
pub(super) fn kraken_tree() -> AccountHoldingsResult {
    AccountHoldingsResult::Resolved {
        account_name: "Kraken".to_owned(),
        sections: vec![
            AccountSection {
                account_name: "Kraken:earn".to_owned(),
                metrics: metrics_fixture("10.00", "10.00", "0.00"),
                ranked: vec![valued_fixture("ADA", "10", "10.00", "10.00")],
                unvalued: vec![],
            },
            AccountSection {
                account_name: "Kraken:spot".to_owned(),
                metrics: metrics_fixture("150.00", "150.00", "0.00"),
                ranked: vec![
                    valued_fixture("BTC", "1", "100.00", "100.00"),
                    valued_fixture("ETH", "1", "50.00", "50.00"),
                ],
                unvalued: vec![unvalued_fixture("PUMP", "1000", None, "no_rate")],
            },
        ],
        empty_account_count: 1,
        missing: vec![],
    }
}

fn summary_with(gains: &str, net: &str, irpf: Option<&str>) -> TaxSummary {
    let zero = || "0.00".to_owned();
    TaxSummary {
        capital_gains: gains.to_owned(),
        capital_losses: zero(),
        savings_base_yields: zero(),
        general_base_airdrops: zero(),
        net_patrimonial_result: net.to_owned(),
        estimated_irpf: irpf.map(str::to_owned),
        savings_transmission_balance: zero(),
        general_short_term_balance: zero(),
        current_year_cross_compensation: zero(),
        carry_forward_used: zero(),
        savings_base_after_compensation: zero(),
        general_gains_after_compensation: zero(),
        carry_forward_generated: zero(),
        carry_forward_remaining: zero(),
        carry_forward_expired: zero(),
        economic_activity_income: zero(),
    }
}

fn side(year: i32, summary: TaxSummary, flagged: u64) -> TaxYearSideDto {
    TaxYearSideDto {
        year,
        currency: "EUR".to_owned(),
        summary,
        unconvertible_count: 0,
        excluded_flagged_events: flagged,
        excluded_unresolved_income: 0,
        completeness: if flagged > 0 {
            CompletenessDto::Incomplete {
                reasons: vec!["excluded_flagged_events".to_owned()],
            }
        } else {
            CompletenessDto::Complete
        },
    }
}

/// AC-46 / AC-47: 2024 {100, 100, 19} against 2025 {300, 300, 57}.
pub(super) fn comparison(incomplete: bool) -> TaxYearComparison {
    let kind = if incomplete {
        "delta_incomparable"
    } else {
        "delta"
    };
    let d = |value: &str| DeltaDto {
        kind: kind.to_owned(),
        value: Some(value.to_owned()),
    };
    let z = || d("0.00");
    TaxYearComparison {
        method: "FIFO".to_owned(),
        year_a: side(2024, summary_with("100.00", "100.00", Some("19.00")), 0),
        year_b: side(
            2025,
            summary_with("300.00", "300.00", Some("57.00")),
            if incomplete { 2 } else { 0 },
        ),
        deltas: SummaryDeltas {
            capital_gains: d("200.00"),
            capital_losses: z(),
            savings_base_yields: z(),
            general_base_airdrops: z(),
            net_patrimonial_result: d("200.00"),
            estimated_irpf: d("38.00"),
            savings_transmission_balance: z(),
            general_short_term_balance: z(),
            current_year_cross_compensation: z(),
            carry_forward_used: z(),
            savings_base_after_compensation: z(),
            general_gains_after_compensation: z(),
            carry_forward_generated: z(),
            carry_forward_remaining: z(),
            carry_forward_expired: z(),
            economic_activity_income: z(),
        },
    }
}

/// A year report with empty detail lists and `unconvertible` unconvertible events.
pub(super) fn report_fixture(year: i32, unconvertible: u64) -> TaxReport {
    let status = if unconvertible > 0 {
        json!({"kind": "incomplete", "reasons": ["unconvertible_events"]})
    } else {
        json!({"kind": "complete"})
    };
    let mut report: TaxReport = serde_json::from_value(json!({
        "year": year, "currency": "EUR", "method": "FIFO", "startYear": 2021,
        "summary": serde_json::to_value(summary_with("698.70", "-195.69", Some("0.00"))).unwrap(),
        "bases": {"savingsTransmissionBalance": "-195.69", "savingsRcmBalance": "0.00", "crossPercentage": "0.2500",
                  "savingsGpAfterCompensation": "0.00", "savingsRcmAfterCompensation": "0.00",
                  "savingsBaseAfterCompensation": "0.00", "generalGainsBalance": "0.00",
                  "generalGainsAfterCompensation": "0.00", "brackets": []},
        "carryForward": {"used": [], "generated": [], "remaining": [], "expired": []},
        "completeness": {"unconvertibleCount": unconvertible, "excludedFlaggedEvents": 0,
                         "excludedUnresolvedIncome": 0, "status": status, "uncoveredQuantity": [],
                         "manualValueCount": 0, "excludedOperations": []},
        "auditTrail": [], "income": {"receipts": [], "totalsByBucket": [], "totalsByAsset": []},
        "derivatives": {"contracts": [], "unresolved": []},
        "modelo100": {"boxes": true, "rows": [], "totals": {"totalTransmissionValue": "0.00",
                      "totalAcquisitionValue": "0.00", "totalLosses": "0.00", "totalGains": "0.00",
                      "sliceCount": 0, "operationCount": 0}, "derivatives": [],
                      "capitalIncome": {"total": "0.00", "perAsset": []},
                      "generalGains": {"total": "0.00", "perAsset": []},
                      "economicActivity": {"total": "0.00", "perAsset": []}},
        "annex": [], "art33_5Warnings": [], "yearEndHoldings": null, "warnings": [], "assumptions": [],
        "rentaGuide": {"ejercicio": year, "covered": true, "coveredEjercicios": [2023, 2024, 2025],
                       "rowLimit": 120, "aggregation": "PER_COIN_CLAVE_SIGN",
                       "cryptoRows": [{"coin": "SOLANA (SOL)", "symbol": "SOL", "clave": "F",
                                       "transmissionAmount": "120.00", "transmissionExpenses": "0.00",
                                       "box1804": "120.00", "acquisitionAmount": "20.00",
                                       "acquisitionExpenses": "0.00", "box1806": "20.00",
                                       "box1807": null, "box1809": "100.00"}],
                       "boxes": [{"box": "1814", "label": "Suma de ganancias patrimoniales de monedas virtuales", "amount": "100.00"},
                                 {"box": "0442", "label": "Saldo neto negativo", "amount": "100.00", "originYear": 2022}],
                       "pending": [], "notes": [{"code": "BANKRUPTCY_OR_FRAUD_LOSS"}]}
    }))
    .unwrap();
    report.summary.capital_losses = "894.39".to_owned();
    report
}

/// Disposal slice `i`, newest first (i = 0 is the latest).
pub(super) fn audit_fixture(i: usize) -> AuditRowDto {
    AuditRowDto {
        slice_id: format!("S:row-key-{i}:P:0"),
        row_key: format!("row-key-{i}"),
        leg: "P".to_owned(),
        operation_type: "SELL".to_owned(),
        asset: "BTC".to_owned(),
        quantity: "0.01234567".to_owned(),
        clave: Some("F".to_owned()),
        disposed_at: format!("{}T10:00:00Z", day(200 - i)),
        disposed_on: day(200 - i),
        lot_id: Some("L:row-key-a:0".to_owned()),
        acquisition_row_key: Some("row-key-a".to_owned()),
        acquired_on: Some(day(10)),
        holding: Some("SHORT".to_owned()),
        base: Some("SAVINGS".to_owned()),
        disposal_account: "Kraken".to_owned(),
        lot_account: Some("Kraken".to_owned()),
        gross_transmission_value: Some("901.27".to_owned()),
        fee_expense: Some("1.27".to_owned()),
        transmission_value: Some("900.00".to_owned()),
        acquisition_value: Some("850.12".to_owned()),
        result: Some("49.88".to_owned()),
        included: true,
        quality_flags: vec![],
        transmission_provenance: None,
        acquisition_provenance: None,
        price: None,
        price_currency: None,
        price_date: None,
        fx_rate: None,
        fx_rate_date: None,
        swap: None,
    }
}

/// The D-14 risk figures (`domain.md` D-14, pinned in use-cases).
pub(super) fn d14_risk() -> RiskMetricsDto {
    RiskMetricsDto {
        max_drawdown_pct: "-0.0159".to_owned(),
        annualized_volatility: Some("0.7045".to_owned()),
        sharpe_ratio: Some("12.9163".to_owned()),
        alpha: Some("3.5000".to_owned()),
        beta: Some("0.7541".to_owned()),
    }
}

/// The D-14 KPIs (`tools.md` AC-59, pinned in use-cases).
pub(super) fn d14_kpis() -> KpisDto {
    let s = |t: &str| t.to_owned();
    KpisDto {
        as_of: Some(s("2024-01-06")),
        currency: s("EUR"),
        rates_incomplete: false,
        prices_incomplete: false,
        total_equity: s("44050.00"),
        total_cost_basis: s("40000.00"),
        total_unrealized_pnl: s("4050.00"),
        total_realized_pnl: s("1000.00"),
        total_pnl: s("5050.00"),
        total_roi_pct: Some(s("12.63")),
        change24h: Some(s("3050.00")),
        all_time_high: Some(s("63000.00")),
        max_drawdown_pct: s("-0.0159"),
        annualized_volatility: Some(s("0.7045")),
        sharpe_ratio: Some(s("12.9163")),
        excluded_flagged_lots: 0,
        trades: TradeStatsDto {
            total: 1,
            winning: 1,
            losing: 0,
            win_rate_pct: Some(s("100.00")),
            average_r: None,
        },
        best_asset: Some(AssetKpi {
            symbol: s("BTC"),
            roi_pct: s("10.25"),
            allocation_pct: s("50.06"),
        }),
        worst_asset: Some(AssetKpi {
            symbol: s("ETH"),
            roi_pct: s("10.00"),
            allocation_pct: s("49.94"),
        }),
    }
}

/// A fake answering every use case.
pub(super) fn everything() -> Fake {
    Fake {
        summary: Some(forty(true)),
        account: Some(kraken_tree()),
        integrity: Some(integrity(3, 2)),
        allocation: Some(AssetAllocation {
            as_of: None,
            currency: "EUR".to_owned(),
            ranked: vec![AllocationItem {
                symbol: "BTC".to_owned(),
                amount: "1".to_owned(),
                value_fiat: "100.00".to_owned(),
                allocation_pct: "100.00".to_owned(),
                currency: "EUR".to_owned(),
            }],
            unvalued: vec![],
        }),
        risk: Some(d14_risk()),
        kpis: Some(d14_kpis()),
        drawdown: Some(DrawdownCurve {
            points: vec![],
            omitted_count: 0,
        }),
        performance: Some(PerformanceHistory {
            currency: "EUR".to_owned(),
            points: vec![],
            omitted_count: 0,
        }),
        heatmap: Some(VolatilityHeatmap {
            year: 2026,
            cells: vec![],
            omitted_count: 0,
        }),
        report: Some(report_fixture(2024, 0)),
        prices: Some(LatestPrices {
            prices: vec![],
            not_tracked: vec!["BTC".to_owned()],
        }),
        comparison: Some(comparison(false)),
        scenario: None,
        derivatives: Some(DerivativesPnl { ranked: vec![] }),
        custody: Some(CustodyLocations {
            locations: vec![],
            synthetic_row_count: 0,
        }),
        ..lots_fake(1)
    }
}

/// A scenario answer for the every-tool test, per scenario tool.
pub(super) fn scenario_for(tool: ToolName) -> Option<ScenarioAnswer> {
    let c = || "EUR".to_owned();
    match tool {
        ToolName::ScenarioPositionValue => Some(ScenarioAnswer::PositionValue(
            shared_types::dto::PositionValueDto::NotHeld {
                symbol: "BTC".to_owned(),
                currency: c(),
            },
        )),
        ToolName::BreakevenPrice => Some(ScenarioAnswer::Breakeven(
            shared_types::dto::BreakevenDto::NotHeld {
                symbol: "BTC".to_owned(),
                currency: c(),
            },
        )),
        ToolName::ScenarioPortfolioShock => Some(ScenarioAnswer::Shock(
            shared_types::dto::ShockDto::EmptyPortfolio { currency: c() },
        )),
        ToolName::ConcentrationRisk => Some(ScenarioAnswer::Concentration(ConcentrationDto {
            all: ConcentrationBlockDto::Empty,
            excluding_stablecoins: ConcentrationBlockDto::Empty,
            stablecoin_weight: None,
            unvalued_count: 0,
            currency: c(),
        })),
        _ => None,
    }
}

/// Canonical arguments of a valid call of `tool`.
pub(super) fn sample_args(tool: ToolName) -> Value {
    match tool {
        ToolName::FiscalIntegrityRows => json!({"qualityFlag": "MISSING_PRICE", "page": 0}),
        ToolName::TokenHistory | ToolName::HoldingDetail | ToolName::BreakevenPrice => {
            json!({"symbol": "BTC"})
        }
        ToolName::TokenLots => json!({"symbol": "BTC", "page": 0}),
        ToolName::DrawdownCurve | ToolName::PerformanceHistory => json!({"days": 30}),
        ToolName::VolatilityHeatmap => json!({"year": 2026}),
        ToolName::SpanishTaxReport => json!({"year": 2024, "method": "FIFO"}),
        ToolName::LivePrices => json!({"symbols": ["BTC"]}),
        ToolName::AccountHoldings => json!({"accountName": "Kraken"}),
        ToolName::TaxYearComparison => json!({"yearA": 2024, "yearB": 2025, "method": "FIFO"}),
        ToolName::ExplainMetric => json!({"metric": "hhi"}),
        ToolName::ScenarioPositionValue => json!({"symbol": "BTC", "hypotheticalPrice": "70000"}),
        ToolName::ScenarioPortfolioShock => json!({"shock": {"kind": "uniform", "pct": "5"}}),
        ToolName::TxSearch => json!({"page": 1}),
        _ => json!({}),
    }
}
