use super::*;

#[test]
fn overflow_messages_name_no_internal_names() {
    assert_eq!(
        DomainError::overflow("T_sav").to_string(),
        "the amounts are too large to compute the savings-base gains and losses of the year: an amount, price or rate in the ledger is far beyond any real one"
    );
    assert_eq!(
        DomainError::overflow("realized").to_string(),
        "the amounts are too large to compute the realized result: an amount, price or rate in the ledger is far beyond any real one"
    );
    assert_eq!(overflow_subject("current value"), "the current value");
    assert_eq!(overflow_subject("fee_total"), "the fee total");
}
