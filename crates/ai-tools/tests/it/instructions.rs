//! Instructions builder tests (`tools.md` §11).

use ai_tools::{CurrencyCode, Locale, Profile};
use serde_json::json;
use shared_types::{Tier, ToolName};

use crate::support::{Rig, local};
use crate::support_golden::check_golden;

/// Whether `text` names `word` with word boundaries (letters, digits and `_` are word chars).
pub(crate) fn names_word(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text.get(..at).and_then(|t| t.chars().next_back());
        let after = text.get(at + word.len()..).and_then(|t| t.chars().next());
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

fn text(profile: Profile, tag: &str, currency: &CurrencyCode) -> String {
    let rig = Rig::new(profile, 4, json!({}));
    let locale = Locale::parse(tag).unwrap_or_else(|e| panic!("{e}"));
    rig.host.instructions(&locale, currency)
}

fn split(text: &str) -> (String, String) {
    let (prefix, suffix) = text.split_once("\n\n").map_or((text, ""), |_| {
        let at = text.rfind("\n\n").unwrap_or(0);
        (
            text.get(..at).unwrap_or(""),
            text.get(at + 2..).unwrap_or(""),
        )
    });
    (prefix.to_owned(), suffix.to_owned())
}

#[test]
fn prefixes_match_their_goldens_and_ignore_locale_and_currency() {
    for (profile, golden) in [
        (Profile::Metered, "instructions_metered.txt"),
        (local(8192), "instructions_local.txt"),
    ] {
        let (es, _) = split(&text(profile, "es-ES", &CurrencyCode::EUR));
        let (en, _) = split(&text(profile, "en", &CurrencyCode::USD));
        assert_eq!(es, en);
        check_golden(golden, &es);
    }
    let (metered, _) = split(&text(Profile::Metered, "en", &CurrencyCode::EUR));
    let (local_prefix, _) = split(&text(local(8192), "en", &CurrencyCode::EUR));
    assert_ne!(metered, local_prefix);
    assert_eq!(
        text(Profile::Mixed, "es", &CurrencyCode::EUR),
        text(Profile::Metered, "es", &CurrencyCode::EUR)
    );
}

#[test]
fn tool_names_and_order() {
    for profile in [Profile::Metered, local(1000)] {
        let full = text(profile, "es", &CurrencyCode::EUR);
        for tool in ToolName::ALL {
            let exposed = profile.exposed().contains(tool);
            assert_eq!(
                names_word(&full, tool.as_str()),
                exposed,
                "{tool} in {profile:?}"
            );
        }
        let positions: Vec<usize> = profile
            .exposed()
            .iter()
            .filter_map(|tool| full.find(&format!("\n- {}: ", tool.as_str())))
            .collect();
        assert_eq!(positions.len(), profile.exposed().len());
        assert!(positions.windows(2).all(|w| w[0] < w[1]));
        // Every snake_case word that looks like a tool name is one.
        for word in full.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if word.contains('_') {
                assert!(ToolName::parse(word).is_some(), "{word} is not a tool");
            }
        }
    }
    let local_text = text(local(8192), "en", &CurrencyCode::EUR);
    for tool in ToolName::ALL.iter().filter(|t| t.tier() == Tier::Extended) {
        assert!(!names_word(&local_text, tool.as_str()));
    }
}

#[test]
fn no_digits_and_required_phrases() {
    let common = [
        "never compute, convert, sum, subtract or estimate",
        "verbatim",
        "inline code",
        "hypothetical price",
        "comparison across years, call tax_year_comparison",
        "not computed",
        "as it is",
        "currency field",
        "never convert or relabel",
        "truncated",
        "never present a partial total as final",
        "all of the user's accounts",
        "never ask the user for an account id",
        "internal identifier",
    ];
    for profile in [Profile::Metered, local(8192)] {
        for (tag, currency) in [("es-ES", CurrencyCode::EUR), ("en", CurrencyCode::USD)] {
            let full = text(profile, tag, &currency);
            assert!(!full.chars().any(char::is_numeric));
            let lower = full.to_lowercase();
            for phrase in common {
                assert!(lower.contains(phrase), "{phrase}");
            }
            assert_eq!(
                lower.contains("retry with a narrower filter"),
                !profile.is_local()
            );
            assert_eq!(lower.contains("larger profile"), profile.is_local());
            let (_, suffix) = split(&full);
            assert!(suffix.starts_with("Response format:"));
            assert!(suffix.contains(tag) && suffix.contains(currency.as_str()));
        }
    }
}

#[test]
fn suffix_text() {
    let full = text(Profile::Metered, "es", &CurrencyCode::EUR);
    assert!(full.ends_with("\n\nResponse format: concise Markdown. Answer in the language of the locale es. The base currency is EUR; when a result declares another currency, say so instead of presenting its figures as EUR."));
    let locale = Locale::parse("es-es").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(locale.as_str(), "es-ES");
    for bad in ["e", "espa", "es-", "es-ESP", "es_ES", "e1", ""] {
        assert!(Locale::parse(bad).is_err(), "{bad}");
    }
    assert_eq!(CurrencyCode::parse("usd").map(|c| c.as_str()), Ok("USD"));
    assert!(CurrencyCode::parse("GBP").is_err());
}
