use serde_json::{Map, Value, json};

use super::*;

fn params(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[test]
fn listings_are_stable_and_within_the_ceiling() {
    for listing in [resources_list(), resource_templates_list(), prompts_list()] {
        assert!(
            listing.chars().count() <= LISTING_CEILING_CHARS,
            "{} chars",
            listing.chars().count()
        );
        assert!(serde_json::from_str::<Value>(&listing).is_ok());
    }
    assert_eq!(resources_list(), resources_list());
    assert_eq!(prompts_list(), prompts_list());
    let resources: Value = serde_json::from_str(&resources_list()).unwrap();
    let uris: Vec<&str> = resources["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris, [OVERVIEW_URI, INTEGRITY_URI, GLOSSARY_URI]);
}

#[test]
fn prompts_take_and_check_their_arguments() {
    let filing = get_prompt(&params(
        json!({"name":"yearly-filing","arguments":{"year":"2024"}}),
    ))
    .unwrap();
    let filing: Value = serde_json::from_str(&filing).unwrap();
    let text = filing["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(text.contains("spanish_tax_report with year 2024"));
    assert_eq!(filing["messages"][0]["role"], "user");
    assert_eq!(
        get_prompt(&params(json!({"name":"yearly-filing"}))).unwrap_err(),
        (-32602, "Invalid params: missing argument year".to_owned())
    );
    assert_eq!(
        get_prompt(&params(
            json!({"name":"yearly-filing","arguments":{"year":"24"}})
        ))
        .unwrap_err(),
        (
            -32602,
            "Invalid params: year \"24\" is not a tax year from 2009 such as \"2024\"".to_owned()
        )
    );
    assert!(
        get_prompt(&params(
            json!({"name":"yearly-filing","arguments":{"year":"2008"}})
        ))
        .is_err()
    );
    assert!(get_prompt(&params(json!({"name":"data-gap-review"}))).is_ok());
    assert!(get_prompt(&params(json!({"name":"portfolio-review","arguments":{}}))).is_ok());
    assert_eq!(
        get_prompt(&params(json!({"name":"x"}))).unwrap_err(),
        (-32602, "Invalid params: unknown prompt x".to_owned())
    );
}

#[test]
fn prompt_texts_name_only_core_tools() {
    for name in ["yearly-filing", "data-gap-review", "portfolio-review"] {
        let text = get_prompt(&params(json!({"name":name,"arguments":{"year":"2024"}}))).unwrap();
        for tool in shared_types::ToolName::ALL {
            let named = text.contains(tool.as_str());
            if named {
                assert_eq!(
                    tool.tier(),
                    shared_types::Tier::Core,
                    "{name} names {}",
                    tool.as_str()
                );
            }
        }
    }
}
