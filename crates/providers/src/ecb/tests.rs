use super::*;
use crate::testing::shapes::{ECB_CSV_HEADER, ecb_row};

fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

#[test]
fn csvdata_is_read_by_header_name() {
    // The reference's real 2026 row (a quoted TITLE_COMPL with commas).
    let body = format!(
        "{ECB_CSV_HEADER}\n{}\n{}\n",
        ecb_row("USD", "2026-09-03", "1.1615"),
        ecb_row("GBP", "2026-09-03", "0.86635")
    );
    let rates = parse_csvdata(body.as_bytes(), d("2026-09-01"), d("2026-09-04")).unwrap();
    assert_eq!(
        rates
            .iter()
            .map(|r| format!("{} {} {}", r.currency, r.date, r.rate))
            .collect::<Vec<_>>(),
        vec!["USD 2026-09-03 1.1615", "GBP 2026-09-03 0.86635"]
    );
}

#[test]
fn csvdata_refuses_missing_values_and_days_outside() {
    let nan = format!(
        "{ECB_CSV_HEADER}\n{}\n",
        ecb_row("USD", "2026-09-03", "NaN")
    );
    assert_eq!(
        parse_csvdata(nan.as_bytes(), d("2026-09-01"), d("2026-09-04")).unwrap_err(),
        "line 2: OBS_VALUE \"NaN\" is not a number"
    );
    let outside = format!(
        "{ECB_CSV_HEADER}\n{}\n",
        ecb_row("USD", "2026-09-08", "1.1")
    );
    assert_eq!(
        parse_csvdata(outside.as_bytes(), d("2026-09-01"), d("2026-09-04")).unwrap_err(),
        "line 2: 2026-09-08 is outside the days asked, 2026-09-01 to 2026-09-04"
    );
    let zero = format!("{ECB_CSV_HEADER}\n{}\n", ecb_row("USD", "2026-09-03", "0"));
    assert_eq!(
        parse_csvdata(zero.as_bytes(), d("2026-09-01"), d("2026-09-04")).unwrap_err(),
        "line 2: rate 0 is not positive"
    );
    let html = "<html><body>Service unavailable</body></html>";
    assert!(
        parse_csvdata(html.as_bytes(), d("2026-09-01"), d("2026-09-04"))
            .unwrap_err()
            .starts_with("no CURRENCY column in the answer")
    );
}
