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

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

    /// The hand-written formats print what chrono's patterns print, for every instant and for
    /// dates of any year (signed and five-digit years fall back to chrono).
    #[test]
    fn direct_formats_equal_chrono(nanos in proptest::prelude::any::<i64>(), days in -4_000_000_i32..4_000_000) {
        let at = Instant::from_unix_nanos(nanos);
        let time = at.to_chrono();
        let fraction = nanos.rem_euclid(NANOS_PER_SECOND);
        let mut expected = time.format("%Y-%m-%dT%H:%M:%S").to_string();
        if fraction != 0 {
            expected.push_str(format!(".{fraction:09}").trim_end_matches('0'));
        }
        expected.push('Z');
        proptest::prop_assert_eq!(at.to_string(), expected);
        if let Some(day) = Date::from_num_days_from_ce_opt(days) {
            proptest::prop_assert_eq!(format_date(day), day.format("%Y-%m-%d").to_string());
        }
    }
}

#[test]
fn format_date_pads_and_falls_back() {
    assert_eq!(format_date(date("0001-02-03")), "0001-02-03");
    assert_eq!(format_date(date("2025-12-31")), "2025-12-31");
    let far = Date::from_ymd_opt(12_345, 1, 1).unwrap();
    assert_eq!(format_date(far), far.format("%Y-%m-%d").to_string());
    assert_eq!(
        instant("2025-01-02T03:04:05.12Z").to_string(),
        "2025-01-02T03:04:05.12Z"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2048, ..Default::default() })]

    /// The switch table answers as the calendar does, at any instant and around every switch
    /// (one second either side), inside the table's years and outside them.
    #[test]
    fn the_summer_switch_table_equals_the_calendar(
        nanos in proptest::prelude::any::<i64>(),
        year in 1890_i32..2210,
        october in proptest::prelude::any::<bool>(),
        nudge in -1_i64..=1,
    ) {
        let at = Instant::from_unix_nanos(nanos);
        proptest::prop_assert_eq!(is_summer(at), is_summer_computed(at));
        let switch = if october { summer_end(year) } else { summer_start(year) };
        let near = Instant::from_unix_nanos((switch + nudge) * NANOS_PER_SECOND);
        proptest::prop_assert_eq!(is_summer(near), is_summer_computed(near));
    }
}
