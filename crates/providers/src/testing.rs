//! Test support (hidden): a local HTTP server on 127.0.0.1 answering recorded bodies, and a
//! [`Pause`] that only counts, so tests of the sync never touch the network nor wait.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::http::Pause;

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Status, extra headers and body.
    Answer {
        /// HTTP status.
        status: u16,
        /// Headers beside `Content-Length` and `Connection`.
        headers: Vec<(String, String)>,
        /// Body.
        body: Vec<u8>,
    },
    /// Sends the head and a `Content-Length` larger than the body, then closes.
    Truncated {
        /// Body actually sent.
        body: Vec<u8>,
        /// `Content-Length` announced.
        announced: usize,
    },
    /// Reads the request and never answers (until the server is dropped).
    Silent,
}

impl Reply {
    /// A 200 with a JSON body.
    pub fn json(body: &str) -> Self {
        Self::status_json(200, body)
    }

    /// A status with a JSON body.
    pub fn status_json(status: u16, body: &str) -> Self {
        Self::Answer {
            status,
            headers: vec![("Content-Type".to_owned(), "application/json".to_owned())],
            body: body.as_bytes().to_vec(),
        }
    }

    /// A status with a body of the given content type.
    pub fn typed(status: u16, content_type: &str, body: &[u8]) -> Self {
        Self::Answer {
            status,
            headers: vec![("Content-Type".to_owned(), content_type.to_owned())],
            body: body.to_vec(),
        }
    }

    /// Adds a header.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        if let Self::Answer { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }
}

/// Chooses the reply to a request path (with its query) and the number of earlier requests
/// with the same path.
pub type Handler = dyn Fn(&str, usize) -> Reply + Send + Sync;

/// A local HTTP/1.1 server for tests. Every request path is logged.
pub struct Server {
    base: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Starts a server on an ephemeral 127.0.0.1 port; it lives as long as the test process.
    pub fn start(handler: Arc<Handler>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let base = format!("http://{}", listener.local_addr().expect("local address"));
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let thread_log = Arc::clone(&log);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let handler = Arc::clone(&handler);
                let log = Arc::clone(&thread_log);
                std::thread::spawn(move || serve(stream, &*handler, &log));
            }
        });
        Self { base, log }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Every request path received, in order.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Requests whose path starts with `prefix`.
    pub fn count(&self, prefix: &str) -> usize {
        self.requests()
            .iter()
            .filter(|p| p.starts_with(prefix))
            .count()
    }
}

fn serve(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<String>>) {
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut stream = stream;
    // One write per answer and no Nagle delay: a test server must not add 40 ms per request.
    let _ = stream.set_nodelay(true);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
                break;
            }
        }
        let seen = {
            let Ok(mut log) = log.lock() else { return };
            let seen = log.iter().filter(|p| **p == path).count();
            log.push(path.clone());
            seen
        };
        match handler(&path, seen) {
            Reply::Answer {
                status,
                headers,
                body,
            } => {
                let mut head = format!("HTTP/1.1 {status} X\r\nContent-Length: {}\r\n", body.len());
                for (name, value) in headers {
                    let _ = write!(head, "{name}: {value}\r\n");
                }
                head.push_str("\r\n");
                let mut bytes = head.into_bytes();
                bytes.extend_from_slice(&body);
                if stream.write_all(&bytes).is_err() {
                    return;
                }
                let _ = stream.flush();
            }
            Reply::Truncated { body, announced } => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {announced}\r\nConnection: close\r\n\r\n"
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
                let _ = stream.flush();
                return;
            }
            Reply::Silent => {
                std::thread::sleep(Duration::from_secs(3600));
                return;
            }
        }
    }
}

/// A [`Pause`] whose time only moves when it sleeps; it sums what it slept.
#[derive(Debug, Default, Clone)]
pub struct CountingPause {
    slept_ms: Arc<AtomicU64>,
}

impl CountingPause {
    /// Total time slept so far.
    pub fn slept(&self) -> Duration {
        Duration::from_millis(self.slept_ms.load(Ordering::SeqCst))
    }
}

impl Pause for CountingPause {
    fn elapsed(&self) -> Duration {
        self.slept()
    }
    fn sleep(&self, duration: Duration) {
        let ms = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
        self.slept_ms.fetch_add(ms, Ordering::SeqCst);
    }
}

/// Answers in each provider's exact shape, built from a series of `(unix day, close)`.
/// The shapes follow the verbatim examples of the public sources named on each function.
pub mod shapes {
    use std::fmt::Write as _;

    /// Kraken `/0/public/OHLC` (docs.kraken.com `get-ohlc-data` example; Polimec
    /// `pallets/oracle-ocw/src/mock.rs` `KRAKEN_DOT_CORRECT`): prices as strings, `count` an
    /// integer, `last` the last committed candle.
    pub fn kraken(key: &str, rows: &[(i64, &str)]) -> String {
        let mut out = format!("{{\"error\":[],\"result\":{{\"{key}\":[");
        for (i, (day, close)) in rows.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(
                out,
                "{sep}[{},\"{close}\",\"{close}\",\"{close}\",\"{close}\",\"{close}\",\"3.39243896\",23]",
                day * 86_400
            );
        }
        let last = rows.last().map_or(0, |(d, _)| d * 86_400);
        let _ = write!(out, "],\"last\":{last}}}}}");
        out
    }

    /// Coinbase Exchange candles, newest first, `[time, low, high, open, close, volume]` as
    /// JSON numbers (Polimec `COINBASE_DOT_CORRECT`).
    pub fn coinbase(rows: &[(i64, &str)]) -> String {
        let items: Vec<String> = rows
            .iter()
            .rev()
            .map(|(day, c)| format!("[{},{c},{c},{c},{c},446.879]", day * 86_400))
            .collect();
        format!("[{}]", items.join(","))
    }

    /// Bitvavo candles, newest first, `[ms, "open", "high", "low", "close", "volume"]` (ccxt
    /// `ts/src/test/static/response/bitvavo.json`).
    pub fn bitvavo(rows: &[(i64, &str)]) -> String {
        let items: Vec<String> = rows
            .iter()
            .rev()
            .map(|(day, c)| {
                format!(
                    "[{},\"{c}\",\"{c}\",\"{c}\",\"{c}\",\"0.27526588\"]",
                    day * 86_400_000
                )
            })
            .collect();
        format!("[{}]", items.join(","))
    }

    /// Binance klines, oldest first, 12 elements (Binance spot docs example).
    pub fn binance(rows: &[(i64, &str)]) -> String {
        let items: Vec<String> = rows
            .iter()
            .map(|(day, c)| {
                let open = day * 86_400_000;
                format!(
                    "[{open},\"{c}\",\"{c}\",\"{c}\",\"{c}\",\"148976.11427815\",{},\"2434.19055334\",308,\"1756.87402397\",\"28.46694368\",\"0\"]",
                    open + 86_399_999
                )
            })
            .collect();
        format!("[{}]", items.join(","))
    }

    /// Bitstamp OHLC, oldest first, every field a string (Polimec `BITSTAMP_USDT_CORRECT`).
    pub fn bitstamp(pair: &str, rows: &[(i64, &str)]) -> String {
        let items: Vec<String> = rows
            .iter()
            .map(|(day, c)| {
                format!(
                    "{{\"close\": \"{c}\", \"high\": \"{c}\", \"low\": \"{c}\", \"open\": \"{c}\", \"timestamp\": \"{}\", \"volume\": \"44595.11593\"}}",
                    day * 86_400
                )
            })
            .collect();
        format!(
            "{{\"data\": {{\"ohlc\": [{}], \"pair\": \"{pair}\"}}}}",
            items.join(", ")
        )
    }

    /// CoinGecko `market_chart/range`: snapshots at 00:00 UTC, the one stamped D+1 being D's
    /// close (public Go snippet of 2024-01-01 in the reference), plus a trailing "now" point.
    pub fn coingecko(rows: &[(i64, &str)]) -> String {
        let mut points: Vec<String> = rows
            .iter()
            .map(|(day, c)| format!("[{},{c}]", (day + 1) * 86_400_000))
            .collect();
        if let Some((day, c)) = rows.last() {
            points.push(format!("[{},{c}]", (day + 1) * 86_400_000 + 58_032_000));
        }
        let p = points.join(",");
        format!("{{\"prices\":[{p}],\"market_caps\":[{p}],\"total_volumes\":[{p}]}}")
    }

    /// The header of an ECB Data API `format=csvdata` answer (32 columns, the reference's
    /// "real 2026 answers quoted in a public test").
    pub const ECB_CSV_HEADER: &str = "KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,OBS_PRE_BREAK,OBS_COM,TIME_FORMAT,BREAKS,COLLECTION,COMPILING_ORG,DISS_ORG,DOM_SER_IDS,PUBL_ECB,PUBL_MU,PUBL_PUBLIC,UNIT_INDEX_BASE,COMPILATION,COVERAGE,DECIMALS,NAT_TITLE,SOURCE_AGENCY,SOURCE_PUB,TITLE,TITLE_COMPL,UNIT,UNIT_MULT";

    /// One `csvdata` row in the reference's shape.
    pub fn ecb_row(currency: &str, date: &str, value: &str) -> String {
        format!(
            "EXR.D.{currency}.EUR.SP00.A,D,{currency},EUR,SP00,A,{date},{value},A,F,,,P1D,,A,,,,,,,99Q1=100,,,4,,4F0,,{currency}/Euro ECB reference exchange rate,\"ECB reference exchange rate, {currency}/Euro, 2.15 pm (C.E.T.)\",{currency},0"
        )
    }
}

/// A scripted answer for a path, or `None` for the default.
pub type Fallback = dyn Fn(&str, usize) -> Option<Reply> + Send + Sync;

/// Fake exchanges answering every provider's request path from stored daily series, in each
/// provider's shape and with each provider's limits and refusals (unknown markets get the
/// provider's own error body). Paths it does not know go to `fallback`.
pub struct Exchanges {
    /// `(provider, market)` → `unix day → close`.
    pub series: std::collections::BTreeMap<
        (crate::Provider, String),
        std::collections::BTreeMap<i64, String>,
    >,
    /// The server's today (its running candle is sent by Kraken, Coinbase and Binance).
    pub today: i64,
    /// Answers for other paths (ECB), or scripted failures: asked first, `None` = default.
    pub fallback: Box<Fallback>,
}

impl std::fmt::Debug for Exchanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchanges")
            .field("today", &self.today)
            .finish_non_exhaustive()
    }
}

fn query<'a>(path: &'a str, name: &str) -> Option<&'a str> {
    let (_, q) = path.split_once('?')?;
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn number(path: &str, name: &str) -> i64 {
    query(path, name).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn iso_day(text: &str) -> i64 {
    chrono::NaiveDate::parse_from_str(text.get(..10).unwrap_or_default(), "%Y-%m-%d")
        .map_or(0, crate::unix_day)
}

impl Exchanges {
    /// A handler for [`Server::start`].
    pub fn into_handler(self) -> Arc<Handler> {
        Arc::new(move |path: &str, seen: usize| {
            if let Some(reply) = (self.fallback)(path, seen) {
                return reply;
            }
            self.answer(path)
        })
    }

    fn rows(
        &self,
        provider: crate::Provider,
        market: &str,
        from: i64,
        to: i64,
    ) -> Option<Vec<(i64, &str)>> {
        let series = self.series.get(&(provider, market.to_owned()))?;
        Some(
            series
                .range(from..=to.min(self.today))
                .map(|(d, c)| (*d, c.as_str()))
                .collect(),
        )
    }

    /// Kraken `AssetPairs` in the shape of rotki `tests/data/assets_kraken.json`: key,
    /// altname, wsname, base, quote.
    fn kraken_pairs(&self) -> Reply {
        use crate::Provider as P;
        let pairs: Vec<String> = self
            .series
            .keys()
            .filter(|(p, _)| *p == P::Kraken)
            .map(|(_, alt)| {
                let base = alt.strip_suffix("EUR").unwrap_or(alt);
                let code = if base == "XBT" || base == "XDG" { format!("X{base}") } else { base.to_owned() };
                format!(
                    "\"{code}ZEUR\":{{\"altname\":\"{alt}\",\"wsname\":\"{base}/EUR\",\"aclass_base\":\"currency\",\"base\":\"{code}\",\"aclass_quote\":\"currency\",\"quote\":\"ZEUR\",\"lot\":\"unit\",\"pair_decimals\":1}}"
                )
            })
            .collect();
        Reply::json(&format!(
            "{{\"error\":[],\"result\":{{{}}}}}",
            pairs.join(",")
        ))
    }

    fn answer(&self, path: &str) -> Reply {
        use crate::Provider as P;
        let segments: Vec<&str> = path
            .split('?')
            .next()
            .unwrap_or_default()
            .split('/')
            .collect();
        match segments.as_slice() {
            ["", "0", "public", "AssetPairs"] => self.kraken_pairs(),
            ["", "0", "public", "OHLC"] => {
                let pair = query(path, "pair").unwrap_or_default();
                let since = number(path, "since").div_euclid(86_400) + 1;
                let from = since.max(self.today - 719);
                match self.rows(P::Kraken, pair, from, self.today) {
                    Some(rows) => Reply::json(&shapes::kraken(&format!("X{pair}"), &rows)),
                    None => Reply::json("{\"error\":[\"EQuery:Unknown asset pair\"]}"),
                }
            }
            ["", "products", market, "candles"] => {
                let (from, to) = (
                    iso_day(query(path, "start").unwrap_or_default()),
                    iso_day(query(path, "end").unwrap_or_default()),
                );
                if to - from + 1 > 300 {
                    return Reply::status_json(
                        400,
                        "{\"message\":\"granularity too small for the requested time range. Count of aggregations requested exceeds 300\"}",
                    );
                }
                match self.rows(P::Coinbase, market, from, to) {
                    Some(rows) => Reply::json(&shapes::coinbase(&rows)),
                    None => Reply::status_json(404, "{\"message\":\"NotFound\"}"),
                }
            }
            ["", "v2", market, "candles"] => {
                let (from, to) = (
                    number(path, "start").div_euclid(86_400_000),
                    number(path, "end").div_euclid(86_400_000),
                );
                match self.rows(P::Bitvavo, market, from, to) {
                    Some(rows) if rows.len() <= 1440 => Reply::json(&shapes::bitvavo(&rows)),
                    Some(_) => Reply::status_json(400, "{\"errorCode\":107,\"error\":\"limit\"}"),
                    None => Reply::status_json(
                        400,
                        &format!(
                            "{{\"errorCode\":205,\"error\":\"market parameter {market} is invalid.\"}}"
                        ),
                    ),
                }
            }
            ["", "api", "v3", "klines"] => {
                let symbol = query(path, "symbol").unwrap_or_default();
                let provider = if symbol.ends_with("USDT") {
                    P::BinanceUsdt
                } else {
                    P::Binance
                };
                let from = number(path, "startTime").div_euclid(86_400_000);
                let to = number(path, "endTime").div_euclid(86_400_000);
                match self.rows(provider, symbol, from, to) {
                    Some(rows) => Reply::json(&shapes::binance(
                        &rows.into_iter().take(1000).collect::<Vec<_>>(),
                    )),
                    None => Reply::status_json(400, "{\"code\":-1121,\"msg\":\"Invalid symbol.\"}"),
                }
            }
            ["", "api", "v2", "ohlc", market, ""] => {
                let from = number(path, "start").div_euclid(86_400);
                let to = number(path, "end").div_euclid(86_400);
                match self.rows(P::Bitstamp, market, from, to) {
                    Some(rows) => Reply::json(&shapes::bitstamp(
                        market,
                        &rows.into_iter().take(1000).collect::<Vec<_>>(),
                    )),
                    None => Reply::status_json(404, "{\"errors\":[{\"message\":\"Not found\"}]}"),
                }
            }
            ["", "api", "v3", "coins", id, "market_chart", "range"] => {
                let from = number(path, "from").div_euclid(86_400);
                let to = number(path, "to").div_euclid(86_400);
                if from < self.today - 365 {
                    return Reply::status_json(
                        401,
                        "{\"error\":{\"status\":{\"timestamp\":\"2024-04-20T22:00:05.123+00:00\",\"error_code\":10012,\"error_message\":\"Your request exceeds the allowed time range. Public API users are limited to querying historical data within the past 365 days. Upgrade to a paid plan to enjoy full historical data access: https://www.coingecko.com/en/api/pricing. \"}}}",
                    );
                }
                match self.rows(P::CoinGecko, id, from - 1, to - 1) {
                    Some(rows) => Reply::json(&shapes::coingecko(&rows)),
                    None => Reply::status_json(404, "{\"error\":\"coin not found\"}"),
                }
            }
            _ => Reply::status_json(404, "{\"error\":\"no such path\"}"),
        }
    }
}
