//! The FIFO output's two readers side by side: the custody allocation (`domain.md` §9) and
//! the IRPF year reports (`irpf.md` §7).
//!
//! Neither reads the other's result, so a caller that needs both (the portfolio and every
//! year's report, as `cartera demo` prints) runs them on two threads: each is mostly one-core
//! work, so together they take the longer of the two, stretched by what they share (cache and
//! memory bandwidth: about a third at a million rows, D-60).

use crate::custody::{CustodyOutput, allocate};
use crate::error::DomainResult;
use crate::irpf::{IrpfComputation, IrpfInput, IrpfYearReport};
use crate::overrides::CustodyLink;
use crate::parallel::rejoin;

/// From this many rows the two readers run on two threads (below, a thread costs more than
/// it saves).
const PARALLEL_MIN_ROWS: usize = 16_384;

/// Custody and the IRPF reports of `years` (`None`: every year with records, ascending) over
/// one engine output, on two threads for a large ledger. `links` are the custody overrides.
/// Each report goes to `report` as it is built, on the calling thread (a caller that only
/// needs one at a time keeps one in memory); the first failure stops the reports and is
/// returned beside the custody result.
pub fn custody_and_year_reports(
    input: IrpfInput<'_>,
    links: &[CustodyLink],
    years: Option<&[i32]>,
    report: &mut dyn FnMut(IrpfYearReport),
) -> (DomainResult<CustodyOutput>, DomainResult<()>) {
    custody_and_year_reports_with(
        input,
        links,
        years,
        report,
        input.engine_input.rows.len() >= PARALLEL_MIN_ROWS,
    )
}

/// [`custody_and_year_reports`] on two threads or one (tests compare the two). On two threads
/// the year reports run their passes on one thread: the custody allocation, the longer reader,
/// keeps its own split (its movements on a helper thread) and the cores are busy either way.
pub fn custody_and_year_reports_with(
    input: IrpfInput<'_>,
    links: &[CustodyLink],
    years: Option<&[i32]>,
    report: &mut dyn FnMut(IrpfYearReport),
    parallel: bool,
) -> (DomainResult<CustodyOutput>, DomainResult<()>) {
    let custody = || allocate(input.engine_input, input.output, input.accounts, links);
    if parallel {
        std::thread::scope(|scope| {
            let custody = scope.spawn(custody);
            let reports = year_reports_with(input, years, report, Some(false));
            (rejoin(custody), reports)
        })
    } else {
        (custody(), year_reports_with(input, years, report, None))
    }
}

/// The IRPF reports of `years` (`None`: every year with records, ascending), each to `report`
/// as it is built, from one prepared computation ([`IrpfComputation::new`] is the multi-year
/// work; each report then reads its own year).
pub fn year_reports(
    input: IrpfInput<'_>,
    years: Option<&[i32]>,
    report: &mut dyn FnMut(IrpfYearReport),
) -> DomainResult<()> {
    year_reports_with(input, years, report, None)
}

/// [`year_reports`] with the computation's own passes on two threads, one (`Some`) or as
/// their defaults choose (`None`).
fn year_reports_with(
    input: IrpfInput<'_>,
    years: Option<&[i32]>,
    report: &mut dyn FnMut(IrpfYearReport),
    split: Option<bool>,
) -> DomainResult<()> {
    let computation = match split {
        Some(split) => IrpfComputation::new_with(input, split)?,
        None => IrpfComputation::new(input)?,
    };
    let every: Vec<i32>;
    let years = if let Some(years) = years {
        years
    } else {
        every = computation.by_year.keys().copied().collect();
        &every
    };
    for year in years {
        report(match split {
            Some(split) => computation.year_report_with(*year, split)?,
            None => computation.year_report(*year)?,
        });
    }
    Ok(())
}
