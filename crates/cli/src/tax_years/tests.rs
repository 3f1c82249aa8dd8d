use super::*;

#[test]
fn spans_parse_one_year_or_an_inclusive_range() {
    assert_eq!(
        parse_span("2024"),
        Ok(YearSpan {
            first: 2024,
            last: 2024
        })
    );
    assert_eq!(
        parse_span("2022..2024"),
        Ok(YearSpan {
            first: 2022,
            last: 2024
        })
    );
    assert!(parse_span("2024..2022").unwrap_err().contains("2022..2024"));
    assert!(parse_span("20x4").unwrap_err().contains("2022..2024"));
    assert!(
        parse_span("1900..2024")
            .unwrap_err()
            .contains("more than 50")
    );
}
