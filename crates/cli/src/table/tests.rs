use super::{Align, Table, WIDTH};

#[test]
fn a_narrow_table_stays_a_table() {
    let mut table = Table::new(&[("asset", Align::Left), ("units", Align::Right)]);
    table.row(["BTC", "0.5"]);
    assert_eq!(
        table.render(),
        " asset   units\n---------------\n BTC       0.5\n"
    );
}

#[test]
fn a_table_wider_than_the_terminal_is_stacked_without_splitting_a_figure() {
    let mut table = Table::new(&[
        ("asset", Align::Left),
        ("note", Align::Left),
        ("value EUR", Align::Right),
    ]);
    let note = "n".repeat(WIDTH);
    table.row(["BTC", note.as_str(), "12345.67"]);
    table.row(["ETH", "", "1.5"]);
    let text = table.render();
    assert_eq!(
        text,
        format!(
            " asset:     BTC\n note:      {note}\n value EUR: 12345.67\n\n asset:     ETH\n \
             value EUR: 1.5\n"
        )
    );
}
