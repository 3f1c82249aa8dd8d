//! Series tools (`tools.md` §9.9, §9.10, §9.11). The use case returns the full window; the
//! gate renders it at 120, 60, 30 or 15 points with `downsample` (`domain.md` §14.3, reached
//! through `use-cases`), so every sampling step starts from the full series (`tools.md` §4).

use serde_json::{Map, Value};
use use_cases::queries::{HeatmapRequest, SeriesRequest};
use use_cases::sampling::downsample;

use super::args::Args;
use super::emit::{Fmt, Obj, R, fail, uc};
use super::{ProjectCtx, SeriesPayload};

const DRAWDOWN: &str = "GetDrawdownCurve";
const PERFORMANCE: &str = "GetPerformanceHistory";
const HEATMAP: &str = "GetVolatilityHeatmap";

/// The smallest sampling target `downsample` accepts.
const MIN_POINTS: usize = 2;

/// The payload at `max_points`: the head keys, the sampled list, then `omittedCount`.
pub(super) fn render(series: &SeriesPayload, max_points: usize) -> Map<String, Value> {
    let (points, omitted) = match downsample(&series.points, max_points.max(MIN_POINTS)) {
        Ok(d) => (d.points, d.omitted_count),
        // Unreachable with a target of at least two; the full series is the safe answer.
        Err(_) => (series.points.clone(), 0),
    };
    let mut map = series.head.clone();
    map.insert(series.list_key.to_owned(), Value::Array(points));
    map.insert(
        "omittedCount".to_owned(),
        Value::from(u64::try_from(omitted).unwrap_or(u64::MAX)),
    );
    map
}

fn days(args: &Args<'_>) -> R<u32> {
    let days = args.u64("days")?;
    u32::try_from(days).map_err(|_| fail(DRAWDOWN, "internal error: days out of range"))
}

/// `drawdown_curve`: the drawdown of each day of the window.
pub(super) fn drawdown_curve(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<SeriesPayload> {
    let req = SeriesRequest {
        days: days(args)?,
        currency: None,
        max_points: None,
    };
    let curve = uc(DRAWDOWN, ctx.use_cases.get_drawdown_curve(&req))?;
    let points = curve
        .points
        .iter()
        .map(|p| {
            Ok(Obj::new(DRAWDOWN)
                .fig("date", Fmt::Date, &p.date)?
                .fig("drawdownPct", Fmt::Ratio, &p.drawdown_pct)?
                .value())
        })
        .collect::<R<Vec<Value>>>()?;
    Ok(SeriesPayload {
        head: Map::new(),
        list_key: "points",
        points,
    })
}

/// `performance_history`: portfolio value per day in the base currency.
pub(super) fn performance_history(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<SeriesPayload> {
    let req = SeriesRequest {
        days: days(args)?,
        currency: ctx.currency(PERFORMANCE)?,
        max_points: None,
    };
    let h = uc(PERFORMANCE, ctx.use_cases.get_performance_history(&req))?;
    let points = h
        .points
        .iter()
        .map(|p| {
            Ok(Obj::new(PERFORMANCE)
                .fig("date", Fmt::Date, &p.date)?
                .fig_opt("portfolioValue", Fmt::Amount, p.portfolio_value.as_deref())?
                .fig("drawdownPct", Fmt::Ratio, &p.drawdown_pct)?
                .count("unvaluedAssets", p.unvalued_assets)
                .value())
        })
        .collect::<R<Vec<Value>>>()?;
    Ok(SeriesPayload {
        head: Obj::new(PERFORMANCE)
            .fig("currency", Fmt::Currency, &h.currency)?
            .done(),
        list_key: "points",
        points,
    })
}

/// `volatility_heatmap`: rolling volatility per day of one year.
pub(super) fn volatility_heatmap(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<SeriesPayload> {
    let year = args.year("year")?;
    let req = HeatmapRequest {
        year: Some(year),
        max_points: None,
    };
    let h = uc(HEATMAP, ctx.use_cases.get_volatility_heatmap(&req))?;
    let cells = h
        .cells
        .iter()
        .map(|c| {
            Ok(Obj::new(HEATMAP)
                .fig("date", Fmt::Date, &c.date)?
                .fig_opt("volatility", Fmt::Ratio, c.volatility.as_deref())?
                .value())
        })
        .collect::<R<Vec<Value>>>()?;
    Ok(SeriesPayload {
        head: Obj::new(HEATMAP).year("year", h.year)?.done(),
        list_key: "cells",
        points: cells,
    })
}
