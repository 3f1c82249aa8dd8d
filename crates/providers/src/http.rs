//! The blocking HTTP client and its manners on the network.
//!
//! One [`Client`] per run. Per host family it keeps the pace (the minimum time between two
//! requests), whether the host is dead for the rest of the run, and how many requests were
//! made. Time is read and spent only through the injected [`Pause`], so tests run without
//! waiting.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::{Config, Family};

/// The run's time source for pacing and waits. The system one sleeps; a test one advances a
/// counter.
pub trait Pause {
    /// Time since the run started (monotonic).
    fn elapsed(&self) -> Duration;
    /// Waits for `duration`.
    fn sleep(&self, duration: Duration);
}

/// The system's monotonic clock and `std::thread::sleep`.
#[derive(Debug)]
pub struct SystemPause {
    start: std::time::Instant,
}

impl SystemPause {
    /// A pause whose elapsed time counts from now.
    pub fn new() -> Self {
        Self {
            start: std::time::Instant::now(),
        }
    }
}

impl Default for SystemPause {
    fn default() -> Self {
        Self::new()
    }
}

impl Pause for SystemPause {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// An answer with any status (4xx included: the provider's body says why).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// The `Content-Type` header, when sent.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// A host family that failed. The message names the host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetError {
    /// Connect, timeout or read errors on every try.
    #[error("{host} could not be reached ({reason})")]
    Unreachable {
        /// The host (scheme, host and port).
        host: String,
        /// The last error.
        reason: String,
    },
    /// 5xx on every try.
    #[error("{host} answered HTTP {status} on every try")]
    Server {
        /// The host.
        host: String,
        /// The last status.
        status: u16,
    },
    /// Still throttled after the allowed waits.
    #[error("{host} kept refusing requests as too many (throttled)")]
    Throttled {
        /// The host.
        host: String,
    },
    /// The host failed earlier in this run and is not asked again.
    #[error("{host} is not asked again in this run: {reason}")]
    Down {
        /// The host.
        host: String,
        /// The earlier failure.
        reason: String,
    },
}

/// The waits between tries after a network error or a 5xx: two retries, 1 s then 2 s apart.
pub const RETRY_WAITS: [Duration; 2] = [Duration::from_secs(1), Duration::from_secs(2)];
/// Throttle waits allowed for one request before the host counts as throttled for the run.
const MAX_THROTTLE_WAITS: u32 = 4;
/// Bodies larger than this are refused (the ECB history zip is about 650 kB).
const BODY_LIMIT: u64 = 64 * 1024 * 1024;

/// The state of one host family in this run.
#[derive(Debug, Default)]
struct HostState {
    last_request: Option<Duration>,
    dead: Option<String>,
    requests: u64,
}

/// The run's HTTP client.
pub struct Client {
    config: Config,
    direct: ureq::Agent,
    proxied: Option<ureq::Agent>,
    pause: Box<dyn Pause>,
    hosts: BTreeMap<Family, HostState>,
    /// Every throttle or retry wait taken, in order (for the summary and the tests).
    waits: Vec<(Family, Duration)>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.config)
            .field("hosts", &self.hosts)
            .finish_non_exhaustive()
    }
}

fn agent(config: &Config, proxy: Option<ureq::Proxy>) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_connect(Some(config.connect_timeout))
        .timeout_recv_response(Some(config.read_timeout))
        .timeout_recv_body(Some(config.read_timeout))
        .http_status_as_error(false)
        .user_agent(concat!("cartera/", env!("CARGO_PKG_VERSION")))
        .proxy(proxy)
        .build()
        .into()
}

impl Client {
    /// A client for `config`; a proxy URL that cannot be read is an error naming it.
    pub fn new(config: Config, pause: Box<dyn Pause>) -> Result<Self, String> {
        let proxied = match config.proxy.as_deref().filter(|p| !p.trim().is_empty()) {
            None => None,
            Some(url) => {
                let proxy = ureq::Proxy::new(url.trim())
                    .map_err(|e| format!("the proxy {url} cannot be used: {e}"))?;
                Some(agent(&config, Some(proxy)))
            }
        };
        Ok(Self {
            direct: agent(&config, None),
            proxied,
            config,
            pause,
            hosts: BTreeMap::new(),
            waits: Vec::new(),
        })
    }

    /// The run's configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Requests made to `family` so far (tries included).
    pub fn requests(&self, family: Family) -> u64 {
        self.hosts.get(&family).map_or(0, |h| h.requests)
    }

    /// Waits taken so far (throttles and retries), in order.
    pub fn waits(&self) -> &[(Family, Duration)] {
        &self.waits
    }

    /// The families that failed in this run, with why.
    pub fn dead_hosts(&self) -> Vec<(Family, String)> {
        self.hosts
            .iter()
            .filter_map(|(f, h)| h.dead.clone().map(|d| (*f, d)))
            .collect()
    }

    /// Whether `family` failed earlier in this run.
    pub fn is_down(&self, family: Family) -> bool {
        self.hosts.get(&family).is_some_and(|h| h.dead.is_some())
    }

    /// `GET base(family) + path_and_query`. Network errors and 5xx are retried twice (1 s, then
    /// 2 s); HTTP 429, and an answer whose body `throttled_in_body` recognises (Kraken's 200,
    /// Bitstamp's `400.002`), are waited out
    /// (`Retry-After` capped, else 2, 4, 8… s); any other status comes back as is. A family
    /// that fails here is not asked again in the run.
    pub fn get(
        &mut self,
        family: Family,
        path_and_query: &str,
        throttled_in_body: Option<fn(&[u8]) -> bool>,
    ) -> Result<Response, NetError> {
        let base = self.config.base(family).to_owned();
        let host = base.clone();
        if let Some(reason) = self.hosts.get(&family).and_then(|h| h.dead.clone()) {
            return Err(NetError::Down { host, reason });
        }
        let url = format!("{base}{path_and_query}");
        let mut retries = 0usize;
        let mut throttles = 0u32;
        loop {
            self.pace(family);
            let attempt = self.once(family, &url);
            let wait = match attempt {
                Ok(response) if response.status == 429 => {
                    self.throttle_wait(family, &host, &mut throttles, response.retry_after)?
                }
                Ok(response)
                    if response.status < 500
                        && throttled_in_body.is_some_and(|f| f(&response.response.body)) =>
                {
                    self.throttle_wait(family, &host, &mut throttles, None)?
                }
                Ok(response) if response.status >= 500 => {
                    let Some(wait) = RETRY_WAITS.get(retries) else {
                        let error = NetError::Server {
                            host,
                            status: response.status,
                        };
                        self.kill(family, &error);
                        return Err(error);
                    };
                    retries += 1;
                    *wait
                }
                Ok(response) => return Ok(response.response),
                Err(reason) => {
                    let Some(wait) = RETRY_WAITS.get(retries) else {
                        let error = NetError::Unreachable { host, reason };
                        self.kill(family, &error);
                        return Err(error);
                    };
                    retries += 1;
                    *wait
                }
            };
            self.waits.push((family, wait));
            self.pause.sleep(wait);
        }
    }

    fn throttle_wait(
        &mut self,
        family: Family,
        host: &str,
        throttles: &mut u32,
        retry_after: Option<Duration>,
    ) -> Result<Duration, NetError> {
        if *throttles >= MAX_THROTTLE_WAITS {
            let error = NetError::Throttled {
                host: host.to_owned(),
            };
            self.kill(family, &error);
            return Err(error);
        }
        *throttles += 1;
        let backoff = Duration::from_secs(1u64 << (*throttles).min(6));
        Ok(retry_after
            .unwrap_or(backoff)
            .min(self.config.max_throttle_wait))
    }

    fn kill(&mut self, family: Family, error: &NetError) {
        self.hosts.entry(family).or_default().dead = Some(error.to_string());
    }

    /// Waits until the family's pace allows the next request.
    fn pace(&mut self, family: Family) {
        let now = self.pause.elapsed();
        let state = self.hosts.entry(family).or_default();
        if let Some(last) = state.last_request {
            if let Some(wait) = (last + family.pace()).checked_sub(now) {
                if !wait.is_zero() {
                    self.pause.sleep(wait);
                }
            }
        }
        let state = self.hosts.entry(family).or_default();
        state.last_request = Some(self.pause.elapsed());
        state.requests += 1;
    }

    fn agent_for(&self, url: &str) -> &ureq::Agent {
        match &self.proxied {
            Some(proxied) if !bypasses_proxy(self.config.no_proxy.as_deref(), url) => proxied,
            _ => &self.direct,
        }
    }

    fn once(&self, _family: Family, url: &str) -> Result<Attempt, String> {
        let mut answer = self
            .agent_for(url)
            .get(url)
            .call()
            .map_err(|e| describe(&e))?;
        let status = answer.status().as_u16();
        let header = |name: &str| {
            answer
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let content_type = header("content-type");
        let retry_after = header("retry-after")
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = answer
            .body_mut()
            .with_config()
            .limit(BODY_LIMIT)
            .read_to_vec()
            .map_err(|e| describe(&e))?;
        Ok(Attempt {
            status,
            retry_after,
            response: Response {
                status,
                content_type,
                body,
            },
        })
    }
}

struct Attempt {
    status: u16,
    retry_after: Option<Duration>,
    response: Response,
}

/// A transport error in words a user can act on.
fn describe(error: &ureq::Error) -> String {
    match error {
        ureq::Error::Timeout(_) => "timed out".to_owned(),
        ureq::Error::HostNotFound => "host not found".to_owned(),
        ureq::Error::ConnectionFailed => "connection refused or failed".to_owned(),
        ureq::Error::Io(io) => match io.kind() {
            std::io::ErrorKind::ConnectionRefused => "connection refused".to_owned(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => "timed out".to_owned(),
            _ => format!("connection error: {io}"),
        },
        other => other.to_string(),
    }
}

/// Whether `NO_PROXY` exempts the host of `url`: `*`, the host itself, or a domain suffix
/// (`example.com` and `.example.com` both match `api.example.com`).
pub fn bypasses_proxy(no_proxy: Option<&str>, url: &str) -> bool {
    let Some(list) = no_proxy else {
        return false;
    };
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    let host = authority
        .rsplit_once(':')
        .filter(|(_, port)| port.chars().all(|c| c.is_ascii_digit()))
        .map_or(authority, |(host, _)| host)
        .to_ascii_lowercase();
    list.split(',')
        .map(|e| e.trim().to_ascii_lowercase())
        .filter(|e| !e.is_empty())
        .any(|entry| {
            if entry == "*" {
                return true;
            }
            let entry = entry.trim_start_matches('.');
            let entry = entry.split(':').next().unwrap_or_default();
            host == entry || host.ends_with(&format!(".{entry}"))
        })
}

#[cfg(test)]
mod tests;
