//! The worked multi-year examples I-1 to I-7 of `irpf.md` §12, run through the FIFO engine and
//! asserted verbatim, plus snapshots of the full year reports and the D-15 comparison.

use core_domain::compare::{TaxYearSide, compare_tax_summaries};
use core_domain::irpf::annex::{render_annex_csv, render_modelo100_csv};
use core_domain::irpf::render::{render_text, render_year_end};
use core_domain::irpf::report::{AuditRow, IrpfYearReport};
use core_domain::irpf::worksheet::{Worksheet721, YearEndClose, worksheet_714, worksheet_721};
use core_domain::irpf::year_end::{YearEndSnapshot, year_end_holdings};
use core_domain::irpf::{
    CarryKind, DeclaredCarryForward, IrpfComputation, IrpfInput, IrpfSettings,
};
use core_domain::num::{fiat, quantity};
use core_domain::testkit::{
    Ledger, Outcome, RowSpec, airdrop, asset, buy, dec, edit, fork, future, migration, reward,
    sell, staking, swap, transfer_in, transfer_out,
};
use core_domain::{Asset, Date};
use shared_types::{CustodyKind, FuturesKind};

fn report(outcome: &Outcome, settings: &IrpfSettings, year: i32) -> IrpfYearReport {
    let comp = IrpfComputation::new(IrpfInput {
        engine_input: &outcome.input,
        output: &outcome.output,
        accounts: &outcome.accounts,
        settings,
    })
    .unwrap();
    comp.year_report(year).unwrap()
}

/// Asserts the sixteen summary fields, in order, as formatted strings.
fn check_summary(report: &IrpfYearReport, expected: [&str; 16]) {
    let actual = report.summary.formatted();
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert_eq!(
            a,
            e,
            "{} field {} ({})",
            report.year,
            i + 1,
            core_domain::irpf::Summary::FIELDS[i]
        );
    }
}

fn modelo_rows(report: &IrpfYearReport) -> Vec<String> {
    report
        .modelo100
        .rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {} {} {}",
                r.base.as_str(),
                r.asset,
                r.clave.as_str(),
                r.sign.as_str(),
                fiat(r.transmission_value),
                fiat(r.acquisition_value),
                r.loss.map_or("-".to_owned(), fiat),
                r.gain.map_or("-".to_owned(), fiat),
            )
        })
        .collect()
}

fn warnings(report: &IrpfYearReport) -> Vec<&'static str> {
    report.warnings.iter().map(|w| w.as_str()).collect()
}

fn used(report: &IrpfYearReport) -> Vec<String> {
    report
        .carry_forward
        .used
        .iter()
        .map(|u| {
            format!(
                "{} {} {} {} {}",
                u.origin_year,
                u.kind.as_str(),
                u.source.as_str(),
                u.nature.as_str(),
                fiat(u.amount)
            )
        })
        .collect()
}

fn remaining(report: &IrpfYearReport) -> Vec<String> {
    report
        .carry_forward
        .remaining
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {}",
                r.origin_year,
                r.kind.as_str(),
                r.source.as_str(),
                fiat(r.remaining),
                r.last_usable_year
            )
        })
        .collect()
}

fn i1() -> Outcome {
    Ledger::new()
        .row(
            buy("a1", "Mtgox", "2013-04-10T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("180.00", "EUR"),
        )
        .row(
            sell("a2", "Mtgox", "2013-07-05T10:00:00Z")
                .inflow("32.50", "EUR")
                .outflow("0.5", "BTC"),
        )
        .row(
            buy("a3", "Bitstamp", "2014-04-11T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("262.00", "EUR")
                .fee("2.00", "EUR"),
        )
        .row(
            sell("a4", "Bitstamp", "2014-06-02T10:00:00Z")
                .inflow("693.00", "EUR")
                .outflow("1.5", "BTC")
                .fee("3.00", "EUR"),
        )
        .run()
}

#[test]
fn i1_short_term_loss_carried_into_short_term_gain() {
    let outcome = i1();
    let settings = IrpfSettings::default();
    let r2013 = report(&outcome, &settings, 2013);
    check_summary(
        &r2013,
        [
            "0.00", "57.50", "0.00", "0.00", "-57.50", "0.00", "0.00", "-57.50", "0.00", "0.00",
            "0.00", "0.00", "57.50", "57.50", "0.00", "0.00",
        ],
    );
    assert_eq!(remaining(&r2013), ["2013 GENERAL_GP LEDGER 57.50 2017"]);
    assert_eq!(
        warnings(&r2013),
        ["GENERAL_LOSS_ABSORPTION_UNKNOWN", "GENERAL_BASE_NOT_TAXED"]
    );
    assert!(!r2013.modelo100.boxes);
    assert_eq!(
        modelo_rows(&r2013),
        ["GENERAL BTC F LOSS 32.50 90.00 57.50 -"]
    );
    let audit = &r2013.audit_trail[0];
    assert_eq!(audit.slice_id(), "E:a2:P:0");
    assert_eq!(
        audit.holding.map(core_domain::irpf::Holding::as_str),
        Some("SHORT")
    );
    assert_eq!(
        audit.base.map(core_domain::irpf::Base::as_str),
        Some("GENERAL")
    );

    let r2014 = report(&outcome, &settings, 2014);
    check_summary(
        &r2014,
        [
            "336.00", "0.00", "0.00", "0.00", "336.00", "29.40", "140.00", "196.00", "0.00",
            "57.50", "140.00", "138.50", "0.00", "0.00", "0.00", "0.00",
        ],
    );
    assert_eq!(used(&r2014), ["2013 GENERAL_GP LEDGER SAME 57.50"]);
    assert_eq!(warnings(&r2014), ["GENERAL_BASE_NOT_TAXED"]);
    assert_eq!(
        modelo_rows(&r2014),
        [
            "SAVINGS BTC F GAIN 230.00 90.00 - 140.00",
            "GENERAL BTC F GAIN 460.00 264.00 - 196.00",
        ]
    );
    let slices: Vec<String> = r2014
        .audit_trail
        .iter()
        .map(|a| {
            format!(
                "{} {} {} {} {} {} {}",
                a.slice_id(),
                fiat(a.gross_transmission_value.unwrap()),
                fiat(a.fee_expense.unwrap()),
                fiat(a.transmission_value.unwrap()),
                fiat(a.acquisition_value.unwrap()),
                fiat(a.result.unwrap()),
                a.base.unwrap().as_str()
            )
        })
        .collect();
    assert_eq!(
        slices,
        [
            "E:a4:P:0 231.00 1.00 230.00 90.00 140.00 SAVINGS",
            "E:a4:P:1 462.00 2.00 460.00 264.00 196.00 GENERAL",
        ]
    );

    // With 20.00 absorbed by other general income in 2013 the item is 37.50.
    let absorbed = IrpfSettings {
        general_absorption: vec![(2013, dec("20.00"))],
        ..IrpfSettings::default()
    };
    let r = report(&outcome, &absorbed, 2013);
    assert_eq!(remaining(&r), ["2013 GENERAL_GP LEDGER 37.50 2017"]);
    assert_eq!(warnings(&r), ["GENERAL_BASE_NOT_TAXED"]);
    insta::assert_snapshot!("i1_2013", render_text(&r2013));
    insta::assert_snapshot!("i1_2014", render_text(&r2014));
}

fn i2() -> Outcome {
    core_domain::testkit::examples::i2().run()
}

#[test]
fn i2_loss_carried_forward_cross_compensation_and_expiry() {
    let outcome = i2();
    let settings = IrpfSettings::default();
    let columns: [(i32, [&str; 16]); 5] = [
        (
            2018,
            [
                "0.00", "6217.80", "200.00", "0.00", "-6217.80", "28.50", "-6217.80", "0.00",
                "50.00", "0.00", "150.00", "0.00", "6167.80", "6167.80", "0.00", "0.00",
            ],
        ),
        (
            2019,
            [
                "4250.00", "0.00", "0.00", "5.00", "4250.00", "0.00", "4250.00", "0.00", "0.00",
                "4250.00", "0.00", "5.00", "0.00", "1917.80", "0.00", "0.00",
            ],
        ),
        (
            2020,
            [
                "418.00", "0.00", "1000.00", "0.00", "418.00", "142.50", "418.00", "0.00", "0.00",
                "668.00", "750.00", "0.00", "0.00", "1249.80", "0.00", "0.00",
            ],
        ),
        (
            2021,
            [
                "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00",
                "0.00", "0.00", "0.00", "1249.80", "0.00", "0.00",
            ],
        ),
        (
            2022,
            [
                "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00",
                "0.00", "0.00", "0.00", "0.00", "1249.80", "0.00",
            ],
        ),
    ];
    for (year, expected) in columns {
        let r = report(&outcome, &settings, year);
        check_summary(&r, expected);
        insta::assert_snapshot!(format!("i2_{year}"), render_text(&r));
    }
    let r2018 = report(&outcome, &settings, 2018);
    assert_eq!(remaining(&r2018), ["2018 SAVINGS_GP LEDGER 6167.80 2022"]);
    assert_eq!(warnings(&r2018), Vec::<&str>::new());
    let r2019 = report(&outcome, &settings, 2019);
    assert_eq!(used(&r2019), ["2018 SAVINGS_GP LEDGER SAME 4250.00"]);
    assert_eq!(warnings(&r2019), ["GENERAL_BASE_NOT_TAXED"]);
    let r2020 = report(&outcome, &settings, 2020);
    assert_eq!(
        used(&r2020),
        [
            "2018 SAVINGS_GP LEDGER SAME 418.00",
            "2018 SAVINGS_GP LEDGER CROSS 250.00"
        ]
    );
    let r2022 = report(&outcome, &settings, 2022);
    let expired: Vec<String> = r2022
        .carry_forward
        .expired
        .iter()
        .map(|e| format!("{} {} {}", e.origin_year, e.kind.as_str(), fiat(e.amount)))
        .collect();
    assert_eq!(expired, ["2018 SAVINGS_GP 1249.80"]);
    assert!(r2022.carry_forward.remaining.is_empty());
}

fn i3() -> Outcome {
    Ledger::new()
        .row(
            buy("c1", "Bitstamp", "2016-01-02T10:00:00Z")
                .inflow("10", "BTC")
                .outflow("4000.00", "EUR")
                .fee("20.00", "EUR"),
        )
        .row(
            sell("c2", "Bitstamp", "2016-02-02T10:00:00Z")
                .inflow("3420.00", "EUR")
                .outflow("10", "BTC")
                .fee("17.10", "EUR"),
        )
        .row(
            reward("c3", "Bitfinex", "2016-03-01T10:00:00Z")
                .inflow("1", "BTC")
                .stated_value("402.53", "EUR"),
        )
        .row(
            swap("c4", "Bitfinex", "2017-03-01T10:00:00Z")
                .inflow("70", "ETH")
                .outflow("1", "BTC"),
        )
        .row(
            reward("c5", "Bitfinex", "2017-06-01T10:00:00Z")
                .inflow("2.5", "ETH")
                .stated_value("500.00", "EUR"),
        )
        .price("2017-03-01", "BTC", "1116.62", "EUR")
        .price("2017-03-01", "ETH", "15.90", "EUR")
        .run()
}

fn i3_settings() -> IrpfSettings {
    IrpfSettings {
        start_year: Some(2016),
        declared_carry_forwards: vec![DeclaredCarryForward {
            origin_year: 2014,
            kind: CarryKind::SavingsGp,
            amount: dec("300.00"),
        }],
        ..IrpfSettings::default()
    }
}

#[test]
fn i3_phase_in_percentages_declared_loss_and_swap() {
    let outcome = i3();
    let settings = i3_settings();
    let columns: [(i32, [&str; 16]); 5] = [
        (
            2016,
            [
                "0.00", "617.10", "402.53", "0.00", "-617.10", "65.01", "-617.10", "0.00", "60.38",
                "0.00", "342.15", "0.00", "556.72", "856.72", "0.00", "0.00",
            ],
        ),
        (
            2017,
            [
                "714.09", "0.00", "500.00", "0.00", "714.09", "76.00", "714.09", "0.00", "0.00",
                "814.09", "400.00", "0.00", "0.00", "42.63", "0.00", "0.00",
            ],
        ),
        (
            2018,
            [
                "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00",
                "0.00", "0.00", "0.00", "42.63", "0.00", "0.00",
            ],
        ),
        (
            2019,
            [
                "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00",
                "0.00", "0.00", "0.00", "42.63", "0.00", "0.00",
            ],
        ),
        (
            2020,
            [
                "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00",
                "0.00", "0.00", "0.00", "0.00", "42.63", "0.00",
            ],
        ),
    ];
    for (year, expected) in columns {
        let r = report(&outcome, &settings, year);
        check_summary(&r, expected);
        insta::assert_snapshot!(format!("i3_{year}"), render_text(&r));
    }
    let r2016 = report(&outcome, &settings, 2016);
    assert_eq!(
        remaining(&r2016),
        [
            "2014 SAVINGS_GP DECLARED 300.00 2018",
            "2016 SAVINGS_GP LEDGER 556.72 2020"
        ]
    );
    assert!(r2016.carry_forward.used.is_empty());
    let r2017 = report(&outcome, &settings, 2017);
    assert_eq!(
        used(&r2017),
        [
            "2014 SAVINGS_GP DECLARED SAME 300.00",
            "2016 SAVINGS_GP LEDGER SAME 414.09",
            "2016 SAVINGS_GP LEDGER CROSS 100.00",
        ]
    );
    assert_eq!(remaining(&r2017), ["2016 SAVINGS_GP LEDGER 42.63 2020"]);
    assert_eq!(
        modelo_rows(&r2017),
        ["SAVINGS BTC N GAIN 1116.62 402.53 - 714.09"]
    );
    assert_eq!(outcome.lot("L:c4:0").original(), "70");
    assert_eq!(outcome.lot("L:c4:0").acquisition_value(), "1116.62");
    let swap = r2017.audit_trail[0].swap.as_ref().unwrap();
    assert_eq!(fiat(swap.given_value.unwrap()), "1116.62");
    assert_eq!(fiat(swap.received_value.unwrap()), "1113.00");
    // 2015 (before start_year): computed alone.
    let r2015 = report(&outcome, &settings, 2015);
    assert_eq!(warnings(&r2015), ["YEAR_BEFORE_START"]);
}

#[test]
fn i4_large_sale_across_the_top_brackets() {
    let outcome = core_domain::testkit::examples::i4().run();
    let settings = IrpfSettings::default();
    let zero = ["0.00"; 16];
    check_summary(&report(&outcome, &settings, 2022), zero);
    check_summary(&report(&outcome, &settings, 2023), zero);
    let r = report(&outcome, &settings, 2024);
    check_summary(
        &r,
        [
            "376993.79",
            "0.00",
            "1200.00",
            "800.00",
            "376993.79",
            "93774.26",
            "376993.79",
            "0.00",
            "0.00",
            "0.00",
            "378193.79",
            "800.00",
            "0.00",
            "0.00",
            "0.00",
            "0.00",
        ],
    );
    let brackets: Vec<String> = r
        .bases
        .brackets
        .iter()
        .map(|b| {
            format!(
                "{} {} {}",
                fiat(b.taxed_amount),
                b.rate.normalize(),
                b.tax.normalize()
            )
        })
        .collect();
    assert_eq!(
        brackets,
        [
            "6000.00 0.19 1140",
            "44000.00 0.21 9240",
            "150000.00 0.23 34500",
            "100000.00 0.27 27000",
            "78193.79 0.28 21894.2612",
        ]
    );
    assert_eq!(warnings(&r), ["GENERAL_BASE_NOT_TAXED"]);
    assert!(r.modelo100.boxes);
    assert_eq!(
        modelo_rows(&r),
        ["SAVINGS BTC F GAIN 524303.49 147309.70 - 376993.79"]
    );
    assert_eq!(outcome.lot("L:d1:0").acquisition_value(), "184137.13");
    assert_eq!(outcome.lot("L:d1:0").remaining(), "2");
    assert_eq!(outcome.lot("L:d1:0").remaining_cost(), "36827.43");
    insta::assert_snapshot!("i4_2024", render_text(&r));
    assert_eq!(
        render_modelo100_csv(&r.modelo100),
        "base,box_1802,box_1803,box_1804,box_1806,box_1807,box_1809,slice_count,operation_count\n\
         SAVINGS,BTC,F,524303.49,147309.70,,376993.79,1,1\n\
         TOTAL,,,524303.49,147309.70,0.00,376993.79,1,1\n"
    );
}

fn i5() -> Outcome {
    core_domain::testkit::examples::i5()
        .price("2022-06-02", "ETH", "1700.00", "EUR")
        .price("2022-06-02", "BTC", "27983.72", "EUR")
        .price("2022-11-08", "BTC", "20560.98", "EUR")
        .run()
}

#[test]
fn i5_modelo100_rows_swap_loss_network_fee_derivatives() {
    let outcome = i5();
    let settings = IrpfSettings::default();
    check_summary(&report(&outcome, &settings, 2021), ["0.00"; 16]);
    let r2022 = report(&outcome, &settings, 2022);
    check_summary(
        &r2022,
        [
            "698.70", "894.39", "0.00", "0.00", "-195.69", "0.00", "-195.69", "0.00", "0.00",
            "0.00", "0.00", "0.00", "195.69", "195.69", "0.00", "0.00",
        ],
    );
    assert_eq!(
        modelo_rows(&r2022),
        [
            "SAVINGS BTC B LOSS 4.11 8.50 4.39 -",
            "SAVINGS ETH F GAIN 1298.70 850.00 - 448.70",
            "SAVINGS ETH N GAIN 850.00 850.00 - 0.00",
            "SAVINGS ETH N LOSS 850.00 1650.00 800.00 -",
        ]
    );
    let t = &r2022.modelo100.totals;
    assert_eq!(
        [
            fiat(t.total_transmission_value),
            fiat(t.total_acquisition_value),
            fiat(t.total_losses),
            fiat(t.total_gains)
        ],
        ["3002.81", "3358.50", "804.39", "448.70"]
    );
    let contracts: Vec<String> = r2022
        .derivatives
        .contracts
        .iter()
        .map(|c| {
            format!(
                "{} {} {} {}",
                c.contract,
                fiat(c.gains),
                fiat(c.losses),
                fiat(c.net)
            )
        })
        .collect();
    assert_eq!(contracts, ["BTCEUR-PERP 250.00 90.00 160.00"]);
    assert_eq!(remaining(&r2022), ["2022 SAVINGS_GP LEDGER 195.69 2026"]);
    assert_eq!(warnings(&r2022), Vec::<&str>::new());
    let slice_ids: Vec<String> = r2022.audit_trail.iter().map(AuditRow::slice_id).collect();
    assert_eq!(slice_ids, ["E:e3:P:0", "E:e4:P:0", "E:e4:P:1", "E:e5:F:0"]);

    let r2023 = report(&outcome, &settings, 2023);
    check_summary(
        &r2023,
        [
            "100.00", "0.00", "0.00", "0.00", "100.00", "0.00", "100.00", "0.00", "0.00", "100.00",
            "0.00", "0.00", "0.00", "95.69", "0.00", "0.00",
        ],
    );
    assert_eq!(used(&r2023), ["2022 SAVINGS_GP LEDGER SAME 100.00"]);
    assert_eq!(remaining(&r2023), ["2022 SAVINGS_GP LEDGER 95.69 2026"]);
    insta::assert_snapshot!("i5_2022", render_text(&r2022));
    insta::assert_snapshot!("i5_2023", render_text(&r2023));
    insta::assert_snapshot!(
        "i5_2022_modelo100_csv",
        render_modelo100_csv(&r2022.modelo100)
    );
    insta::assert_snapshot!(
        "i5_2022_annex_csv",
        render_annex_csv(&r2022.audit_trail, &r2022.annex)
    );
}

fn i6() -> Outcome {
    core_domain::testkit::examples::i6().run()
}

fn i6_settings() -> IrpfSettings {
    IrpfSettings {
        art_33_5_warnings: true,
        ..IrpfSettings::default()
    }
}

// The example is one story (report, art. 33.5 list, comparison); it reads best in one piece.
#[allow(clippy::too_many_lines)]
#[test]
fn i6_incomplete_year_reacquisition_warning_and_comparison() {
    let outcome = i6();
    let settings = i6_settings();
    let r2023 = report(&outcome, &settings, 2023);
    check_summary(
        &r2023,
        [
            "0.00", "80.00", "50.00", "24.00", "-80.00", "7.13", "-80.00", "0.00", "12.50", "0.00",
            "37.50", "24.00", "67.50", "67.50", "0.00", "25.00",
        ],
    );
    let c = &r2023.completeness;
    assert_eq!(
        (
            c.unconvertible_count,
            c.excluded_flagged_events,
            c.excluded_unresolved_income
        ),
        (0, 1, 1)
    );
    assert_eq!(
        c.status.render(),
        "INCOMPLETE [excluded_flagged_events, excluded_unresolved_income]"
    );
    let uncovered: Vec<String> = c
        .uncovered_quantity
        .iter()
        .map(|(a, q)| format!("{a} {}", quantity(*q)))
        .collect();
    assert_eq!(uncovered, ["SOL 1"]);
    assert_eq!(c.excluded_operations[0].row_key, "f7");
    assert_eq!(
        warnings(&r2023),
        ["INCOMPLETE", "GENERAL_BASE_NOT_TAXED", "ART_33_5_REVIEW"]
    );
    assert_eq!(outcome.lot("L:f4:0").flags(), "MISSING_PRICE");
    assert_eq!(outcome.lot("L:f4:0").remaining(), "5");
    let list = r2023.art_33_5_warnings.as_ref().unwrap();
    assert_eq!(list.len(), 1);
    let entry = &list[0];
    assert_eq!(
        format!(
            "{} {} {} {} {} {}",
            entry.slice_id,
            entry.asset,
            entry.disposed_on,
            fiat(entry.loss),
            entry.window_from,
            entry.window_to
        ),
        "E:f2:P:0 DOT 2023-03-01 80.00 2023-01-01 2023-05-01"
    );
    let reacquisitions: Vec<String> = entry
        .reacquisitions
        .iter()
        .map(|q| {
            format!(
                "{} {} {} {}",
                q.lot_id,
                q.acquired_on,
                quantity(q.quantity),
                q.origin_type.as_str()
            )
        })
        .collect();
    assert_eq!(
        reacquisitions,
        ["L:f3:0 2023-03-20 100 BUY", "L:f4:0 2023-04-01 5 STAKING"]
    );

    let r2024 = report(&outcome, &settings, 2024);
    check_summary(
        &r2024,
        [
            "270.00", "0.00", "0.00", "0.00", "270.00", "38.48", "270.00", "0.00", "0.00", "67.50",
            "202.50", "0.00", "0.00", "0.00", "0.00", "0.00",
        ],
    );
    assert_eq!(used(&r2024), ["2023 SAVINGS_GP LEDGER SAME 67.50"]);
    assert_eq!(r2024.completeness.status.render(), "COMPLETE");
    assert_eq!(warnings(&r2024), Vec::<&str>::new());
    assert_eq!(r2024.audit_trail[0].lot_id().as_deref(), Some("L:f3:0"));
    insta::assert_snapshot!("i6_2023", render_text(&r2023));
    insta::assert_snapshot!("i6_2024", render_text(&r2024));

    // D-15 comparison over I-6.
    let side = TaxYearSide::from_report;
    let comparison = compare_tax_summaries(&side(&r2023), &side(&r2024)).unwrap();
    let deltas: Vec<String> = comparison
        .deltas
        .iter()
        .map(|d| {
            format!(
                "{} {} {}",
                d.field,
                d.value.map_or("null".to_owned(), fiat),
                d.kind.as_str()
            )
        })
        .collect();
    let expected = [
        ("capital_gains", "270.00"),
        ("capital_losses", "-80.00"),
        ("savings_base_yields", "-50.00"),
        ("general_base_airdrops", "-24.00"),
        ("net_patrimonial_result", "350.00"),
        ("estimated_irpf", "31.35"),
        ("savings_transmission_balance", "350.00"),
        ("general_short_term_balance", "0.00"),
        ("current_year_cross_compensation", "-12.50"),
        ("carry_forward_used", "67.50"),
        ("savings_base_after_compensation", "165.00"),
        ("general_gains_after_compensation", "-24.00"),
        ("carry_forward_generated", "-67.50"),
        ("carry_forward_remaining", "-67.50"),
        ("carry_forward_expired", "0.00"),
        ("economic_activity_income", "-25.00"),
    ]
    .map(|(f, v)| format!("{f} {v} DELTA_INCOMPARABLE"));
    assert_eq!(deltas, expected);
    assert_eq!(
        comparison.completeness_a.render(),
        "INCOMPLETE [excluded_flagged_events, excluded_unresolved_income]"
    );
}

fn i7() -> Outcome {
    let mut outcome = core_domain::testkit::examples::i7().run();
    for account in &mut outcome.accounts {
        let (kind, country) = match account.name.as_str() {
            "Kraken" => (CustodyKind::ForeignProvider, Some("IE")),
            "Bit2Me" => (CustodyKind::SpanishProvider, Some("ES")),
            _ => (CustodyKind::SelfCustody, None),
        };
        account.custody_kind = kind;
        account.country = country.map(str::to_owned);
    }
    outcome
}

fn i7_close(a: Asset, d: Date) -> Option<rust_decimal::Decimal> {
    use chrono::Datelike;
    let table = [
        ("BTC", 2024, "89031.24"),
        ("ETH", 2024, "3200.00"),
        ("BTC", 2025, "110000.00"),
        ("ETH", 2025, "3500.00"),
        ("BTC", 2026, "140000.00"),
        ("ETH", 2026, "3500.00"),
    ];
    table
        .iter()
        .find(|(s, y, _)| asset(s) == a && *y == d.year() && d.month() == 12 && d.day() == 31)
        .map(|(_, _, c)| dec(c))
}

#[test]
fn i7_year_end_holdings_for_modelo_721_and_714() {
    let outcome = i7();
    let snapshots = YearEndSnapshot::walk(
        2026,
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &[],
        core_domain::FiscalTimezone::EuropeMadrid,
    )
    .unwrap();
    let holdings = |year: i32| {
        year_end_holdings(year, &outcome.accounts, &snapshots, &i7_close, None).unwrap()
    };
    let h2024 = holdings(2024);
    let custodians: Vec<String> = h2024
        .custodians
        .iter()
        .flat_map(|c| {
            c.entries.iter().map(move |e| {
                format!(
                    "{} {} {} {}",
                    c.name,
                    e.asset,
                    quantity(e.units),
                    fiat(e.value.unwrap())
                )
            })
        })
        .collect();
    assert_eq!(
        custodians,
        [
            "Kraken BTC 0.6 53418.74",
            "Kraken ETH 2 6400.00",
            "Bit2Me BTC 0.2 17806.25",
            "Ledger BTC 0.1 8903.12",
        ]
    );
    let m = &h2024.modelo_721;
    assert_eq!(m.decision.as_str(), "REQUIRED_FIRST_TIME");
    assert_eq!(fiat(m.total_721), "59818.74");
    assert_eq!(m.filing_window.0.to_string(), "2025-01-01");
    assert_eq!(m.filing_window.1.to_string(), "2025-03-31");
    assert_eq!(fiat(h2024.modelo_714.total_714), "86528.11");
    assert!(!h2024.modelo_714.crypto_alone_exceeds_2m);

    let h2025 = holdings(2025);
    assert_eq!(h2025.modelo_721.decision.as_str(), "NOT_REQUIRED");
    assert_eq!(fiat(h2025.modelo_721.total_721), "67500.00");
    assert_eq!(
        h2025.modelo_721.last_filed_total.map(fiat).as_deref(),
        Some("59818.74")
    );
    assert_eq!(fiat(h2025.modelo_714.total_714), "100500.00");

    let h2026 = holdings(2026);
    assert_eq!(h2026.modelo_721.decision.as_str(), "REQUIRED_INCREASE");
    assert_eq!(fiat(h2026.modelo_721.total_721), "84000.00");
    assert_eq!(
        h2026.modelo_721.last_filed_total.map(fiat).as_deref(),
        Some("59818.74")
    );

    assert_eq!(
        holdings(2022).modelo_721.decision.as_str(),
        "NOT_APPLICABLE"
    );

    // h7 (2024-12-31T23:30Z) is a 2025 disposal.
    let r2025 = report(&outcome, &IrpfSettings::default(), 2025);
    assert_eq!(
        modelo_rows(&r2025),
        ["SAVINGS BTC F GAIN 4450.00 2500.00 - 1950.00"]
    );
    assert!(
        report(&outcome, &IrpfSettings::default(), 2024)
            .audit_trail
            .is_empty()
    );
    // The same holdings inside the year report.
    let settings = IrpfSettings::default();
    let comp = IrpfComputation::new(IrpfInput {
        engine_input: &outcome.input,
        output: &outcome.output,
        accounts: &outcome.accounts,
        settings: &settings,
    })
    .unwrap();
    let with_holdings = comp
        .year_report_with_holdings(2024, &snapshots, &i7_close)
        .unwrap();
    assert_eq!(with_holdings.year_end_holdings.as_ref(), Some(&h2024));
    let [(modelo_name, modelo_csv), (annex_name, annex_csv)] =
        core_domain::irpf::annex::render_csv_files(&with_holdings);
    assert_eq!(modelo_name, "modelo100_2024.csv");
    assert_eq!(
        modelo_csv,
        "base,box_1802,box_1803,box_1804,box_1806,box_1807,box_1809,slice_count,operation_count\n\
         TOTAL,,,0.00,0.00,0.00,0.00,0,0\n"
    );
    assert_eq!(annex_name, "annex_2024.csv");
    assert_eq!(annex_csv.lines().count(), 1);
    insta::assert_snapshot!("i7_2024", render_year_end(&h2024));
    insta::assert_snapshot!("i7_2025", render_year_end(&h2025));
    insta::assert_snapshot!("i7_2026", render_year_end(&h2026));
}

fn i7_worksheet_close(year: i32) -> impl Fn(Asset) -> Option<YearEndClose> {
    move |a: Asset| {
        let day = Date::from_ymd_opt(year, 12, 31).unwrap();
        i7_close(a, day).map(|close_eur| YearEndClose {
            close_eur,
            origin: format!("close {day} EUR"),
        })
    }
}

fn rows_721(w: &Worksheet721) -> Vec<String> {
    w.rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {} {} {} {}",
                r.clave,
                r.custodian,
                r.country.as_deref().unwrap_or("-"),
                r.coin,
                r.siglas,
                r.units,
                r.unit_value.map_or("-".to_owned(), |v| v.to_string()),
                r.balance.map_or("-".to_owned(), fiat),
                r.origin
            )
        })
        .collect()
}

#[test]
fn i7_modelo_721_and_714_worksheets_and_the_threshold_rules() {
    let outcome = i7();
    let snapshots = YearEndSnapshot::walk(
        2026,
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &[],
        core_domain::FiscalTimezone::EuropeMadrid,
    )
    .unwrap();
    let holdings = |year: i32| {
        year_end_holdings(year, &outcome.accounts, &snapshots, &i7_close, None).unwrap()
    };
    // Over 50,000 EUR with no earlier filing: required, every coin with origin A.
    let w = worksheet_721(&holdings(2024), &i7_worksheet_close(2024)).unwrap();
    assert_eq!(w.decision.as_str(), "REQUIRED_FIRST_TIME");
    assert_eq!(fiat(w.total), "59818.74");
    assert_eq!(w.increase, None);
    assert_eq!(
        rows_721(&w),
        [
            "T Kraken IE BITCOIN (BTC) BTC 0.600000 89031.240000 53418.74 A",
            "T Kraken IE ETHEREUM (ETH) ETH 2.000000 3200.000000 6400.00 A",
        ]
    );
    // 2025: +7,681.26 over the 2024 filing, not more than 20,000: not required.
    let w = worksheet_721(&holdings(2025), &i7_worksheet_close(2025)).unwrap();
    assert_eq!(w.decision.as_str(), "NOT_REQUIRED");
    assert_eq!(w.increase.map(fiat).as_deref(), Some("7681.26"));
    // 2026: +24,181.26: required again, the coins declared before with origin M.
    let w = worksheet_721(&holdings(2026), &i7_worksheet_close(2026)).unwrap();
    assert_eq!(w.decision.as_str(), "REQUIRED_INCREASE");
    assert_eq!(w.increase.map(fiat).as_deref(), Some("24181.26"));
    assert_eq!(
        rows_721(&w),
        [
            "T Kraken IE BITCOIN (BTC) BTC 0.550000 140000.000000 77000.00 M",
            "T Kraken IE ETHEREUM (ETH) ETH 2.000000 3500.000000 7000.00 M",
        ]
    );
    // Under 50,000 EUR: with BTC at 30,000 on 31 Dec 2024 Kraken holds 24,400.00.
    let low = |a: Asset, d: Date| {
        if a == asset("BTC") {
            Some(dec("30000.00"))
        } else {
            i7_close(a, d)
        }
    };
    let h = year_end_holdings(2024, &outcome.accounts, &snapshots, &low, None).unwrap();
    let w = worksheet_721(&h, &|_| None).unwrap();
    assert_eq!(w.decision.as_str(), "NOT_REQUIRED");
    assert_eq!(fiat(w.total), "24400.00");

    // 714 apartado Q: every custodian, one line per coin, casilla 46 = Σ printed lines.
    let q = worksheet_714(&holdings(2024), &i7_worksheet_close(2024)).unwrap();
    let lines: Vec<String> = q
        .rows
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {}",
                r.clave,
                r.ownership,
                r.description,
                r.units,
                r.value.map_or("-".to_owned(), fiat)
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            "P 100 BITCOIN (BTC) 0.900000000 80128.11",
            "P 100 ETHEREUM (ETH) 2.000000000 6400.00",
        ]
    );
    assert_eq!(fiat(q.total_46), "86528.11");
    // 0.9 × 89031.24 = 80128.116: the custodians' cent roundings give 80128.11.
    assert_eq!(q.unrounded_total.to_string(), "86528.116");
}

#[test]
fn a_coin_that_left_foreign_custody_is_listed_with_origin_c() {
    let mut outcome = Ledger::new()
        .row(
            buy("k1", "Kraken", "2024-02-01T10:00:00Z")
                .inflow("0.9", "BTC")
                .outflow("45000.00", "EUR"),
        )
        .row(
            buy("k2", "Kraken", "2024-02-02T10:00:00Z")
                .inflow("2", "ETH")
                .outflow("5000.00", "EUR"),
        )
        .row(
            sell("k3", "Kraken", "2025-06-01T10:00:00Z")
                .inflow("6000.00", "EUR")
                .outflow("2", "ETH"),
        )
        .run();
    for account in &mut outcome.accounts {
        account.custody_kind = CustodyKind::ForeignProvider;
        account.country = Some("IE".to_owned());
    }
    let snapshots = YearEndSnapshot::walk(
        2025,
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &[],
        core_domain::FiscalTimezone::EuropeMadrid,
    )
    .unwrap();
    let h = year_end_holdings(2025, &outcome.accounts, &snapshots, &i7_close, None).unwrap();
    let w = worksheet_721(&h, &i7_worksheet_close(2025)).unwrap();
    assert_eq!(
        rows_721(&w),
        [
            "T Kraken IE BITCOIN (BTC) BTC 0.900000 110000.000000 99000.00 M",
            "T Kraken IE ETHEREUM (ETH) ETH 0.000000 - 0.00 C",
        ]
    );
}

#[test]
fn fork_migration_and_crypto_collateral_warnings() {
    let outcome = Ledger::new()
        .row(fork("k1", "Wallet", "2021-01-01T10:00:00Z").inflow("1", "BCH"))
        .row(
            sell("k2", "Wallet", "2021-02-01T10:00:00Z")
                .inflow("100.00", "EUR")
                .outflow("1", "BCH"),
        )
        .row(
            buy("k3", "Wallet", "2021-02-02T10:00:00Z")
                .inflow("10", "LEND")
                .outflow("50.00", "EUR"),
        )
        .row(
            migration("k4", "Wallet", "2021-03-01T10:00:00Z")
                .outflow("10", "LEND")
                .inflow("0.1", "AAVE"),
        )
        .future(
            future(
                "k5",
                "Binance:futures",
                FuturesKind::Trade,
                "BTCUSDT",
                "2021-04-01T12:00:00Z",
            )
            .settle("BTC")
            .pnl("0.001"),
        )
        .price("2021-04-01", "BTC", "50000.00", "EUR")
        .run();
    let r = report(&outcome, &IrpfSettings::default(), 2021);
    assert_eq!(
        warnings(&r),
        [
            "FORK_ZERO_COST",
            "MIGRATION_NOT_TAXED",
            "DERIVATIVES_COLLATERAL_NOT_TRACKED"
        ]
    );
    assert_eq!(fiat(r.summary.capital_gains), "150.00");
    assert_eq!(
        r.audit_trail.len(),
        1,
        "migration slices are not in the audit trail"
    );
    assert_eq!(modelo_rows(&r), ["SAVINGS BCH F GAIN 100.00 0.00 - 100.00"]);
}

#[test]
fn missing_fx_rates_count_as_unconvertible() {
    let outcome = Ledger::new()
        .row(
            staking("m1", "Kraken", "2021-05-01T10:00:00Z")
                .inflow("1", "DOT")
                .stated_value("10.00", "USD"),
        )
        .row(
            buy("m2", "Kraken", "2021-05-02T10:00:00Z")
                .inflow("1", "ETH")
                .outflow("1000.00", "USD"),
        )
        .row(
            sell("m3", "Kraken", "2021-06-01T10:00:00Z")
                .inflow("2000.00", "EUR")
                .outflow("1", "ETH"),
        )
        .run();
    let r = report(&outcome, &IrpfSettings::default(), 2021);
    let c = &r.completeness;
    assert_eq!(
        (
            c.unconvertible_count,
            c.excluded_flagged_events,
            c.excluded_unresolved_income
        ),
        (2, 0, 0)
    );
    assert_eq!(c.status.render(), "INCOMPLETE [unconvertible_events]");
    assert_eq!(warnings(&r), ["INCOMPLETE"]);
    check_summary(&r, ["0.00"; 16]);
}

#[test]
fn years_without_a_scale_before_start_and_expired_declarations() {
    let outcome = Ledger::new()
        .row(
            buy("n1", "Kraken", "2027-01-02T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("100.00", "EUR"),
        )
        .row(
            sell("n2", "Kraken", "2027-02-02T10:00:00Z")
                .inflow("150.00", "EUR")
                .outflow("1", "BTC"),
        )
        .run();
    let r = report(&outcome, &IrpfSettings::default(), 2027);
    assert_eq!(r.summary.estimated_irpf, None);
    assert_eq!(r.summary.formatted()[5], "null");
    assert_eq!(warnings(&r), ["NO_SAVINGS_SCALE"]);
    let settings = IrpfSettings {
        start_year: Some(2026),
        declared_carry_forwards: vec![
            DeclaredCarryForward {
                origin_year: 2021,
                kind: CarryKind::SavingsGp,
                amount: dec("10.00"),
            },
            DeclaredCarryForward {
                origin_year: 2023,
                kind: CarryKind::SavingsGp,
                amount: dec("20.00"),
            },
        ],
        ..IrpfSettings::default()
    };
    let r = report(&outcome, &settings, 2027);
    assert_eq!(
        warnings(&r),
        ["NO_SAVINGS_SCALE", "DECLARED_CARRY_FORWARD_EXPIRED"]
    );
    assert_eq!(used(&r), ["2023 SAVINGS_GP DECLARED SAME 20.00"]);
    let r = report(&outcome, &settings, 2025);
    assert_eq!(warnings(&r), ["YEAR_BEFORE_START"]);
}

#[test]
fn manual_values_and_non_currency_swaps() {
    let outcome = Ledger::new()
        .row(
            buy("o1", "Kraken", "2023-01-02T10:00:00Z")
                .inflow("1", "ETH")
                .outflow("1000.00", "EUR"),
        )
        .row(
            swap("o2", "Kraken", "2023-02-02T10:00:00Z")
                .inflow("5", "NFTX")
                .outflow("0.5", "ETH")
                .stated_value("700.00", "EUR"),
        )
        .row(
            sell("o3", "Kraken", "2023-03-02T10:00:00Z")
                .inflow("300.00", "EUR")
                .outflow("0.5", "ETH"),
        )
        .edit(edit("o3").value("400.00", "EUR"))
        .non_currency_asset("NFTX")
        .run();
    let r = report(&outcome, &IrpfSettings::default(), 2023);
    assert_eq!(
        modelo_rows(&r),
        [
            "SAVINGS ETH F LOSS 400.00 500.00 100.00 -",
            "SAVINGS ETH O GAIN 700.00 500.00 - 200.00",
        ]
    );
    assert_eq!(r.completeness.manual_value_count, 1);
    assert_eq!(
        r.audit_trail[1]
            .transmission_provenance
            .map(core_domain::engine::Provenance::as_str),
        Some("MANUAL")
    );
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// `(day, kind, asset, quantity cents, value cents, account)`.
    type Op = (u32, u8, u8, u32, u32, u8);

    const ASSETS: [&str; 3] = ["BTC", "ETH", "SOL"];
    const ACCOUNTS: [&str; 2] = ["Kraken", "Bitstamp"];

    fn instant(day: u32, i: usize) -> String {
        let date = Date::from_ymd_opt(2021, 1, 1).unwrap() + chrono::Days::new(u64::from(day));
        format!("{date}T{:02}:{:02}:00Z", 8 + i / 60 % 12, i % 60)
    }

    fn row(i: usize, op: Op) -> RowSpec {
        let (day, kind, a, q, v, acc) = op;
        let key = format!("r{i}");
        let at = instant(day, i);
        let account = ACCOUNTS[usize::from(acc) % 2];
        let symbol = ASSETS[usize::from(a) % 3];
        let other = ASSETS[(usize::from(a) + 1) % 3];
        let quantity = rust_decimal::Decimal::new(i64::from(q) + 1, 2).to_string();
        let value = rust_decimal::Decimal::new(i64::from(v) + 1, 2).to_string();
        let spec = match kind % 5 {
            0 => buy(&key, account, &at)
                .inflow(&quantity, symbol)
                .outflow(&value, "EUR"),
            1 => sell(&key, account, &at)
                .inflow(&value, "EUR")
                .outflow(&quantity, symbol),
            2 => swap(&key, account, &at)
                .inflow(&quantity, other)
                .outflow(&quantity, symbol)
                .stated_value(&value, "EUR"),
            3 => staking(&key, account, &at)
                .inflow(&quantity, symbol)
                .stated_value(&value, "EUR"),
            _ => airdrop(&key, account, &at)
                .inflow(&quantity, symbol)
                .stated_value(&value, "EUR"),
        };
        spec.seq(i as u64 + 1)
    }

    fn ledger(ops: &[Op], order: &[usize]) -> Ledger {
        let mut ledger = Ledger::new();
        for &i in order {
            ledger.push(row(i, ops[i]));
        }
        ledger
    }

    /// Rows pushed in `order`, row `i` getting `seq = seqs[i]`.
    fn ledger_with_seqs(ops: &[Op], order: &[usize], seqs: &[u64]) -> Ledger {
        let mut ledger = Ledger::new();
        for &i in order {
            ledger.push(row(i, ops[i]).seq(seqs[i]));
        }
        ledger
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        proptest::collection::vec(
            (0u32..1500, 0u8..5, 0u8..3, 0u32..300, 0u32..500_000, 0u8..2),
            1..40,
        )
    }

    fn reports(outcome: &Outcome) -> Vec<String> {
        (2021..=2025)
            .map(|y| render_text(&report(outcome, &IrpfSettings::default(), y)))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Σ1809 − Σ1807 + derivative net = capital_gains − capital_losses, and the §7.1
        /// identities hold every year.
        #[test]
        fn modelo100_rows_add_up_to_the_summary(ops in ops()) {
            let order: Vec<usize> = (0..ops.len()).collect();
            let outcome = ledger(&ops, &order).run();
            for year in 2021..=2025 {
                let r = report(&outcome, &IrpfSettings::default(), year);
                let t = &r.modelo100.totals;
                let derivatives = r.derivatives.contracts.iter().map(|c| c.net).sum::<rust_decimal::Decimal>();
                let s = &r.summary;
                prop_assert_eq!(t.total_gains - t.total_losses + derivatives, s.capital_gains - s.capital_losses);
                prop_assert_eq!(s.net_patrimonial_result, s.savings_transmission_balance + s.general_short_term_balance);
                prop_assert!(s.savings_base_after_compensation >= rust_decimal::Decimal::ZERO);
                let zero = rust_decimal::Decimal::ZERO;
                prop_assert!(s.savings_base_after_compensation
                    <= s.savings_transmission_balance.max(zero) + s.savings_base_yields.max(zero));
                let rows_sum: usize = r.modelo100.rows.iter().map(|row| row.slice_count).sum();
                prop_assert_eq!(rows_sum, r.audit_trail.iter().filter(|a| a.included).count());
            }
        }

        /// The report is identical under any re-ordering of the input rows (each keeps its seq), and
        /// under any reassignment of seq values among rows of pairwise different instants.
        #[test]
        fn report_is_independent_of_input_order(ops in ops(), seed in any::<u64>()) {
            let order: Vec<usize> = (0..ops.len()).collect();
            let mut shuffled = order.clone();
            // A deterministic Fisher–Yates driven by the seed.
            let mut state = seed | 1;
            for i in (1..shuffled.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                shuffled.swap(i, (state % (i as u64 + 1)) as usize);
            }
            let a = reports(&ledger(&ops, &order).run());
            let b = reports(&ledger(&ops, &shuffled).run());
            prop_assert_eq!(&a, &b);
            // Instants are pairwise different, so reassigning seq values changes nothing either.
            let seqs: Vec<u64> = shuffled.iter().map(|&i| i as u64 + 1).collect();
            let c = reports(&ledger_with_seqs(&ops, &shuffled, &seqs).run());
            prop_assert_eq!(&a, &c);
        }

        /// Adding transfers between own accounts changes no tax figure.
        #[test]
        fn transfers_between_own_accounts_are_neutral(ops in ops(), moves in proptest::collection::vec((0u32..1500, 0u8..3, 0u32..300), 0..10)) {
            let order: Vec<usize> = (0..ops.len()).collect();
            let base = ledger(&ops, &order);
            let mut with_moves = base.clone();
            for (j, (day, a, q)) in moves.iter().enumerate() {
                let symbol = ASSETS[usize::from(*a) % 3];
                let quantity = rust_decimal::Decimal::new(i64::from(*q) + 1, 2).to_string();
                let i = 1000 + 2 * j;
                with_moves.push(transfer_out(&format!("t{j}o"), "Kraken", &instant(*day, i)).outflow(&quantity, symbol).seq(i as u64));
                with_moves.push(transfer_in(&format!("t{j}i"), "Bitstamp", &instant(*day, i + 1)).inflow(&quantity, symbol).seq(i as u64 + 1));
            }
            let a = base.run();
            let b = with_moves.run();
            for year in 2021..=2025 {
                let ra = report(&a, &IrpfSettings::default(), year);
                let rb = report(&b, &IrpfSettings::default(), year);
                prop_assert_eq!(&ra.summary, &rb.summary);
                prop_assert_eq!(&ra.modelo100, &rb.modelo100);
                prop_assert_eq!(&ra.carry_forward, &rb.carry_forward);
                prop_assert_eq!(&ra.completeness, &rb.completeness);
            }
        }
    }
}

/// `$CARTERA_SHARED_DATA`, else `<workspace root>/../shared/data`.
#[allow(
    clippy::disallowed_methods,
    reason = "the test helper that locates the shared data folder"
)]
fn shared_data() -> Option<std::path::PathBuf> {
    let folder = std::env::var_os("CARTERA_SHARED_DATA").map_or_else(
        || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        std::path::PathBuf::from,
    );
    folder.is_dir().then_some(folder)
}

#[test]
#[allow(clippy::print_stderr)] // The brief asks for a clear skip message.
fn i7_with_the_real_btc_close_of_2024() {
    let Some(folder) = shared_data() else {
        eprintln!("skipping: shared data folder not found (set CARTERA_SHARED_DATA)");
        return;
    };
    let text = std::fs::read_to_string(folder.join("prices/btc-eur-daily.csv")).unwrap();
    let close = text
        .lines()
        .find_map(|line| line.strip_prefix("2024-12-31T00:00:00,"))
        .map(dec)
        .expect("a 2024-12-31 close");
    assert_eq!(fiat(close), "89031.24");
    let outcome = i7();
    let snapshots = YearEndSnapshot::walk(
        2024,
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &[],
        core_domain::FiscalTimezone::EuropeMadrid,
    )
    .unwrap();
    let lookup = |a: Asset, d: Date| {
        if a == asset("BTC") && d == core_domain::testkit::date("2024-12-31") {
            Some(close)
        } else {
            i7_close(a, d)
        }
    };
    let h = year_end_holdings(2024, &outcome.accounts, &snapshots, &lookup, None).unwrap();
    assert_eq!(fiat(h.modelo_721.total_721), "59818.74");
    assert_eq!(fiat(h.modelo_714.total_714), "86528.11");
}
