use super::stated_offset;

fn shown(name: &str) -> Option<String> {
    stated_offset(name).map(|o| format!("{} {o}", o.label))
}

#[test]
fn reads_the_offset_binance_writes_in_the_file_name() {
    assert_eq!(
        shown("Binance-Transaction-History-202401300400(UTC+1)_ab12.csv").as_deref(),
        Some("UTC+1 +01:00")
    );
    assert_eq!(
        shown("dir/Binance-Transaction-History-2024(UTC-6)_x.csv").as_deref(),
        Some("UTC-6 -06:00")
    );
    assert_eq!(shown("a(UTC+5:30).csv").as_deref(), Some("UTC+5:30 +05:30"));
    assert_eq!(shown("a(UTC).csv").as_deref(), Some("UTC +00:00"));
}

#[test]
fn anything_else_states_no_offset() {
    for name in [
        "statement.csv",
        "a(UTC+1.csv",
        "a(UTC+15).csv",
        "a(UTC+1:75).csv",
        "a(UTC1).csv",
        "a(UTC--6).csv",
        "(UTC+1)/statement.csv",
    ] {
        assert!(stated_offset(name).is_none(), "{name}");
    }
}
