use super::{ANNEX_COLUMNS, field, render_annex_csv};

#[test]
fn fields_are_quoted_by_rfc_4180() {
    assert_eq!(field("Kraken"), "Kraken");
    assert_eq!(field("Wallet, cold"), "\"Wallet, cold\"");
    assert_eq!(field("My \"main\""), "\"My \"\"main\"\"\"");
    assert_eq!(field("a\nb"), "\"a\nb\"");
}

#[test]
fn an_empty_annex_is_its_header_line() {
    let csv = render_annex_csv(&[], &[]);
    assert_eq!(csv, format!("{}\n", ANNEX_COLUMNS.join(",")));
    assert_eq!(ANNEX_COLUMNS.len(), 31);
    assert_eq!(super::modelo100_file_name(2024), "modelo100_2024.csv");
    assert_eq!(super::annex_file_name(2024), "annex_2024.csv");
}
