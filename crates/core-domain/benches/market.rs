//! Criterion micro-benchmarks of the engine's inner loops that the stage benchmarks
//! (`engine`, `custody`) do not isolate: the §7.2 price lookup (binary search over the daily
//! closes, with the USD → EUR conversion of a USD-quoted close), building the market tables,
//! and the effective rows (overrides applied) that every engine run starts from.
//!
//! `cargo bench -p core-domain --bench market`

use std::hint::black_box;
use std::time::Duration;

use core_domain::Market;
use core_domain::effective::engine_input;
use core_domain::testkit::synthetic::synthetic;
use criterion::{Criterion, criterion_group, criterion_main};

fn market(c: &mut Criterion) {
    let ledger = synthetic(100_000, 7);
    let market = ledger.market();
    // One lookup per row and crypto side, all on the ledger's first day (the same few series
    // searched again and again), then one per row on the row's own UTC date.
    let first_day = ledger
        .rows
        .first()
        .map(|row| row.instant.utc_date())
        .unwrap_or_default();
    let lookups: Vec<_> = ledger
        .rows
        .iter()
        .flat_map(|row| [row.inflow, row.outflow])
        .flatten()
        .filter(|amount| !amount.asset.is_fiat())
        .map(|amount| (amount.asset, first_day))
        .collect();
    let dated: Vec<_> = ledger
        .rows
        .iter()
        .filter_map(|row| row.inflow.map(|i| (i.asset, row.instant.utc_date())))
        .filter(|(asset, _)| !asset.is_fiat())
        .collect();
    let mut group = c.benchmark_group("market");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("price_lookup_same_day_100k_rows", |b| {
        b.iter(|| {
            for (asset, date) in &lookups {
                black_box(market.price(*asset, *date).ok());
            }
        });
    });
    group.bench_function("price_lookup_row_dates_100k_rows", |b| {
        b.iter(|| {
            for (asset, date) in &dated {
                black_box(market.price(*asset, *date).ok());
            }
        });
    });
    group.bench_function("market_tables_build", |b| {
        b.iter(|| {
            black_box(Market::new(ledger.rates.iter().copied(), ledger.prices.iter().copied()).ok())
        });
    });
    group.bench_function("effective_rows_100k", |b| {
        b.iter(|| black_box(engine_input(black_box(&ledger.rows), &[], &[])));
    });
    group.finish();
}

criterion_group!(benches, market);
criterion_main!(benches);
