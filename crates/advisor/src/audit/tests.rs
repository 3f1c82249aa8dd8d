use super::*;

fn unverified(answer: &str, results: &[&str]) -> Vec<String> {
    let results: Vec<String> = results.iter().map(|r| (*r).to_owned()).collect();
    unverified_figures(answer, &results, "")
}

#[test]
fn figures_quoted_from_tool_results_are_verified_in_any_notation() {
    let results = [r#"{"kind":"ok","payload":{"equity":"112750.00","roi":"12.63","count":25}}"#];
    assert!(
        unverified(
            "Equity `112750.00` EUR, ROI 12.63 %, 25 holdings.",
            &results
        )
        .is_empty()
    );
    assert!(unverified("Patrimonio 112.750,00 EUR y 12,63 %.", &results).is_empty());
    assert!(unverified("Equity 112,750.00 EUR or 112 750 EUR.", &results).is_empty());
    assert!(unverified("Equity 112750 EUR.", &results).is_empty());
}

#[test]
fn invented_and_recomputed_figures_are_listed_once_as_written() {
    let results = [r#"{"payload":{"a":"100.00","b":"50.00"}}"#];
    assert_eq!(
        unverified(
            "Together `150.00` EUR (a `100.00`, b `50.00`); again 150.00, and 1.234,5.",
            &results
        ),
        vec!["150.00".to_owned(), "1.234,5".to_owned()]
    );
}

#[test]
fn signs_ambiguity_words_and_small_integers() {
    let results = [r#"{"delta":"-30.00","price":"1.234","n":"1234"}"#];
    // A loss quoted without its sign is still the tool's figure; an invented sign is not.
    assert!(unverified("A loss of 30.00 (−30.00).", &results).is_empty());
    assert_eq!(
        unverified("Gain +45.10 or -1234", &results),
        vec!["45.10", "-1234"]
    );
    // `1,234` reads as 1234 or 1.234; both are in the results.
    assert!(unverified("1,234 and 1.234", &results).is_empty());
    // Numbers glued to words and integers below ten are not figures.
    assert!(unverified("ETH2, AI16Z, 3rd, 1. first, 7 holdings", &results).is_empty());
}

#[test]
fn the_question_vouches_for_its_own_numbers() {
    let results = vec![r#"{"positionValue":"140000.00"}"#.to_owned()];
    assert!(
        unverified_figures(
            "At 70.000 EUR your BTC is worth 140000.00 EUR.",
            &results,
            "What if BTC were 70000?"
        )
        .is_empty()
    );
}

#[test]
fn dates_split_into_their_parts() {
    let results = [r#"{"date":"2024-03-15"}"#];
    assert!(unverified("On 2024-03-15 you sold.", &results).is_empty());
    assert_eq!(
        unverified("On 2023-03-15 you sold.", &results),
        vec!["2023"]
    );
}
