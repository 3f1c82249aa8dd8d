use rust_decimal::Decimal;
use shared_types::{CustodyKind, QualityFlag, SpotTxType};

use super::*;
use crate::analytics::fixtures::{D14_AS_OF, Fixture, a, d, d14};
use crate::engine::FlagSet;
use crate::num::{OutputClass, format};

fn fiat(v: Option<Decimal>) -> String {
    v.map_or_else(|| "null".to_owned(), |v| format(v, OutputClass::Fiat))
}

fn unit(v: Option<Decimal>) -> String {
    v.map_or_else(|| "null".to_owned(), |v| format(v, OutputClass::UnitPrice))
}

fn show(h: &Holding) -> String {
    let cost = match h.cost_basis {
        CostBasis::Known { amount, conversion } => {
            format!("KNOWN {} {conversion:?}", fiat(Some(amount)))
        }
        CostBasis::Unconvertible => "UNCONVERTIBLE".to_owned(),
        CostBasis::Unknown => "UNKNOWN".to_owned(),
    };
    format!(
        "{} q={} cost={} price={} value={} reason={} upnl={} avg={} loc={:?} untracked={}",
        h.asset,
        format(h.quantity, OutputClass::Quantity),
        cost,
        unit(h.current_price),
        fiat(h.current_value),
        h.unvalued_reason.map_or("-", UnvaluedReason::as_str),
        fiat(h.unrealized_pnl),
        unit(h.avg_unit_cost),
        h.locations,
        format(h.untracked_quantity, OutputClass::Quantity),
    )
}

fn piece<'a>(lot: u32, symbol: &str, account: Option<u32>, name: &'a str, q: &str) -> PieceRef<'a> {
    PieceRef {
        lot,
        asset: a(symbol),
        account_id: account.map(AccountId),
        account_name: name,
        synthetic: account.is_none(),
        quantity: d(q),
    }
}

fn d14_pieces() -> Vec<PieceRef<'static>> {
    vec![
        piece(0, "BTC", Some(2), "Kraken:spot", "0.2"),
        piece(0, "BTC", Some(1), "Kraken", "0.1"),
        piece(0, "BTC", None, "ownwallet-BTC", "0.2"),
        piece(1, "ETH", Some(1), "Kraken", "10"),
    ]
}

#[test]
fn d14_snapshot_in_eur() {
    let f = d14();
    let market = f.market();
    let ctx = f.ctx(&market, D14_AS_OF, DisplayCurrency::Eur);
    let snapshot = holdings_snapshot(&ctx, &d14_pieces(), None).unwrap();
    let shown: Vec<String> = snapshot.holdings.iter().map(show).collect();
    assert_eq!(
        shown,
        [
            "BTC q=0.5 cost=KNOWN 20000.00 Native price=44100 value=22050.00 reason=- upnl=2050.00 avg=40000 loc=[\"Kraken\", \"Kraken:spot\"] untracked=0.2",
            "ETH q=10 cost=KNOWN 20000.00 Native price=2200 value=22000.00 reason=- upnl=2000.00 avg=2000 loc=[\"Kraken\"] untracked=0",
        ]
    );
    let t = snapshot.totals;
    assert_eq!(
        [
            t.equity,
            t.cost_basis,
            t.unrealized,
            t.realized,
            t.total_pnl
        ]
        .map(|v| fiat(Some(v))),
        ["44050.00", "40000.00", "4050.00", "1000.00", "5050.00"]
    );
    assert!(!t.rates_incomplete && !t.prices_incomplete);
    let scenario = snapshot.scenario_holdings();
    assert_eq!(scenario[0].current_value, Some(d("22050")));
    assert_eq!(
        scenario[1].cost_basis,
        crate::scenarios::ScenarioCostBasis::Known(d("20000.00"))
    );
}

#[test]
fn live_prices_override_in_the_display_currency_only() {
    let f = d14();
    let market = f.market();
    let ctx = f.ctx(&market, D14_AS_OF, DisplayCurrency::Eur);
    let live = [
        LivePrice {
            asset: a("BTC"),
            price: d("50000"),
            currency: a("EUR"),
        },
        LivePrice {
            asset: a("ETH"),
            price: d("9999"),
            currency: a("USD"),
        },
    ];
    let snapshot = holdings_snapshot(&ctx, &[], Some(&live)).unwrap();
    assert_eq!(fiat(snapshot.holdings[0].current_value), "25000.00");
    assert_eq!(fiat(snapshot.holdings[1].current_value), "22000.00");
    assert_eq!(fiat(Some(snapshot.totals.equity)), "47000.00");
}

/// Issue 25: the equity is the sum of the printed values. Each market value is rounded to
/// cents first (22050.005 → 22050.01, 22000.005 → 22000.01), so the total is 44050.02, not the
/// rounded exact sum 44050.01.
#[test]
fn equity_is_the_sum_of_the_holdings_cent_values() {
    let f = d14();
    let market = f.market();
    let ctx = f.ctx(&market, D14_AS_OF, DisplayCurrency::Eur);
    let live = [
        LivePrice {
            asset: a("BTC"),
            price: d("44100.01"),
            currency: a("EUR"),
        },
        LivePrice {
            asset: a("ETH"),
            price: d("2200.0005"),
            currency: a("EUR"),
        },
    ];
    let snapshot = holdings_snapshot(&ctx, &[], Some(&live)).unwrap();
    assert_eq!(snapshot.holdings[0].current_value, Some(d("22050.01")));
    assert_eq!(snapshot.holdings[1].current_value, Some(d("22000.01")));
    assert_eq!(snapshot.totals.equity, d("44050.02"));
    assert_eq!(snapshot.totals.unrealized, d("4050.02"));
}

#[test]
fn usd_snapshot_converts_cost_per_lot() {
    let mut f = d14();
    f.usd_rate("2023-12-29", "1.1050");
    f.usd_rate("2024-01-02", "1.0956");
    f.usd_rate("2024-01-05", "1.0921");
    let market = f.market();
    let ctx = f.ctx(&market, D14_AS_OF, DisplayCurrency::Usd);
    let snapshot = holdings_snapshot(&ctx, &[], None).unwrap();
    let shown: Vec<String> = snapshot.holdings.iter().map(show).collect();
    assert_eq!(
        shown,
        [
            "BTC q=0.5 cost=KNOWN 22100.00 PerLotAtAcquisitionDate price=48161.61 value=24080.81 reason=- upnl=1980.81 avg=44200 loc=[] untracked=0",
            "ETH q=10 cost=KNOWN 21912.00 PerLotAtAcquisitionDate price=2402.62 value=24026.20 reason=- upnl=2114.20 avg=2191.2 loc=[] untracked=0",
        ]
    );
    assert_eq!(fiat(Some(snapshot.totals.realized)), "1092.10");

    // Without USD rates nothing is converted at 1 and nothing is worth zero.
    let g = d14();
    let market = g.market();
    let ctx = g.ctx(&market, D14_AS_OF, DisplayCurrency::Usd);
    let snapshot = holdings_snapshot(&ctx, &[], None).unwrap();
    for h in &snapshot.holdings {
        assert_eq!(h.cost_basis, CostBasis::Unconvertible);
        assert_eq!(h.current_value, None);
        assert_eq!(h.unvalued_reason, Some(UnvaluedReason::NoRate));
    }
    assert!(snapshot.totals.rates_incomplete);
    assert_eq!(snapshot.totals.equity, Decimal::ZERO);
    assert!(
        snapshot
            .scenario_holdings()
            .iter()
            .all(|h| h.current_value.is_none())
    );
}

#[test]
fn unknown_costs_and_reasons() {
    let mut f = Fixture::default();
    let r1 = f.row(
        "s1",
        1,
        SpotTxType::Staking,
        "2024-01-01T10:00:00Z",
        Some(("3", "ETH")),
        None,
    );
    let r2 = f.row(
        "s2",
        1,
        SpotTxType::Buy,
        "2024-01-02T10:00:00Z",
        Some(("1", "ETH")),
        Some(("2000", "EUR")),
    );
    let r3 = f.row(
        "s3",
        1,
        SpotTxType::Buy,
        "2024-01-02T11:00:00Z",
        Some(("1", "ADA")),
        None,
    );
    let r4 = f.row(
        "s4",
        1,
        SpotTxType::Buy,
        "2024-01-02T12:00:00Z",
        Some(("5", "DOT")),
        Some(("50", "EUR")),
    );
    f.lot(
        r1,
        "ETH",
        "3",
        "3",
        None,
        FlagSet::of(QualityFlag::MissingPrice),
    );
    f.lot(
        r2,
        "ETH",
        "1",
        "1",
        Some(("2000.00", "2000.00")),
        FlagSet::EMPTY,
    );
    f.lot(
        r3,
        "ADA",
        "1",
        "1",
        None,
        FlagSet::of(QualityFlag::MissingFxRate),
    );
    f.lot(
        r4,
        "DOT",
        "5",
        "5",
        Some(("50.00", "50.00")),
        FlagSet::EMPTY,
    );
    f.closes("ETH", "2024-01-02", &[Some("2100")]);
    f.closes("ADA", "2024-01-02", &[Some("0.5")]);
    let market = f.market();
    let ctx = f.ctx(&market, "2024-01-02T20:00:00Z", DisplayCurrency::Eur);
    let snapshot = holdings_snapshot(&ctx, &[], None).unwrap();
    let shown: Vec<String> = snapshot.holdings.iter().map(show).collect();
    assert_eq!(
        shown,
        [
            "ADA q=1 cost=UNKNOWN price=0.5 value=0.50 reason=NO_RATE upnl=null avg=null loc=[] untracked=0",
            "DOT q=5 cost=KNOWN 50.00 Native price=null value=null reason=NO_PRICE upnl=null avg=null loc=[] untracked=0",
            "ETH q=4 cost=UNKNOWN price=2100 value=8400.00 reason=NO_PRICE upnl=null avg=null loc=[] untracked=0",
        ]
    );
    let t = snapshot.totals;
    assert_eq!(t.equity, Decimal::ZERO);
    assert!(t.rates_incomplete && t.prices_incomplete);
}

fn account(id: u32, name: &str, parent: Option<u32>) -> Account {
    Account {
        id: AccountId(id),
        name: name.to_owned(),
        parent_id: parent.map(AccountId),
        custody_kind: CustodyKind::Unclassified,
        country: None,
    }
}

#[test]
fn account_holdings_use_custody_attribution() {
    let f = d14();
    let market = f.market();
    let ctx = f.ctx(&market, D14_AS_OF, DisplayCurrency::Eur);
    let accounts = [
        account(1, "Kraken", None),
        account(3, "Kraken:earn", Some(1)),
        account(2, "Kraken:spot", Some(1)),
        account(4, "Bitvavo", None),
    ];
    let out = account_holdings(&ctx, &accounts, AccountId(1), &d14_pieces(), None).unwrap();
    let shown: Vec<(String, Vec<String>)> = out
        .iter()
        .map(|acc| {
            (
                acc.account_name.clone(),
                acc.holdings.iter().map(show).collect(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            (
                "Kraken".to_owned(),
                vec![
                    // 0.1 of a 1 BTC lot that cost 40000: 4000 (attribution, not remaining cost).
                    "BTC q=0.1 cost=KNOWN 4000.00 Native price=44100 value=4410.00 reason=- upnl=410.00 avg=40000 loc=[] untracked=0".to_owned(),
                    "ETH q=10 cost=KNOWN 20000.00 Native price=2200 value=22000.00 reason=- upnl=2000.00 avg=2000 loc=[] untracked=0".to_owned(),
                ]
            ),
            ("Kraken:earn".to_owned(), vec![]),
            (
                "Kraken:spot".to_owned(),
                vec!["BTC q=0.2 cost=KNOWN 8000.00 Native price=44100 value=8820.00 reason=- upnl=820.00 avg=40000 loc=[] untracked=0".to_owned()]
            ),
        ]
    );
}

#[test]
fn custody_locations_summary() {
    let rows = vec![
        piece(0, "BTC", Some(2), "Kraken:spot", "0.2"),
        piece(1, "BTC", Some(2), "Kraken:spot", "0.3"),
        piece(0, "BTC", Some(1), "Kraken", "0.1"),
        piece(0, "BTC", None, "ownwallet-BTC", "0.2"),
        piece(1, "ETH", Some(4), "Bitvavo", "10"),
        piece(2, "ADA", Some(5), "binance", "0"),
    ];
    let summary = summarize_custody_locations(&rows, None).unwrap();
    let shown: Vec<String> = summary
        .groups
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {}",
                g.asset,
                g.account_name,
                format(g.quantity, OutputClass::Quantity),
                g.lot_count
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            "BTC Kraken 0.1 1",
            "BTC Kraken:spot 0.5 2",
            "ETH Bitvavo 10 1"
        ]
    );
    assert_eq!(summary.synthetic_row_count, 1);
    let only_eth = summarize_custody_locations(&rows, Some(a("ETH"))).unwrap();
    assert_eq!(only_eth.groups.len(), 1);
    assert_eq!(only_eth.synthetic_row_count, 0);
}
