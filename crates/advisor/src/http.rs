//! The blocking HTTP side: one worker thread per request (so that the caller's cancel flag and
//! the read timeout end a request in flight at once), retries of network errors and 5xx
//! answers, and the server's own message for 4xx answers.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use crate::agent::Observer;
use crate::backend::server_message;
use crate::error::AdvisorError;

/// How often a wait looks at the cancel flag.
const POLL: Duration = Duration::from_millis(20);

/// The longest line of an answer stream (a whole-JSON answer is one line at most this long).
const MAX_LINE_BYTES: u64 = 8 << 20;

/// The most of an error body kept for its message.
const MAX_ERROR_BODY_BYTES: u64 = 64 << 10;

/// What the worker thread reports.
enum Wire {
    /// The status line and headers arrived.
    Head { status: u16 },
    /// The body of an error status (cut).
    ErrorBody(String),
    /// One line of a success body, with its line ending.
    Line(String),
    /// The body ended.
    End,
    /// The request failed.
    Failed(Failure),
}

/// How a request failed.
enum Failure {
    /// Before an answer: refused, unresolvable, reset, connect timeout.
    Network(String),
    /// Nothing arrived for the read timeout.
    Stalled,
    /// The body broke mid-way.
    Broken(String),
}

/// The HTTP settings of one agent.
#[derive(Debug)]
pub(crate) struct Transport {
    agent: ureq::Agent,
    read_timeout: Duration,
    retry_delays: Vec<Duration>,
}

/// An answer whose status was a success: its lines, as they arrive.
pub(crate) struct Stream {
    rx: Receiver<Wire>,
    read_timeout: Duration,
}

impl Transport {
    /// An agent with the given timeouts; `direct` skips any proxy of the environment (loopback
    /// and private-network servers).
    pub(crate) fn new(
        connect_timeout: Duration,
        read_timeout: Duration,
        retry_delays: Vec<Duration>,
        direct: bool,
    ) -> Transport {
        let mut builder = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(connect_timeout))
            .timeout_recv_response(Some(read_timeout))
            .timeout_per_read(Some(read_timeout));
        if direct {
            builder = builder.proxy(None);
        }
        Transport {
            agent: builder.build().new_agent(),
            read_timeout,
            retry_delays,
        }
    }

    /// Posts `body` to `url`, retrying network errors and 5xx answers after each delay; a 4xx
    /// answer fails at once with the server's message.
    pub(crate) fn post(
        &self,
        url: &str,
        headers: &[(&'static str, String)],
        body: &str,
        cancel: &AtomicBool,
        observer: &mut dyn Observer,
    ) -> Result<Stream, AdvisorError> {
        let mut attempt = 0_usize;
        loop {
            let rx = self.spawn(url, headers, body);
            let error = match recv(&rx, cancel)? {
                Wire::Head { status } if status < 400 => {
                    return Ok(Stream {
                        rx,
                        read_timeout: self.read_timeout,
                    });
                }
                Wire::Head { status } => {
                    let body = match recv(&rx, cancel)? {
                        Wire::ErrorBody(body) => body,
                        _ => String::new(),
                    };
                    let message = server_message(&body);
                    if status < 500 {
                        return Err(AdvisorError::Rejected { status, message });
                    }
                    AdvisorError::ServerFailed {
                        url: url.to_owned(),
                        status,
                        message,
                    }
                }
                Wire::Failed(Failure::Stalled) => {
                    return Err(AdvisorError::Stalled {
                        timeout: self.read_timeout,
                    });
                }
                Wire::Failed(Failure::Network(detail) | Failure::Broken(detail)) => {
                    AdvisorError::Unreachable {
                        url: url.to_owned(),
                        detail,
                    }
                }
                Wire::ErrorBody(_) | Wire::Line(_) | Wire::End => AdvisorError::Unreachable {
                    url: url.to_owned(),
                    detail: "the connection ended before an answer".to_owned(),
                },
            };
            let Some(delay) = self.retry_delays.get(attempt).copied() else {
                return Err(error);
            };
            observer.retrying(&error.to_string(), delay);
            sleep(delay, cancel)?;
            attempt = attempt.saturating_add(1);
        }
    }

    fn spawn(&self, url: &str, headers: &[(&'static str, String)], body: &str) -> Receiver<Wire> {
        let (tx, rx) = mpsc::channel();
        let agent = self.agent.clone();
        let url = url.to_owned();
        let headers = headers.to_vec();
        let body = body.to_owned();
        // Detached on purpose: a cancelled or stalled request's thread ends when its read
        // times out; nobody waits for it.
        let _ = thread::Builder::new()
            .name("advisor-http".to_owned())
            .spawn(move || request(&agent, &url, &headers, &body, &tx));
        rx
    }
}

fn request(
    agent: &ureq::Agent,
    url: &str,
    headers: &[(&'static str, String)],
    body: &str,
    tx: &Sender<Wire>,
) {
    let mut builder = agent.post(url);
    for (name, value) in headers {
        builder = builder.header(*name, value.as_str());
    }
    let response = match builder.send(body.as_bytes()) {
        Ok(response) => response,
        Err(error) => {
            let _ = tx.send(Wire::Failed(classify(&error)));
            return;
        }
    };
    let status = response.status().as_u16();
    if tx.send(Wire::Head { status }).is_err() {
        return;
    }
    let reader = response.into_body().into_reader();
    if status >= 400 {
        let mut bytes = Vec::new();
        let _ = reader.take(MAX_ERROR_BODY_BYTES).read_to_end(&mut bytes);
        let _ = tx.send(Wire::ErrorBody(
            String::from_utf8_lossy(&bytes).into_owned(),
        ));
        return;
    }
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut line);
        let wire = match read {
            Ok(0) => Wire::End,
            Ok(_) if line.len() as u64 >= MAX_LINE_BYTES && line.last() != Some(&b'\n') => {
                Wire::Failed(Failure::Broken(
                    "a line of the answer is longer than 8 MiB".to_owned(),
                ))
            }
            Ok(_) => Wire::Line(String::from_utf8_lossy(&line).into_owned()),
            Err(error) => Wire::Failed(classify_io(&error)),
        };
        let last = !matches!(wire, Wire::Line(_));
        if tx.send(wire).is_err() || last {
            return;
        }
    }
}

fn classify(error: &ureq::Error) -> Failure {
    match error {
        ureq::Error::Timeout(ureq::Timeout::RecvResponse | ureq::Timeout::PerRead) => {
            Failure::Stalled
        }
        ureq::Error::Io(io) => classify_io(io),
        other => Failure::Network(other.to_string()),
    }
}

fn classify_io(error: &io::Error) -> Failure {
    let timed_out = matches!(
        error.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    ) || error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<ureq::Error>())
        .is_some_and(|inner| matches!(inner, ureq::Error::Timeout(_)));
    if timed_out {
        Failure::Stalled
    } else {
        Failure::Broken(error.to_string())
    }
}

fn recv(rx: &Receiver<Wire>, cancel: &AtomicBool) -> Result<Wire, AdvisorError> {
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(AdvisorError::Cancelled);
        }
        match rx.recv_timeout(POLL) {
            Ok(wire) => return Ok(wire),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Ok(Wire::Failed(Failure::Broken(
                    "the connection closed without a word".to_owned(),
                )));
            }
        }
    }
}

/// Sleeps `delay`, waking early (with `Cancelled`) when the flag is set.
fn sleep(delay: Duration, cancel: &AtomicBool) -> Result<(), AdvisorError> {
    let mut left = delay;
    while !left.is_zero() {
        if cancel.load(Ordering::Relaxed) {
            return Err(AdvisorError::Cancelled);
        }
        let step = left.min(POLL);
        thread::sleep(step);
        left = left.saturating_sub(step);
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(AdvisorError::Cancelled);
    }
    Ok(())
}

impl Stream {
    /// The next line of the body, `None` at its end.
    pub(crate) fn next_line(&self, cancel: &AtomicBool) -> Result<Option<String>, AdvisorError> {
        match recv(&self.rx, cancel)? {
            Wire::Line(line) => Ok(Some(line)),
            Wire::End | Wire::Head { .. } | Wire::ErrorBody(_) => Ok(None),
            Wire::Failed(Failure::Stalled) => Err(AdvisorError::Stalled {
                timeout: self.read_timeout,
            }),
            Wire::Failed(Failure::Network(detail) | Failure::Broken(detail)) => {
                Err(AdvisorError::StreamBroken { detail })
            }
        }
    }
}
