//! Data-quality tools (`tools.md` §9.2, §9.3).

use serde_json::{Map, Value};

use super::ProjectCtx;
use super::args::Args;
use super::emit::{Obj, R, cap, list, page_of, total_pages, uc};
use super::holdings::GROUPS_CAP;
use super::shared::{SEVERITIES, integrity_group, integrity_row, quality_flag};

const INTEGRITY: &str = "GetFiscalIntegrity";

/// `fiscal_integrity`: the defect groups, counts only.
pub(super) fn fiscal_integrity(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let f = uc(INTEGRITY, ctx.use_cases.get_fiscal_integrity_shared())?;
    let (groups, omitted) = cap(&f.groups, GROUPS_CAP);
    Ok(Obj::new(INTEGRITY)
        .put("groups", list(groups, |g| integrity_group(INTEGRITY, g))?)
        .count("omittedCount", omitted)
        .count("totalDefects", f.total_defects)
        .count("pendingReview", f.pending_review)
        .flag("needsRecalculation", f.needs_recalculation)
        .done())
}

/// `fiscal_integrity_rows`: one flag's rows, pages from 0.
pub(super) fn fiscal_integrity_rows(
    ctx: &ProjectCtx<'_>,
    args: &Args<'_>,
) -> R<Map<String, Value>> {
    let flag_name = args.str("qualityFlag")?;
    let page = args.u64("page")?;
    let flag = quality_flag(INTEGRITY, flag_name)?;
    let f = uc(INTEGRITY, ctx.use_cases.get_fiscal_integrity_shared())?;
    let group = f.groups.iter().find(|g| g.quality_flag == flag_name);
    let rows = group.map_or(&[][..], |g| g.rows.as_slice());
    let severity = group.map_or(flag.severity().as_str(), |g| g.severity.as_str());
    let size = ctx.settings.rows_page_size;
    let total_count = u64::try_from(rows.len()).unwrap_or(u64::MAX);
    Ok(Obj::new(INTEGRITY)
        .text("qualityFlag", flag_name)
        .lit("severity", severity, SEVERITIES)?
        .put(
            "rows",
            list(page_of(rows, page, size), |r| integrity_row(INTEGRITY, r))?,
        )
        .count("page", page)
        .count("pageSize", u64::from(size))
        .count("totalPages", total_pages(total_count, size, true))
        .count("totalCount", total_count)
        .done())
}
