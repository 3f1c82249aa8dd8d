use super::*;

fn instant(text: &str) -> Instant {
    Instant::parse(text).unwrap()
}

fn date(text: &str) -> Date {
    text.parse().unwrap()
}

fn check(tz: FiscalTimezone, at: &str, expected: &str) {
    assert_eq!(
        tz.fiscal_date(instant(at)),
        date(expected),
        "{at} in {tz:?}"
    );
}

#[test]
fn fiscal_dates_of_domain_1_5() {
    let madrid = FiscalTimezone::EuropeMadrid;
    check(madrid, "2023-12-31T22:59:59Z", "2023-12-31");
    check(madrid, "2023-12-31T23:00:00Z", "2024-01-01");
    check(madrid, "2024-06-30T22:00:00Z", "2024-07-01");
    check(madrid, "2024-10-26T22:30:00Z", "2024-10-27");
    check(madrid, "2024-10-27T23:30:00Z", "2024-10-28");
    check(
        FiscalTimezone::AtlanticCanary,
        "2023-12-31T23:00:00Z",
        "2023-12-31",
    );
    // The switch itself: 2024-03-31 01:00:00 UTC starts summer time.
    check(madrid, "2024-03-30T22:59:59Z", "2024-03-30");
    check(madrid, "2024-03-31T22:00:00Z", "2024-04-01");
    check(madrid, "2024-10-27T00:59:59Z", "2024-10-27");
}

#[test]
fn instants_round_trip_in_the_stored_form() {
    for text in [
        "2024-01-01T00:00:00Z",
        "2024-11-02T08:00:00.5Z",
        "2009-01-03T18:15:05.123456789Z",
    ] {
        assert_eq!(instant(text).to_string(), text);
    }
    for bad in [
        "2024-01-01T00:00:00",
        "2024-01-01 00:00:00Z",
        "2024-02-30T00:00:00Z",
        "2024-01-01T00:00:00.50Z",
        "2024-01-01T00:00:00.Z",
        "2024-01-01T24:00:00Z",
        "2024-01-01T00:00:00.1234567891Z",
    ] {
        assert!(Instant::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn day_bounds_follow_the_zone() {
    let madrid = FiscalTimezone::EuropeMadrid;
    assert_eq!(
        madrid.start_of_day(date("2024-01-01")).to_string(),
        "2023-12-31T23:00:00Z"
    );
    assert_eq!(
        madrid.end_of_day(date("2024-07-01")).to_string(),
        "2024-07-01T22:00:00Z"
    );
    assert_eq!(
        FiscalTimezone::AtlanticCanary
            .start_of_day(date("2024-01-01"))
            .to_string(),
        "2024-01-01T00:00:00Z"
    );
}

#[test]
fn date_arithmetic_clamps_to_month_end() {
    assert_eq!(add_years(date("2012-02-29"), 1), date("2013-02-28"));
    assert_eq!(add_months(date("2023-12-31"), 2), date("2024-02-29"));
    assert_eq!(add_months(date("2024-05-31"), -2), date("2024-03-31"));
}
