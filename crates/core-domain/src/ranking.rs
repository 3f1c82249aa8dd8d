//! Ranking, ordering, pagination, downsampling and account resolution (`domain.md` §14).
//!
//! Every ordering or cap a tool returns comes from here; tools never sort. All sorts are
//! stable, so equal keys keep the canonical input order (holdings by symbol, accounts by
//! name, transactions by ledger order).

use std::cmp::Ordering;

use rust_decimal::Decimal;

use crate::error::{DomainError, DomainResult};
use crate::ledger::{Account, is_reserved_account_name};

/// Result of [`rank_by_value`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked<T> {
    /// The first `top_n` valued items, value descending (stable).
    pub ranked: Vec<T>,
    /// `max(valued − top_n, 0)`.
    pub omitted_count: usize,
    /// Items without a value, in input order.
    pub unvalued: Vec<T>,
}

/// Result of [`rank_by_absolute_value`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedAbs<T> {
    /// The first `top_n` items by `|value|` descending (stable).
    pub ranked: Vec<T>,
    /// `max(n − top_n, 0)`.
    pub omitted_count: usize,
}

/// Ranks items by value descending with a stable sort; items without a value go to
/// `unvalued` in input order (`domain.md` §14.1).
pub fn rank_by_value<T, F>(
    items: impl IntoIterator<Item = T>,
    value_of: F,
    top_n: usize,
) -> Ranked<T>
where
    F: Fn(&T) -> Option<Decimal>,
{
    let mut valued: Vec<(Decimal, T)> = Vec::new();
    let mut unvalued = Vec::new();
    for item in items {
        match value_of(&item) {
            Some(value) => valued.push((value, item)),
            None => unvalued.push(item),
        }
    }
    // `sort_by` is stable: equal values keep input order.
    valued.sort_by_key(|entry| std::cmp::Reverse(entry.0));
    let omitted_count = valued.len().saturating_sub(top_n);
    valued.truncate(top_n);
    Ranked {
        ranked: valued.into_iter().map(|(_, item)| item).collect(),
        omitted_count,
        unvalued,
    }
}

/// Ranks items by `|value|` descending with a stable sort (`domain.md` §14.1).
pub fn rank_by_absolute_value<T, F>(
    items: impl IntoIterator<Item = T>,
    value_of: F,
    top_n: usize,
) -> RankedAbs<T>
where
    F: Fn(&T) -> Decimal,
{
    let mut keyed: Vec<(Decimal, T)> = items
        .into_iter()
        .map(|item| (value_of(&item).abs(), item))
        .collect();
    keyed.sort_by_key(|entry| std::cmp::Reverse(entry.0));
    let omitted_count = keyed.len().saturating_sub(top_n);
    keyed.truncate(top_n);
    RankedAbs {
        ranked: keyed.into_iter().map(|(_, item)| item).collect(),
        omitted_count,
    }
}

/// Orders items by date descending, then key ascending (both compared as bytes).
pub fn order_by_date_descending_then_key<T, D, K>(items: &mut [T], date_of: D, key_of: K)
where
    D: Fn(&T) -> &str,
    K: Fn(&T) -> &str,
{
    items.sort_by(|a, b| {
        date_of(b)
            .as_bytes()
            .cmp(date_of(a).as_bytes())
            .then_with(|| key_of(a).as_bytes().cmp(key_of(b).as_bytes()))
    });
}

/// One page of a list (`domain.md` §14.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page<'a, T> {
    /// The items `[page_index × size, (page_index + 1) × size)`, empty past the end.
    pub items: &'a [T],
    /// Length of the whole list.
    pub total_count: usize,
}

/// The 0-based page `page_index` of `page_size` items; empty past the end (or for size 0).
pub fn page<T>(items: &[T], page_index: usize, page_size: usize) -> Page<'_, T> {
    let total_count = items.len();
    let start = page_index.saturating_mul(page_size);
    let slice = if start >= total_count {
        &[]
    } else {
        let end = start.saturating_add(page_size).min(total_count);
        items.get(start..end).unwrap_or(&[])
    };
    Page {
        items: slice,
        total_count,
    }
}

/// A downsampled series (`domain.md` §14.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Downsampled<T> {
    /// The kept points, in series order.
    pub points: Vec<T>,
    /// Their indices in the original series (strictly increasing, first and last included).
    pub indices: Vec<usize>,
    /// `n − max_points` when sampled, else 0.
    pub omitted_count: usize,
}

/// The indices `⌊i × (n − 1) ÷ (max_points − 1)⌋`, `i = 0 … max_points − 1`, or `0 … n − 1`
/// when `n ≤ max_points`. Integer arithmetic only.
pub fn downsample_indices(n: usize, max_points: usize) -> DomainResult<Vec<usize>> {
    if max_points < 2 {
        return Err(DomainError::InvalidSetting {
            key: "max_points".to_owned(),
            reason: "must be at least 2".to_owned(),
        });
    }
    if n <= max_points {
        return Ok((0..n).collect());
    }
    // u128 keeps `i × (n − 1)` exact for any usize.
    let span = (n - 1) as u128;
    let steps = (max_points - 1) as u128;
    Ok((0..max_points)
        .map(|i| ((i as u128) * span / steps) as usize)
        .collect())
}

/// Downsamples `series` to at most `max_points` points; values are never inspected.
pub fn downsample<T: Clone>(series: &[T], max_points: usize) -> DomainResult<Downsampled<T>> {
    let indices = downsample_indices(series.len(), max_points)?;
    let points = indices
        .iter()
        .filter_map(|&i| series.get(i).cloned())
        .collect();
    Ok(Downsampled {
        points,
        omitted_count: series.len().saturating_sub(indices.len()),
        indices,
    })
}

/// The canonical account sort key: lower-cased name, then the name's bytes (`domain.md` §14.1).
pub fn compare_account_names(a: &str, b: &str) -> Ordering {
    a.to_lowercase()
        .cmp(&b.to_lowercase())
        .then_with(|| a.as_bytes().cmp(b.as_bytes()))
}

/// Non-synthetic accounts in canonical order.
pub fn canonical_accounts(accounts: &[Account]) -> Vec<&Account> {
    let mut listed: Vec<&Account> = accounts
        .iter()
        .filter(|a| !is_reserved_account_name(&a.name))
        .collect();
    listed.sort_by(|a, b| compare_account_names(&a.name, &b.name));
    listed
}

/// Outcome of [`resolve_account_by_name`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountResolution<'a> {
    /// Exactly one account matched.
    Resolved(&'a Account),
    /// Several accounts start with the input: the first 10 names.
    Ambiguous {
        /// Candidate names in canonical order.
        candidates: Vec<&'a str>,
    },
    /// Nothing matched: the first 20 top-level names.
    NotFound {
        /// Top-level account names in canonical order.
        available: Vec<&'a str>,
    },
}

/// Maximum candidates of an ambiguous resolution.
pub const AMBIGUOUS_CANDIDATES: usize = 10;
/// Maximum names listed when nothing resolves.
pub const NOT_FOUND_AVAILABLE: usize = 20;

/// Resolves a user-typed account name (`domain.md` §14.4): exact (case-insensitive) match first,
/// then a unique prefix. Synthetic accounts never resolve; an empty input resolves nothing.
pub fn resolve_account_by_name<'a>(accounts: &'a [Account], input: &str) -> AccountResolution<'a> {
    let listed = canonical_accounts(accounts);
    let needle = input.trim().to_lowercase();
    if !needle.is_empty() {
        if let Some(exact) = listed.iter().find(|a| a.name.to_lowercase() == needle) {
            return AccountResolution::Resolved(exact);
        }
        let prefixed: Vec<&Account> = listed
            .iter()
            .copied()
            .filter(|a| a.name.to_lowercase().starts_with(&needle))
            .collect();
        match prefixed.as_slice() {
            [] => {}
            [only] => return AccountResolution::Resolved(only),
            several => {
                return AccountResolution::Ambiguous {
                    candidates: several
                        .iter()
                        .take(AMBIGUOUS_CANDIDATES)
                        .map(|a| a.name.as_str())
                        .collect(),
                };
            }
        }
    }
    AccountResolution::NotFound {
        available: listed
            .iter()
            .filter(|a| a.parent_id.is_none())
            .take(NOT_FOUND_AVAILABLE)
            .map(|a| a.name.as_str())
            .collect(),
    }
}

#[cfg(test)]
mod tests;
