//! The FIFO output's two readers side by side: the custody allocation (`domain.md` §9) and
//! the IRPF year reports (`irpf.md` §7).
//!
//! Neither reads the other's result, so a caller that needs both (the portfolio and every
//! year's report, as `cartera demo` prints) runs them side by side (`rayon::join`); the years
//! of a multi-year run are built side by side too, at most one per thread of the pool at a
//! time, and handed over in year order.

use rayon::prelude::*;

use crate::custody::{CustodyOutput, allocate};
use crate::error::DomainResult;
use crate::irpf::{IrpfComputation, IrpfInput, IrpfYearReport};
use crate::overrides::CustodyLink;

/// Custody and the IRPF reports of `years` (`None`: every year with records, ascending) over
/// one engine output, side by side. `links` are the custody overrides. Each report goes to
/// `report` in year order as it is built (a caller that only needs one at a time keeps at
/// most one per pool thread in memory); the first failure stops the reports and is returned
/// beside the custody result.
pub fn custody_and_year_reports(
    input: IrpfInput<'_>,
    links: &[CustodyLink],
    years: Option<&[i32]>,
    report: &mut (dyn FnMut(IrpfYearReport) + Send),
) -> (DomainResult<CustodyOutput>, DomainResult<()>) {
    rayon::join(
        || allocate(input.engine_input, input.output, input.accounts, links),
        || year_reports(input, years, report),
    )
}

/// The IRPF reports of `years` (`None`: every year with records, ascending), each to `report`
/// in year order, from one prepared computation ([`IrpfComputation::new`] is the multi-year
/// work; each report then reads its own year). The reports are built as many at a time as the
/// pool has threads.
pub fn year_reports(
    input: IrpfInput<'_>,
    years: Option<&[i32]>,
    report: &mut (dyn FnMut(IrpfYearReport) + Send),
) -> DomainResult<()> {
    let computation = IrpfComputation::new(input)?;
    let every: Vec<i32>;
    let years = if let Some(years) = years {
        years
    } else {
        every = computation.by_year.keys().copied().collect();
        &every
    };
    for window in years.chunks(rayon::current_num_threads().max(1)) {
        let built: Vec<DomainResult<IrpfYearReport>> = window
            .par_iter()
            .map(|year| computation.year_report(*year))
            .collect();
        for built in built {
            report(built?);
        }
    }
    Ok(())
}
