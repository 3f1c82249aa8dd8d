//! The payload-shape checker of `tools.md` §15: exact key lists in order, lowerCamelCase keys
//! (`no_price` and `no_rate` of `data_gaps` excepted), integers only as non-negative numbers,
//! every figure string in its §7.2 format, no `accountId` or `txId` key, and `id` only as the
//! asset id of a holding.

use serde_json::Value;
use shared_types::{QualityFlag, SpotTxType, ToolName};

use crate::payloads::emit::Fmt;

/// An expected shape.
#[derive(Clone, Debug)]
pub(crate) enum S {
    F(Fmt),
    Str,
    Bool,
    Int,
    /// The asset id of a holding.
    AssetId,
    Lit(&'static [&'static str]),
    /// A string of a closed vocabulary.
    Pred(fn(&str) -> bool),
    Null(Box<S>),
    List(Box<S>),
    Obj(Vec<(&'static str, S)>),
    /// Objects told apart by their `kind`; each arm lists its keys after `kind`.
    Union(Vec<(&'static str, Vec<(&'static str, S)>)>),
}

use S::{AssetId, Bool, Int, Lit, Str};

fn f(fmt: Fmt) -> S {
    S::F(fmt)
}
fn null(s: S) -> S {
    S::Null(Box::new(s))
}
fn list(s: S) -> S {
    S::List(Box::new(s))
}
fn obj(keys: Vec<(&'static str, S)>) -> S {
    S::Obj(keys)
}

fn metrics() -> S {
    obj(vec![
        ("ratesIncomplete", Bool),
        ("pricesIncomplete", Bool),
        ("totalEquityFiat", f(Fmt::Amount)),
        ("totalCostBasisFiat", f(Fmt::Amount)),
        ("totalRealizedPnlFiat", f(Fmt::Amount)),
        ("totalUnrealizedPnlFiat", f(Fmt::Amount)),
        ("totalPnlFiat", f(Fmt::Amount)),
        ("currency", f(Fmt::Currency)),
    ])
}

fn valued() -> S {
    obj(vec![
        ("id", AssetId),
        ("symbol", f(Fmt::Symbol)),
        ("amount", f(Fmt::Quantity)),
        ("avgPriceFiat", f(Fmt::UnitPrice)),
        ("costBasisFiat", f(Fmt::Amount)),
        ("currentValueFiat", f(Fmt::Amount)),
        ("unrealizedPnlFiat", f(Fmt::Amount)),
        ("currency", f(Fmt::Currency)),
    ])
}

fn unvalued() -> S {
    obj(vec![
        ("id", AssetId),
        ("symbol", f(Fmt::Symbol)),
        ("amount", f(Fmt::Quantity)),
        ("costBasisFiat", null(f(Fmt::Amount))),
        ("currency", f(Fmt::Currency)),
        ("reason", Lit(&["no_price", "no_rate", "out_of_range"])),
    ])
}

fn gap() -> S {
    obj(vec![
        ("symbol", f(Fmt::Symbol)),
        ("amount", f(Fmt::Quantity)),
    ])
}

const SEVERITY: &[&str] = &["high", "medium", "low"];

fn group() -> S {
    obj(vec![
        ("qualityFlag", S::Pred(|t| QualityFlag::parse(t).is_some())),
        ("severity", Lit(SEVERITY)),
        ("count", Int),
        ("pendingReview", Int),
    ])
}

fn lot() -> S {
    obj(vec![
        ("lotNumber", Int),
        ("date", f(Fmt::Date)),
        ("exchange", Str),
        ("originalQty", f(Fmt::Quantity)),
        ("remainingQty", f(Fmt::Quantity)),
        ("unitCost", null(f(Fmt::UnitPrice))),
        ("totalCost", null(f(Fmt::Amount))),
        ("status", Lit(&["OPEN", "PARTIAL", "CLOSED"])),
        ("historyCount", Int),
        ("relocationCount", Int),
    ])
}

fn summary() -> S {
    obj(shared_types::dto::TaxSummary::KEYS
        .iter()
        .map(|k| {
            let s = if *k == "estimatedIrpf" {
                null(f(Fmt::Amount))
            } else {
                f(Fmt::Amount)
            };
            (*k, s)
        })
        .collect())
}

fn completeness() -> S {
    S::Union(vec![
        ("complete", vec![]),
        (
            "incomplete",
            vec![(
                "reasons",
                list(Lit(&[
                    "unconvertible_events",
                    "excluded_flagged_events",
                    "excluded_unresolved_income",
                ])),
            )],
        ),
    ])
}

fn block() -> S {
    S::Union(vec![
        (
            "computed",
            vec![
                ("top1Weight", f(Fmt::Ratio)),
                ("top3Weight", f(Fmt::Ratio)),
                ("hhi", f(Fmt::Ratio)),
                ("effectiveHoldings", f(Fmt::Ratio)),
            ],
        ),
        ("empty", vec![]),
    ])
}

fn tx_row() -> S {
    obj(vec![
        ("date", f(Fmt::Instant)),
        ("type", S::Pred(|t| SpotTxType::parse(t).is_some())),
        ("assetIn", null(Str)),
        ("amountIn", null(f(Fmt::Quantity))),
        ("assetOut", null(Str)),
        ("amountOut", null(f(Fmt::Quantity))),
        ("priceFiat", null(f(Fmt::UnitPrice))),
        ("totalFiat", null(f(Fmt::Amount))),
        ("fiatCurrency", null(Str)),
        (
            "fee",
            S::Union(vec![
                ("NONE", vec![]),
                (
                    "CHARGED",
                    vec![("amount", f(Fmt::Quantity)), ("asset", Str)],
                ),
            ]),
        ),
        ("exchange", Str),
        ("edited", Bool),
    ])
}

fn holdings_block(name: bool) -> Vec<(&'static str, S)> {
    let mut keys = Vec::new();
    if name {
        keys.push(("accountName", Str));
    }
    keys.extend([
        ("metrics", metrics()),
        ("ranked", list(valued())),
        ("omittedCount", Int),
        ("unvalued", list(unvalued())),
        ("unvaluedCount", Int),
    ]);
    keys
}

fn tax_year() -> S {
    obj(vec![
        ("year", Int),
        ("currency", Lit(&["EUR"])),
        ("summary", summary()),
        ("unconvertibleCount", Int),
        ("excludedFlaggedEvents", Int),
        ("excludedUnresolvedIncome", Int),
        ("completeness", completeness()),
    ])
}

/// The payload shape of a tool (`tools.md` §9).
#[allow(clippy::too_many_lines)] // One arm per tool, in catalogue order.
pub(crate) fn tool_shape(tool: ToolName) -> S {
    match tool {
        ToolName::PortfolioSummary => obj(holdings_block(false)),
        ToolName::FiscalIntegrity => obj(vec![
            ("groups", list(group())),
            ("omittedCount", Int),
            ("totalDefects", Int),
            ("pendingReview", Int),
            ("needsRecalculation", Bool),
        ]),
        ToolName::FiscalIntegrityRows => obj(vec![
            ("qualityFlag", S::Pred(|t| QualityFlag::parse(t).is_some())),
            ("severity", Lit(SEVERITY)),
            (
                "rows",
                list(obj(vec![
                    ("occurredAt", null(f(Fmt::Instant))),
                    ("symbol", null(Str)),
                    ("account", null(Str)),
                    ("quantity", null(f(Fmt::Quantity))),
                    ("detailKey", Str),
                    ("pendingReview", Bool),
                ])),
            ),
            ("page", Int),
            ("pageSize", Int),
            ("totalPages", Int),
            ("totalCount", Int),
        ]),
        ToolName::TokenHistory => obj(vec![
            ("symbol", f(Fmt::Symbol)),
            ("currency", Lit(&["EUR"])),
            ("lots", list(lot())),
            ("omittedCount", Int),
        ]),
        ToolName::TokenLots => obj(vec![
            ("symbol", f(Fmt::Symbol)),
            ("currency", Lit(&["EUR"])),
            ("lots", list(lot())),
            ("page", Int),
            ("pageSize", Int),
            ("totalPages", Int),
            ("totalCount", Int),
        ]),
        ToolName::AssetAllocation => obj(vec![
            ("asOf", null(f(Fmt::Date))),
            (
                "ranked",
                list(obj(vec![
                    ("symbol", f(Fmt::Symbol)),
                    ("amount", f(Fmt::Quantity)),
                    ("valueFiat", f(Fmt::Amount)),
                    ("allocationPct", f(Fmt::Percent)),
                    ("currency", f(Fmt::Currency)),
                ])),
            ),
            ("omittedCount", Int),
            ("unvalued", list(gap())),
            ("unvaluedCount", Int),
        ]),
        ToolName::RiskMetrics => obj(vec![
            ("maxDrawdownPct", f(Fmt::Ratio)),
            ("annualizedVolatility", null(f(Fmt::Ratio))),
            ("sharpeRatio", null(f(Fmt::Ratio))),
            ("alpha", null(f(Fmt::Ratio))),
            ("beta", null(f(Fmt::Ratio))),
        ]),
        ToolName::Kpis => {
            let asset = || {
                null(obj(vec![
                    ("symbol", f(Fmt::Symbol)),
                    ("roiPct", f(Fmt::Percent)),
                    ("allocationPct", f(Fmt::Percent)),
                ]))
            };
            obj(vec![
                ("asOf", null(f(Fmt::Date))),
                ("currency", f(Fmt::Currency)),
                ("ratesIncomplete", Bool),
                ("pricesIncomplete", Bool),
                ("totalEquity", f(Fmt::Amount)),
                ("totalCostBasis", f(Fmt::Amount)),
                ("totalUnrealizedPnl", f(Fmt::Amount)),
                ("totalRealizedPnl", f(Fmt::Amount)),
                ("totalPnl", f(Fmt::Amount)),
                ("totalRoiPct", null(f(Fmt::Percent))),
                ("change24h", null(f(Fmt::Amount))),
                ("allTimeHigh", null(f(Fmt::Amount))),
                ("maxDrawdownPct", f(Fmt::Ratio)),
                ("annualizedVolatility", null(f(Fmt::Ratio))),
                ("sharpeRatio", null(f(Fmt::Ratio))),
                ("excludedFlaggedLots", Int),
                (
                    "trades",
                    obj(vec![
                        ("total", Int),
                        ("winning", Int),
                        ("losing", Int),
                        ("winRatePct", null(f(Fmt::Percent))),
                        ("averageR", null(f(Fmt::Ratio))),
                    ]),
                ),
                ("bestAsset", asset()),
                ("worstAsset", asset()),
            ])
        }
        ToolName::DrawdownCurve => obj(vec![
            (
                "points",
                list(obj(vec![
                    ("date", f(Fmt::Date)),
                    ("drawdownPct", f(Fmt::Ratio)),
                ])),
            ),
            ("omittedCount", Int),
        ]),
        ToolName::PerformanceHistory => obj(vec![
            ("currency", f(Fmt::Currency)),
            (
                "points",
                list(obj(vec![
                    ("date", f(Fmt::Date)),
                    ("portfolioValue", null(f(Fmt::Amount))),
                    ("drawdownPct", f(Fmt::Ratio)),
                    ("unvaluedAssets", Int),
                ])),
            ),
            ("omittedCount", Int),
        ]),
        ToolName::VolatilityHeatmap => obj(vec![
            ("year", Int),
            (
                "cells",
                list(obj(vec![
                    ("date", f(Fmt::Date)),
                    ("volatility", null(f(Fmt::Ratio))),
                ])),
            ),
            ("omittedCount", Int),
        ]),
        ToolName::SpanishTaxReport => obj(vec![
            ("year", Int),
            ("method", Lit(&["FIFO"])),
            ("currency", Lit(&["EUR"])),
            ("summary", summary()),
            ("unconvertibleCount", Int),
            ("excludedFlaggedEvents", Int),
            ("excludedUnresolvedIncome", Int),
            ("twoMonthRuleWarningCount", Int),
            ("completeness", completeness()),
            (
                "rentaGuide",
                obj(vec![
                    ("covered", Bool),
                    (
                        "cryptoRows",
                        list(obj(vec![
                            ("coin", Str),
                            ("clave", Lit(&["F", "N", "O", "B"])),
                            ("box1804", f(Fmt::Amount)),
                            ("box1806", f(Fmt::Amount)),
                            ("box1807", null(f(Fmt::Amount))),
                            ("box1809", null(f(Fmt::Amount))),
                        ])),
                    ),
                    ("omittedCryptoRows", Int),
                    (
                        "boxes",
                        list(obj(vec![
                            ("box", Str),
                            ("amount", f(Fmt::Amount)),
                            ("originYear", null(Int)),
                        ])),
                    ),
                    ("notes", list(Str)),
                ]),
            ),
            (
                "auditTrail",
                list(obj(vec![
                    ("date", f(Fmt::Date)),
                    ("acquired", null(f(Fmt::Date))),
                    ("symbol", f(Fmt::Symbol)),
                    ("type", Lit(&["SELL", "SWAP", "SPEND", "FEE"])),
                    ("clave", Lit(&["F", "N", "O", "B"])),
                    ("quantity", f(Fmt::Quantity)),
                    ("transmissionValue", null(f(Fmt::Amount))),
                    ("acquisitionValue", null(f(Fmt::Amount))),
                    ("gainLoss", null(f(Fmt::Amount))),
                    ("base", Lit(&["savings", "general", "excluded"])),
                ])),
            ),
            ("omittedCount", Int),
        ]),
        ToolName::LivePrices => obj(vec![
            (
                "prices",
                list(obj(vec![
                    ("symbol", f(Fmt::Symbol)),
                    ("price", f(Fmt::UnitPrice)),
                    ("currency", f(Fmt::Currency)),
                    ("timestamp", f(Fmt::Instant)),
                    ("provider", Str),
                    ("stalenessSeconds", Int),
                ])),
            ),
            ("notTracked", list(f(Fmt::Symbol))),
        ]),
        ToolName::HoldingDetail => S::Union(vec![
            ("valued", vec![("holding", valued())]),
            ("unvalued", vec![("holding", unvalued())]),
            ("not_held", vec![("symbol", f(Fmt::Symbol))]),
        ]),
        ToolName::AccountHoldings => S::Union(vec![
            (
                "resolved",
                vec![
                    ("accountName", Str),
                    ("sections", list(obj(holdings_block(true)))),
                    ("omittedSectionCount", Int),
                    ("emptyAccountCount", Int),
                ],
            ),
            ("ambiguous", vec![("candidates", list(Str))]),
            ("not_found", vec![("available", list(Str))]),
        ]),
        ToolName::TaxYearComparison => obj(vec![
            ("method", Lit(&["FIFO"])),
            ("yearA", tax_year()),
            ("yearB", tax_year()),
            (
                "deltas",
                obj(shared_types::dto::TaxSummary::KEYS
                    .iter()
                    .map(|k| {
                        (
                            *k,
                            obj(vec![
                                ("kind", Lit(&["delta", "delta_incomparable"])),
                                ("value", null(f(Fmt::Amount))),
                            ]),
                        )
                    })
                    .collect()),
            ),
        ]),
        ToolName::DataGaps => obj(vec![
            (
                "unvalued",
                obj(vec![
                    ("no_price", list(gap())),
                    ("noPriceCount", Int),
                    ("no_rate", list(gap())),
                    ("noRateCount", Int),
                    ("out_of_range", list(gap())),
                    ("outOfRangeCount", Int),
                ]),
            ),
            (
                "integrity",
                obj(vec![
                    ("groups", list(group())),
                    ("omittedCount", Int),
                    ("totalDefects", Int),
                    ("needsRecalculation", Bool),
                ]),
            ),
            (
                "nextTools",
                list(Lit(&["fiscal_integrity_rows", "holding_detail"])),
            ),
        ]),
        ToolName::ExplainMetric => obj(vec![]),
        ToolName::ScenarioPositionValue => {
            let sym = || ("symbol", f(Fmt::Symbol));
            let cur = || ("currency", f(Fmt::Currency));
            S::Union(vec![
                (
                    "computed",
                    vec![
                        sym(),
                        ("positionValue", f(Fmt::Amount)),
                        ("deltaVsCurrent", f(Fmt::Amount)),
                        ("impliedAllocationPct", f(Fmt::Percent)),
                        cur(),
                    ],
                ),
                (
                    "unvalued",
                    vec![sym(), ("positionValue", f(Fmt::Amount)), cur()],
                ),
                ("not_held", vec![sym(), cur()]),
                ("empty_portfolio", vec![sym(), cur()]),
            ])
        }
        ToolName::BreakevenPrice => {
            let sym = || ("symbol", f(Fmt::Symbol));
            let cur = || ("currency", f(Fmt::Currency));
            S::Union(vec![
                (
                    "computed",
                    vec![sym(), ("avgUnitCost", f(Fmt::UnitPrice)), cur()],
                ),
                ("not_held", vec![sym(), cur()]),
                ("unconvertible_cost_basis", vec![sym(), cur()]),
                ("unknown_cost_basis", vec![sym(), cur()]),
                ("zero_quantity", vec![sym(), cur()]),
            ])
        }
        ToolName::DerivativesPnl => obj(vec![
            ("ranked", list(S::Obj(vec![]))), // rows checked by `derivative_row`
            ("omittedCount", Int),
        ]),
        ToolName::CustodyLocations => obj(vec![
            (
                "locations",
                list(obj(vec![
                    ("symbol", f(Fmt::Symbol)),
                    ("accountName", Str),
                    ("quantity", f(Fmt::Quantity)),
                    ("lotCount", Int),
                ])),
            ),
            ("omittedCount", Int),
            ("syntheticRowCount", Int),
        ]),
        ToolName::ScenarioPortfolioShock => S::Union(vec![
            (
                "computed",
                vec![
                    (
                        "assets",
                        list(obj(vec![
                            ("symbol", f(Fmt::Symbol)),
                            ("before", f(Fmt::Amount)),
                            ("after", f(Fmt::Amount)),
                        ])),
                    ),
                    ("omittedCount", Int),
                    ("totalBefore", f(Fmt::Amount)),
                    ("totalAfter", f(Fmt::Amount)),
                    ("delta", f(Fmt::Amount)),
                    ("unvaluedSymbols", list(f(Fmt::Symbol))),
                    ("unvaluedCount", Int),
                    ("notHeld", list(f(Fmt::Symbol))),
                    ("currency", f(Fmt::Currency)),
                ],
            ),
            ("empty_portfolio", vec![("currency", f(Fmt::Currency))]),
        ]),
        ToolName::ConcentrationRisk => obj(vec![
            ("all", block()),
            ("excludingStablecoins", block()),
            ("stablecoinWeight", null(f(Fmt::Ratio))),
            ("unvaluedCount", Int),
            ("currency", f(Fmt::Currency)),
        ]),
        ToolName::TxSearch => obj(vec![
            ("rows", list(tx_row())),
            ("page", Int),
            ("pageSize", Int),
            ("totalPages", Int),
            ("totalCount", Int),
        ]),
    }
}

/// A derivatives row: native sums are Amounts when settled in fiat, else Quantities.
fn derivative_row(row: &Value, path: &str) {
    let currency = row["currency"].as_str().unwrap();
    let native = if shared_types::is_fiat_code(currency) {
        Fmt::Amount
    } else {
        Fmt::Quantity
    };
    let shape = obj(vec![
        ("symbol", Str),
        ("currency", Str),
        ("realizedPnl", f(native)),
        ("funding", f(native)),
        ("fees", f(native)),
        ("netPnl", f(native)),
        ("netEur", f(Fmt::Amount)),
        ("unresolvedCount", Int),
    ]);
    check_value(row, &shape, path);
}

fn keys_of(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

fn check_keys(value: &Value, keys: &[(&'static str, S)], path: &str) {
    let expected: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys_of(value), expected, "keys at {path}");
    for (key, shape) in keys {
        check_value(&value[*key], shape, &format!("{path}/{key}"));
    }
}

fn check_value(value: &Value, shape: &S, path: &str) {
    match shape {
        S::F(fmt) => {
            let text = value.as_str().unwrap_or_else(|| panic!("string at {path}"));
            assert!(fmt.accepts(text), "{text:?} is not {fmt:?} at {path}");
        }
        S::Str => assert!(value.is_string(), "string at {path}"),
        S::Bool => assert!(value.is_boolean(), "bool at {path}"),
        S::Int => assert!(value.is_u64(), "non-negative integer at {path}"),
        S::AssetId => {
            let id = value.as_str().unwrap();
            assert!(
                !id.is_empty()
                    && id
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.'),
                "asset id at {path}"
            );
        }
        S::Lit(allowed) => {
            let text = value.as_str().unwrap_or_else(|| panic!("string at {path}"));
            assert!(allowed.contains(&text), "{text:?} not allowed at {path}");
        }
        S::Pred(accepts) => {
            let text = value.as_str().unwrap_or_else(|| panic!("string at {path}"));
            assert!(accepts(text), "{text:?} not in vocabulary at {path}");
        }
        S::Null(inner) => {
            if !value.is_null() {
                check_value(value, inner, path);
            }
        }
        S::List(inner) => {
            let items = value.as_array().unwrap_or_else(|| panic!("list at {path}"));
            for (i, item) in items.iter().enumerate() {
                if path.ends_with("/ranked") && matches!(**inner, S::Obj(ref k) if k.is_empty()) {
                    derivative_row(item, &format!("{path}/{i}"));
                } else {
                    check_value(item, inner, &format!("{path}/{i}"));
                }
            }
        }
        S::Obj(keys) => check_keys(value, keys, path),
        S::Union(arms) => {
            let kind = value["kind"]
                .as_str()
                .unwrap_or_else(|| panic!("kind at {path}"));
            let (_, keys) = arms
                .iter()
                .find(|(k, _)| *k == kind)
                .unwrap_or_else(|| panic!("unknown arm {kind} at {path}"));
            let mut all = vec![("kind", Str)];
            all.extend(keys.iter().cloned());
            check_keys(value, &all, path);
        }
    }
}

/// Rules over every key and number of a payload.
fn check_generic(value: &Value, path: &str, tool: ToolName) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                let spelled = key.starts_with(|c: char| c.is_ascii_lowercase())
                    && key.chars().all(|c| c.is_ascii_alphanumeric());
                let gap_key = tool == ToolName::DataGaps
                    && (key == "no_price" || key == "no_rate" || key == "out_of_range")
                    && path == "/unvalued";
                assert!(spelled || gap_key, "key {key} at {path}");
                assert!(key != "accountId" && key != "txId" && key != "rowKey");
                check_generic(item, &format!("{path}/{key}"), tool);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check_generic(item, &format!("{path}/{i}"), tool);
            }
        }
        Value::Number(n) => assert!(n.is_u64(), "number {n} at {path}"),
        _ => {}
    }
}

/// Checks a payload of `tool` against §7, §8, §9 and §15.
pub(crate) fn check_payload(tool: ToolName, payload: &Value) {
    check_generic(payload, "", tool);
    check_value(payload, &tool_shape(tool), "");
}
