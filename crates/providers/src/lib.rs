//! Daily crypto closes and ECB euro reference rates from public providers, for `cartera sync`.
//!
//! This is the only crate that opens network connections (a tidy scan keeps `ureq` here and in
//! the cli's sync module). It is an adapter: the cli reads the environment (base URLs, proxy,
//! `CARTERA_NOW`) and passes a [`Config`] in; nothing here reads the environment or the system
//! clock (the pacing timer is injected, see [`Pause`]).
//!
//! - [`http::Client`]: a small blocking HTTP client (ureq with rustls) with the manners of the
//!   issue: pacing per provider, throttles waited out (HTTP 429 with a capped `Retry-After`, and
//!   Kraken's throttle inside an HTTP 200), network errors and 5xx retried twice 1 s then 2 s
//!   apart, and a host that stayed unreachable not asked again in the same run.
//! - [`answers`]: the pure mapping of each provider's answer bytes to daily closes (or a typed
//!   refusal), tested on bytes.
//! - [`chain`]: one asset's missing days asked of the providers in order, each next provider
//!   asked only for the days still missing.
//! - [`symbols`]: each provider's own market names and the curated CoinGecko id table.
//! - [`ecb`]: the ECB history file and the ECB Data API (`csvdata`) for the days after it.

pub mod answers;
pub mod chain;
pub mod ecb;
pub mod http;
pub mod symbols;
#[doc(hidden)]
pub mod testing;

use std::fmt;
use std::time::Duration;

use chrono::NaiveDate;
use rust_decimal::Decimal;

pub use chain::{AssetOutcome, Gap, ProviderSeries};
pub use http::{Client, NetError, Pause, SystemPause};

/// A provider of daily closes, in the default order of the chain (`docs/decisions.md` D-111).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Provider {
    /// Kraken REST OHLC, the latest 720 daily candles of an EUR pair.
    Kraken,
    /// Coinbase Exchange candles, `<ASSET>-EUR`, 300 per request.
    Coinbase,
    /// Bitvavo candles, `<ASSET>-EUR`, 1440 per request.
    Bitvavo,
    /// Binance klines, `<ASSET>EUR`, 1000 per request.
    Binance,
    /// Bitstamp OHLC, `<asset>eur`, 1000 per request.
    Bitstamp,
    /// Binance `<ASSET>USDT` klines stored as USD closes (USDT taken as USD).
    BinanceUsdt,
    /// CoinGecko `market_chart/range` in EUR, inside its free 365-day window.
    CoinGecko,
}

impl Provider {
    /// Every provider, in the default order of the chain.
    pub const ALL: [Provider; 7] = [
        Self::Kraken,
        Self::Coinbase,
        Self::Bitvavo,
        Self::Binance,
        Self::Bitstamp,
        Self::BinanceUsdt,
        Self::CoinGecko,
    ];

    /// The name stored as the closes' provider (the import log format) and accepted by
    /// `--provider`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Kraken => "kraken",
            Self::Coinbase => "coinbase",
            Self::Bitvavo => "bitvavo",
            Self::Binance => "binance",
            Self::Bitstamp => "bitstamp",
            Self::BinanceUsdt => "binance-usdt",
            Self::CoinGecko => "coingecko",
        }
    }

    /// Parses a provider name (`--provider`).
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|p| p.name() == text)
    }

    /// The host family whose pacing and dead-host state the provider shares.
    pub const fn family(self) -> Family {
        match self {
            Self::Kraken => Family::Kraken,
            Self::Coinbase => Family::Coinbase,
            Self::Bitvavo => Family::Bitvavo,
            Self::Binance | Self::BinanceUsdt => Family::Binance,
            Self::Bitstamp => Family::Bitstamp,
            Self::CoinGecko => Family::CoinGecko,
        }
    }

    /// The quote currency of the provider's closes.
    pub const fn quote(self) -> Quote {
        match self {
            Self::BinanceUsdt => Quote::Usd,
            _ => Quote::Eur,
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A host family: one base URL, one pace, one dead-or-alive state per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// api.kraken.com
    Kraken,
    /// api.exchange.coinbase.com
    Coinbase,
    /// api.bitvavo.com
    Bitvavo,
    /// api.binance.com
    Binance,
    /// www.bitstamp.net
    Bitstamp,
    /// api.coingecko.com
    CoinGecko,
    /// www.ecb.europa.eu (the history file)
    Ecb,
    /// data-api.ecb.europa.eu (the ECB Data API)
    EcbData,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 8] = [
        Self::Kraken,
        Self::Coinbase,
        Self::Bitvavo,
        Self::Binance,
        Self::Bitstamp,
        Self::CoinGecko,
        Self::Ecb,
        Self::EcbData,
    ];

    /// The family's name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Kraken => "kraken",
            Self::Coinbase => "coinbase",
            Self::Bitvavo => "bitvavo",
            Self::Binance => "binance",
            Self::Bitstamp => "bitstamp",
            Self::CoinGecko => "coingecko",
            Self::Ecb => "ecb",
            Self::EcbData => "ecb-data",
        }
    }

    /// The provider's own base URL (scheme, host and port).
    pub const fn default_base(self) -> &'static str {
        match self {
            Self::Kraken => "https://api.kraken.com",
            Self::Coinbase => "https://api.exchange.coinbase.com",
            Self::Bitvavo => "https://api.bitvavo.com",
            Self::Binance => "https://api.binance.com",
            Self::Bitstamp => "https://www.bitstamp.net",
            Self::CoinGecko => "https://api.coingecko.com",
            Self::Ecb => "https://www.ecb.europa.eu",
            Self::EcbData => "https://data-api.ecb.europa.eu",
        }
    }

    /// The minimum time between two requests to the family, within its published limits
    /// (`docs/decisions.md` D-112).
    pub const fn pace(self) -> Duration {
        match self {
            // "for public: 1 req/s" (ccxt kraken.js); sustained 1 req/s measured OK.
            Self::Kraken => Duration::from_millis(1_100),
            // 10 requests/s per IP, bursts 15.
            Self::Coinbase => Duration::from_millis(150),
            // Bitvavo: 1000 weight/min per IP, candles weight 1; over it a 15-minute IP block.
            // ECB: no published limit; a polite pace.
            Self::Bitvavo | Self::Ecb | Self::EcbData => Duration::from_millis(200),
            // Binance: 6000 weight/min per IP, klines weight 2; 429s turn into 418 bans.
            // Bitstamp: 400 req/s, 10k per 10 minutes.
            Self::Binance | Self::Bitstamp => Duration::from_millis(100),
            // Keyless: IP-shared, 5–15 calls/min observed.
            Self::CoinGecko => Duration::from_secs(6),
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The quote currency of a stored close.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quote {
    /// Euro.
    Eur,
    /// US dollar (a USDT market taken as USD, converted by the engine with the ECB rate).
    Usd,
}

impl Quote {
    /// The currency code.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Eur => "EUR",
            Self::Usd => "USD",
        }
    }
}

/// One daily close: the close of the UTC day `date`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DailyClose {
    /// The UTC day.
    pub date: NaiveDate,
    /// The close, > 0.
    pub close: Decimal,
}

/// The base URLs (scheme, host and port; the paths stay the provider's own), the timeouts and
/// the proxy of a run. Built by the cli from the environment.
#[derive(Clone, Debug)]
pub struct Config {
    /// Base URL per family, without a trailing slash.
    pub bases: Vec<(Family, String)>,
    /// Connect timeout.
    pub connect_timeout: Duration,
    /// Read timeout (waiting for the answer and reading its body).
    pub read_timeout: Duration,
    /// `HTTPS_PROXY` (or `ALL_PROXY`), when set.
    pub proxy: Option<String>,
    /// `NO_PROXY`: comma-separated hosts or domain suffixes that bypass the proxy; `*` = all.
    pub no_proxy: Option<String>,
    /// Upper bound of one throttle wait (`Retry-After` is capped at it).
    pub max_throttle_wait: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bases: Family::ALL
                .into_iter()
                .map(|f| (f, f.default_base().to_owned()))
                .collect(),
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(30),
            proxy: None,
            no_proxy: None,
            max_throttle_wait: Duration::from_secs(60),
        }
    }
}

impl Config {
    /// The base URL of `family`.
    pub fn base(&self, family: Family) -> &str {
        self.bases
            .iter()
            .find(|(f, _)| *f == family)
            .map_or(family.default_base(), |(_, base)| base.as_str())
    }

    /// Replaces the base URL of `family` (a trailing slash is dropped).
    pub fn set_base(&mut self, family: Family, base: &str) {
        let base = base.trim().trim_end_matches('/').to_owned();
        if let Some(slot) = self.bases.iter_mut().find(|(f, _)| *f == family) {
            slot.1 = base;
        } else {
            self.bases.push((family, base));
        }
    }
}

/// Why a provider's answer was not used. Every message names the provider and the request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// The provider does not list the market (unknown pair, 4xx): the next provider is asked.
    #[error("{provider} does not list {market} ({reason}; request {request})")]
    NotListed {
        /// Provider name.
        provider: &'static str,
        /// The market asked for.
        market: String,
        /// What the provider said.
        reason: String,
        /// The request path and query.
        request: String,
    },
    /// The answer could not be used: malformed body, wrong content type, a price ≤ 0, a date
    /// outside the request. Nothing of it is stored.
    #[error("{provider} sent an answer that cannot be used for {request}: {reason}")]
    Bad {
        /// Provider name.
        provider: &'static str,
        /// The request path and query.
        request: String,
        /// What is wrong.
        reason: String,
    },
    /// The provider's host failed (network, timeouts, 5xx or throttles after retries).
    #[error("{0}")]
    Net(#[from] NetError),
}

/// The Unix day number of a date (days since 1970-01-01).
pub(crate) fn unix_day(date: NaiveDate) -> i64 {
    date.signed_duration_since(NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default())
        .num_days()
}

/// The date of a Unix day number.
pub(crate) fn date_of_day(day: i64) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(1970, 1, 1)?.checked_add_signed(chrono::TimeDelta::try_days(day)?)
}

#[cfg(test)]
mod tests;
