//! Price and transaction tools (`tools.md` §9.13, §9.25).

use serde_json::{Map, Value};
use shared_types::SpotTxType;
use use_cases::queries::{LatestPricesRequest, TxSearchRequest, parse_date};

use super::ProjectCtx;
use super::args::Args;
use super::emit::{Fmt, Obj, R, fail, figures, list, total_pages, uc};
use super::shared::tx_row;

const PRICES: &str = "GetLatestPrices";
const SEARCH: &str = "SearchSpotTransactions";

/// `live_prices`: the latest stored quote per symbol, input order; never the network.
pub(super) fn live_prices(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let symbols = args
        .opt_str_list("symbols")?
        .ok_or_else(|| {
            fail(
                PRICES,
                "internal error: canonical argument symbols is missing",
            )
        })?
        .into_iter()
        .map(str::to_owned)
        .collect();
    let currency = ctx.currency(PRICES)?;
    let p = uc(
        PRICES,
        ctx.use_cases
            .get_latest_prices(&LatestPricesRequest { symbols, currency }),
    )?;
    let prices = list(&p.prices, |q| {
        Ok(Obj::new(PRICES)
            .fig("symbol", Fmt::Symbol, &q.symbol)?
            .fig("price", Fmt::UnitPrice, &q.price)?
            .fig("currency", Fmt::Currency, &q.currency)?
            .fig("timestamp", Fmt::Instant, &q.timestamp)?
            .text("provider", &q.provider)
            .count("stalenessSeconds", q.staleness_seconds)
            .value())
    })?;
    Ok(Obj::new(PRICES)
        .put("prices", prices)
        .put(
            "notTracked",
            figures(PRICES, "notTracked", Fmt::Symbol, &p.not_tracked)?,
        )
        .done())
}

fn date_arg(args: &Args<'_>, key: &str) -> R<Option<use_cases::queries::Date>> {
    match args.opt_str(key)? {
        None => Ok(None),
        Some(text) => parse_date(text)
            .map(Some)
            .ok_or_else(|| fail(SEARCH, format!("internal error: {key} is not a date"))),
    }
}

/// `tx_search`: one page of matching spot rows, newest first; pages from 1, paged by the use
/// case.
pub(super) fn tx_search(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let page = args.u64("page")?;
    let types = args
        .opt_str_list("types")?
        .unwrap_or_default()
        .into_iter()
        .map(|t| SpotTxType::parse(t).ok_or_else(|| fail(SEARCH, "internal error: unknown type")))
        .collect::<R<Vec<SpotTxType>>>()?;
    let size = ctx.settings.rows_page_size;
    let req = TxSearchRequest {
        symbol: args.opt_str("symbol")?.map(str::to_owned),
        from: date_arg(args, "from")?,
        to: date_arg(args, "to")?,
        types,
        page: usize::try_from(page).unwrap_or(usize::MAX),
        page_size: usize::try_from(size).unwrap_or(usize::MAX),
    };
    let answer = uc(SEARCH, ctx.use_cases.search_spot_transactions(&req))?;
    let listed = u64::try_from(answer.rows.len()).unwrap_or(u64::MAX);
    let is_page = answer.page == page
        && answer.page_size == u64::from(size)
        && listed <= u64::from(size)
        && listed <= answer.total_count;
    if !is_page {
        return Err(fail(SEARCH, "returned an answer that is not a page"));
    }
    Ok(Obj::new(SEARCH)
        .put("rows", list(&answer.rows, |r| tx_row(SEARCH, r))?)
        .count("page", page)
        .count("pageSize", u64::from(size))
        .count("totalPages", total_pages(answer.total_count, size, false))
        .count("totalCount", answer.total_count)
        .done())
}
