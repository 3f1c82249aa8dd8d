//! One asset's missing days asked of the providers in order: each provider is asked only for
//! the days the ones before it did not give, in pages of its per-request limit.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::answers::{self, Answer, Parsed, Window};
use crate::http::Client;
use crate::symbols::{self, Overrides};
use crate::{AnswerError, DailyClose, NetError, Provider, date_of_day, unix_day};

/// Days the fetched span may bridge between two missing runs: re-asking a few stored days is
/// cheaper than another request.
const BRIDGE_DAYS: i64 = 31;

/// The closes one provider gave for one asset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderSeries {
    /// The provider.
    pub provider: Provider,
    /// Its market (`XBTEUR`, `BTC-EUR`, `BTCUSDT`, `bitcoin`…).
    pub market: String,
    /// The requests made, path and query (the first is kept in the provenance).
    pub requests: Vec<String>,
    /// The closes of missing days, sorted by date.
    pub closes: Vec<DailyClose>,
}

/// Days still missing after every provider, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// First day.
    pub from: NaiveDate,
    /// Last day.
    pub to: NaiveDate,
    /// Number of missing days in the run.
    pub days: u64,
}

/// What the chain did for one asset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssetOutcome {
    /// The series fetched, in chain order (the caller stores each as it arrives).
    pub series: Vec<ProviderSeries>,
    /// Runs of days still missing.
    pub gaps: Vec<Gap>,
    /// Why each provider gave nothing more, in chain order (`kraken: not listed …`).
    pub notes: Vec<String>,
    /// Answers refused as unusable (malformed, bad dates, prices ≤ 0), naming provider and request.
    pub bad_answers: Vec<AnswerError>,
    /// Hosts that failed while asked for this asset.
    pub net_errors: Vec<NetError>,
}

/// What the run learnt once about the providers' markets: Kraken's EUR pairs, asked of
/// `AssetPairs` the first time Kraken is needed.
#[derive(Debug, Default)]
pub struct Catalog {
    kraken: KrakenPairs,
}

/// Kraken's EUR pairs in this run.
#[derive(Debug, Default)]
enum KrakenPairs {
    /// Not asked yet.
    #[default]
    Unknown,
    /// cartera symbol → altname.
    Listed(BTreeMap<String, String>),
    /// The list could not be read: Kraken's naming rule is used.
    Unavailable,
}

impl Catalog {
    /// Kraken's altname for `asset`: `Ok(Some)` listed, `Ok(None)` not among its EUR pairs,
    /// `Err` when the pair list could not be read (the naming rule is used instead).
    fn kraken(&mut self, client: &mut Client, asset: &str) -> Result<Option<String>, ()> {
        if matches!(self.kraken, KrakenPairs::Unknown) {
            let family = Provider::Kraken.family();
            let pairs = client
                .get(family, KRAKEN_PAIRS, Some(answers::kraken_throttled))
                .ok()
                .and_then(|response| {
                    answers::kraken_eur_pairs(&Answer {
                        status: response.status,
                        content_type: response.content_type.as_deref(),
                        body: &response.body,
                    })
                    .ok()
                });
            self.kraken = pairs.map_or(KrakenPairs::Unavailable, KrakenPairs::Listed);
        }
        match &self.kraken {
            KrakenPairs::Listed(pairs) => Ok(pairs.get(&asset.to_ascii_uppercase()).cloned()),
            KrakenPairs::Unknown | KrakenPairs::Unavailable => Err(()),
        }
    }
}

/// Kraken's list of tradable pairs.
pub const KRAKEN_PAIRS: &str = "/0/public/AssetPairs";

/// One asset's request.
#[derive(Clone, Copy, Debug)]
pub struct AssetRequest<'a> {
    /// The cartera symbol.
    pub asset: &'a str,
    /// The missing UTC days, sorted and unique.
    pub missing: &'a [NaiveDate],
    /// The run's UTC today (its candle is never final).
    pub today: NaiveDate,
    /// The providers to ask, in order.
    pub providers: &'a [Provider],
    /// The user's markets.
    pub overrides: &'a Overrides,
}

/// Days per request and the oldest day a provider serves, relative to today.
fn limits(provider: Provider) -> (i64, Option<i64>) {
    match provider {
        // "Returns up to 720 of the most recent entries" (Kraken docs).
        Provider::Kraken => (720, Some(719)),
        // "At most 300 candles per request"; start and end inclusive.
        Provider::Coinbase => (300, None),
        Provider::Bitvavo => (1440, None),
        Provider::Binance | Provider::BinanceUsdt | Provider::Bitstamp => (1000, None),
        // The free window: 365 days from now; a snapshot at D+1 00:00 is D's close.
        Provider::CoinGecko => (365, Some(364)),
    }
}

/// The request path of one page.
fn path(provider: Provider, market: &str, from: NaiveDate, to: NaiveDate) -> String {
    let (from_s, to_s) = (unix_day(from) * 86_400, unix_day(to) * 86_400);
    match provider {
        Provider::Kraken => format!(
            "/0/public/OHLC?pair={market}&interval=1440&since={}",
            from_s - 86_400
        ),
        Provider::Coinbase => format!(
            "/products/{market}/candles?granularity=86400&start={from}T00:00:00Z&end={to}T00:00:00Z"
        ),
        Provider::Bitvavo => format!(
            "/v2/{market}/candles?interval=1d&start={}&end={}&limit=1440",
            from_s * 1000,
            (to_s + 86_400) * 1000 - 1
        ),
        Provider::Binance | Provider::BinanceUsdt => format!(
            "/api/v3/klines?symbol={market}&interval=1d&startTime={}&endTime={}&limit=1000",
            from_s * 1000,
            to_s * 1000
        ),
        Provider::Bitstamp => {
            format!("/api/v2/ohlc/{market}/?step=86400&limit=1000&start={from_s}&end={to_s}")
        }
        Provider::CoinGecko => format!(
            "/api/v3/coins/{market}/market_chart/range?vs_currency=eur&from={}&to={}&interval=daily",
            from_s + 86_400,
            to_s + 86_400
        ),
    }
}

fn parse(provider: Provider, answer: &Answer<'_>) -> Result<Parsed, String> {
    match provider {
        Provider::Kraken => answers::kraken(answer),
        Provider::Coinbase => answers::coinbase(answer),
        Provider::Bitvavo => answers::bitvavo(answer),
        Provider::Binance | Provider::BinanceUsdt => answers::binance(answer),
        Provider::Bitstamp => answers::bitstamp(answer),
        Provider::CoinGecko => answers::coingecko(answer),
    }
}

/// Spans to fetch: runs of missing days, bridged over short stored stretches, cut to pages.
pub fn pages(missing: &[NaiveDate], page_days: i64) -> Vec<(NaiveDate, NaiveDate)> {
    let mut spans: Vec<(i64, i64)> = Vec::new();
    for day in missing.iter().map(|d| unix_day(*d)) {
        match spans.last_mut() {
            Some(last) if day - last.1 <= BRIDGE_DAYS => last.1 = day,
            _ => spans.push((day, day)),
        }
    }
    let mut out = Vec::new();
    for (mut from, to) in spans {
        while from <= to {
            let end = (from + page_days - 1).min(to);
            if let (Some(a), Some(b)) = (date_of_day(from), date_of_day(end)) {
                out.push((a, b));
            }
            from = end + 1;
        }
    }
    out
}

/// What asking one provider for one asset's days gave.
enum Asked {
    Series(ProviderSeries),
    Nothing(String),
}

/// Asks the providers in order for the asset's missing days.
pub fn fetch_asset(
    client: &mut Client,
    catalog: &mut Catalog,
    request: &AssetRequest<'_>,
    mut on_series: impl FnMut(&ProviderSeries),
) -> AssetOutcome {
    let mut outcome = AssetOutcome::default();
    let mut missing: Vec<NaiveDate> = request.missing.to_vec();
    for &provider in request.providers {
        if missing.is_empty() {
            break;
        }
        let asked = ask(client, catalog, provider, request, &missing, &mut outcome);
        match asked {
            Asked::Series(series) => {
                if series.closes.is_empty() {
                    outcome.notes.push(format!(
                        "{provider}: no closes for these days ({})",
                        series.market
                    ));
                    continue;
                }
                let got: std::collections::BTreeSet<NaiveDate> =
                    series.closes.iter().map(|c| c.date).collect();
                missing.retain(|d| !got.contains(d));
                on_series(&series);
                outcome.series.push(series);
            }
            Asked::Nothing(why) => outcome.notes.push(format!("{provider}: {why}")),
        }
    }
    outcome.gaps = runs(&missing);
    outcome
}

fn ask(
    client: &mut Client,
    catalog: &mut Catalog,
    provider: Provider,
    request: &AssetRequest<'_>,
    missing: &[NaiveDate],
    outcome: &mut AssetOutcome,
) -> Asked {
    let market = match market_of(client, catalog, provider, request) {
        Ok(market) => market,
        Err(why) => return Asked::Nothing(why),
    };
    let family = provider.family();
    if client.is_down(family) {
        return Asked::Nothing("host failed earlier in this run".to_owned());
    }
    let (page_days, window) = limits(provider);
    let oldest = window.map(|back| unix_day(request.today) - back);
    let wanted: Vec<NaiveDate> = missing
        .iter()
        .copied()
        .filter(|d| oldest.is_none_or(|o| unix_day(*d) >= o))
        .collect();
    if wanted.is_empty() {
        return Asked::Nothing(match provider {
            Provider::Kraken => "keeps only the latest 720 daily candles".to_owned(),
            Provider::CoinGecko => "free history covers only the last 365 days".to_owned(),
            _ => "nothing to ask".to_owned(),
        });
    }
    let wanted_set: std::collections::BTreeSet<NaiveDate> = wanted.iter().copied().collect();
    let mut series = ProviderSeries {
        provider,
        market: market.clone(),
        requests: Vec::new(),
        closes: Vec::new(),
    };
    let throttle: Option<fn(&[u8]) -> bool> = match provider {
        Provider::Kraken => Some(answers::kraken_throttled),
        Provider::Bitstamp => Some(answers::bitstamp_throttled),
        _ => None,
    };
    for (from, to) in pages(&wanted, page_days) {
        let request_path = path(provider, &market, from, to);
        series.requests.push(request_path.clone());
        let response = match client.get(family, &request_path, throttle) {
            Ok(response) => response,
            Err(error) => {
                outcome.net_errors.push(error.clone());
                if series.closes.is_empty() {
                    return Asked::Nothing(error.to_string());
                }
                return Asked::Series(series);
            }
        };
        let answer = Answer {
            status: response.status,
            content_type: response.content_type.as_deref(),
            body: &response.body,
        };
        let window = Window {
            from,
            to,
            today: request.today,
            strict_end: provider != Provider::Kraken,
        };
        let parsed = match parse(provider, &answer) {
            Ok(Parsed::Candles(candles)) => answers::settle(&candles, window).map(Page::Closes),
            Ok(Parsed::NotListed(why)) => Ok(Page::NotListed(why)),
            Err(reason) => Err(reason),
        };
        match parsed {
            Ok(Page::Closes(closes)) => series
                .closes
                .extend(closes.into_iter().filter(|c| wanted_set.contains(&c.date))),
            Ok(Page::NotListed(why)) => {
                if series.closes.is_empty() {
                    return Asked::Nothing(format!("does not list {market} ({why})"));
                }
                break;
            }
            Err(reason) => {
                outcome.bad_answers.push(AnswerError::Bad {
                    provider: provider.name(),
                    request: format!("{}{request_path}", client.config().base(family)),
                    reason: reason.clone(),
                });
                if series.closes.is_empty() {
                    return Asked::Nothing(format!("unusable answer ({reason})"));
                }
                break;
            }
        }
    }
    series.closes.sort_by_key(|c| c.date);
    series.closes.dedup_by_key(|c| c.date);
    Asked::Series(series)
}

/// The market to ask `provider` for: the user's, Kraken's pair list, or the naming rule.
fn market_of(
    client: &mut Client,
    catalog: &mut Catalog,
    provider: Provider,
    request: &AssetRequest<'_>,
) -> Result<String, String> {
    let overridden = request
        .overrides
        .contains_key(&(request.asset.to_owned(), provider));
    if provider == Provider::Kraken && !overridden && !client.is_down(provider.family()) {
        match catalog.kraken(client, request.asset) {
            Ok(Some(altname)) => return Ok(altname),
            Ok(None) => return Err("not among its EUR pairs (AssetPairs)".to_owned()),
            Err(()) => {}
        }
    }
    symbols::market(provider, request.asset, request.overrides).ok_or_else(|| match provider {
        Provider::CoinGecko => "no curated CoinGecko id for this asset".to_owned(),
        _ => "no market for this asset".to_owned(),
    })
}

/// One page's answer.
enum Page {
    Closes(Vec<DailyClose>),
    NotListed(String),
}

/// Runs of consecutive days.
pub fn runs(days: &[NaiveDate]) -> Vec<Gap> {
    let mut out: Vec<Gap> = Vec::new();
    for &day in days {
        match out.last_mut() {
            Some(last) if last.to.succ_opt() == Some(day) => {
                last.to = day;
                last.days += 1;
            }
            _ => out.push(Gap {
                from: day,
                to: day,
                days: 1,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests;
