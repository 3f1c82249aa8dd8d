//! "Now", injected: the facade reads the system clock only through [`SystemClock`].

use std::sync::Arc;

use core_domain::Instant;

use crate::error::{Error, Result};

/// The source of "now" for a ledger: the as-of date of the portfolio and the tools, the
/// current year's bound on tax reports, the time written in the import log.
///
/// Implement it to drive time yourself; [`SystemClock`] and [`FixedClock`] cover the usual
/// cases.
pub trait Clock: Send + Sync + 'static {
    /// The current instant as nanoseconds since 1970-01-01T00:00:00Z.
    fn unix_nanos(&self) -> i64;
}

/// The operating system's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[allow(
        clippy::disallowed_methods,
        reason = "the one place the library reads the system clock, when the caller asks for it"
    )]
    fn unix_nanos(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| {
                i64::try_from(since.as_nanos()).unwrap_or(i64::MAX)
            })
    }
}

/// A clock that always answers the same instant: reproducible answers and tests.
///
/// ```
/// use cartera::{Clock, FixedClock};
///
/// let clock = FixedClock::parse("2024-12-31T12:00:00Z")?;
/// assert_eq!(clock.unix_nanos(), 1_735_646_400_000_000_000);
/// assert!(FixedClock::parse("31/12/2024").is_err());
/// # Ok::<(), cartera::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedClock {
    nanos: i64,
}

impl FixedClock {
    /// The clock fixed at an instant written `YYYY-MM-DDTHH:MM:SSZ` (UTC).
    pub fn parse(text: &str) -> Result<Self> {
        match Instant::parse(text) {
            Ok(instant) => Ok(Self::from_unix_nanos(instant.unix_nanos())),
            Err(_) => Err(Error::option(
                "instant",
                format!("{text:?} is not an instant: write it as 2025-01-15T12:00:00Z"),
            )),
        }
    }

    /// The clock fixed at `nanos` nanoseconds since the Unix epoch.
    pub const fn from_unix_nanos(nanos: i64) -> Self {
        Self { nanos }
    }
}

impl Clock for FixedClock {
    fn unix_nanos(&self) -> i64 {
        self.nanos
    }
}

/// A facade clock as the clock port of the use cases.
#[derive(Clone)]
pub(crate) struct Port(pub(crate) Arc<dyn Clock>);

impl use_cases::ports::Clock for Port {
    fn now(&self) -> Instant {
        Instant::from_unix_nanos(self.0.unix_nanos())
    }
}
