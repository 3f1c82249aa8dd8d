//! Lot, custody and derivatives tools (`tools.md` §9.4, §9.5, §9.21, §9.22).

use serde_json::{Map, Value};
use shared_types::dto::TokenHistory;
use shared_types::is_fiat_code;
use use_cases::queries::{CustodyLocationsRequest, TokenHistoryRequest};

use super::ProjectCtx;
use super::args::Args;
use super::emit::{Fmt, Obj, R, cap, fail, list, total_pages, uc};
use super::shared::lot;

const HISTORY: &str = "GetTokenHistory";
const DERIVATIVES: &str = "GetDerivativesPnl";
const CUSTODY: &str = "GetLotCustodyLocations";

/// One page of an asset's lots from the use case, checked to be that page.
fn lots_page(ctx: &ProjectCtx<'_>, symbol: &str, page: u64) -> R<TokenHistory> {
    let size = ctx.settings.lots_page_size;
    let page_size = usize::try_from(size).unwrap_or(usize::MAX);
    let page_index = usize::try_from(page).unwrap_or(usize::MAX);
    let h = uc(
        HISTORY,
        ctx.use_cases.get_token_history(&TokenHistoryRequest {
            symbol: symbol.to_owned(),
            page: page_index,
            page_size,
        }),
    )?;
    let listed = u64::try_from(h.lots.len()).unwrap_or(u64::MAX);
    if h.lots.len() > page_size || listed > h.total_count || h.currency != "EUR" {
        return Err(fail(
            HISTORY,
            "returned an answer that is not a page of lots",
        ));
    }
    Ok(h)
}

/// `token_history`: the first page of lots, newest first.
pub(super) fn token_history(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let symbol = args.str("symbol")?;
    let h = lots_page(ctx, symbol, 0)?;
    let listed = u64::try_from(h.lots.len()).unwrap_or(u64::MAX);
    Ok(Obj::new(HISTORY)
        .fig("symbol", Fmt::Symbol, symbol)?
        .text("currency", "EUR")
        .put("lots", list(&h.lots, |l| lot(HISTORY, l))?)
        .count("omittedCount", h.total_count.saturating_sub(listed))
        .done())
}

/// `token_lots`: one page of lots, pages from 0.
pub(super) fn token_lots(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let symbol = args.str("symbol")?;
    let page = args.u64("page")?;
    let h = lots_page(ctx, symbol, page)?;
    let size = ctx.settings.lots_page_size;
    Ok(Obj::new(HISTORY)
        .fig("symbol", Fmt::Symbol, symbol)?
        .text("currency", "EUR")
        .put("lots", list(&h.lots, |l| lot(HISTORY, l))?)
        .count("page", page)
        .count("pageSize", u64::from(size))
        .count("totalPages", total_pages(h.total_count, size, true))
        .count("totalCount", h.total_count)
        .done())
}

/// `derivatives_pnl`: per contract and settlement asset, largest absolute realized first.
pub(super) fn derivatives_pnl(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let d = uc(DERIVATIVES, ctx.use_cases.get_derivatives_pnl())?;
    let (shown, omitted) = cap(&d.ranked, ctx.settings.top_n_holdings);
    let ranked = list(shown, |c| {
        // Native sums are money when settled in fiat, else a quantity of the settlement asset.
        let native = if is_fiat_code(&c.currency) {
            Fmt::Amount
        } else {
            Fmt::Quantity
        };
        Ok(Obj::new(DERIVATIVES)
            .text("symbol", &c.symbol)
            .text("currency", &c.currency)
            .fig("realizedPnl", native, &c.realized_pnl)?
            .fig("funding", native, &c.funding)?
            .fig("fees", native, &c.fees)?
            .fig("netPnl", native, &c.net_pnl)?
            .fig("netEur", Fmt::Amount, &c.net_eur)?
            .count("unresolvedCount", c.unresolved_count)
            .value())
    })?;
    Ok(Obj::new(DERIVATIVES)
        .put("ranked", ranked)
        .count("omittedCount", omitted)
        .done())
}

/// `custody_locations`: where assets are held now, own-wallet rows counted apart.
pub(super) fn custody_locations(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let symbol = args.opt_str("symbol")?.map(str::to_owned);
    let c = uc(
        CUSTODY,
        ctx.use_cases
            .get_lot_custody_locations(&CustodyLocationsRequest { symbol }),
    )?;
    let (shown, omitted) = cap(&c.locations, ctx.settings.top_n_holdings);
    let locations = list(shown, |l| {
        Ok(Obj::new(CUSTODY)
            .fig("symbol", Fmt::Symbol, &l.symbol)?
            .text("accountName", &l.account_name)
            .fig("quantity", Fmt::Quantity, &l.quantity)?
            .count("lotCount", l.lot_count)
            .value())
    })?;
    Ok(Obj::new(CUSTODY)
        .put("locations", locations)
        .count("omittedCount", omitted)
        .count("syntheticRowCount", c.synthetic_row_count)
        .done())
}
