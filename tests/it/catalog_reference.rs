//! The built-in catalog against pi 0.73.1's: for every model both know, the context
//! window, whether it reasons, and its thinking level map must agree, or the difference
//! must be listed with its reason in `tests/fixtures/catalog-differences.json`. The
//! reference values are in `tests/fixtures/catalog-reference.json` (taken from the
//! installed pi 0.73.1's model list).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// `provider/id` to the catalog's model entry.
fn our_models() -> BTreeMap<String, Value> {
    let catalog = fixture("src/ai/catalog.json");
    let mut out = BTreeMap::new();
    for provider in catalog["providers"].as_array().unwrap() {
        let name = provider["provider"].as_str().unwrap();
        for model in provider["models"].as_array().unwrap() {
            let id = model["id"].as_str().unwrap();
            out.insert(format!("{name}/{id}"), model.clone());
        }
    }
    out
}

/// Each field where `ours` differs from `reference`, as `field: ours ≠ reference`.
fn differences(ours: &Value, reference: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for field in ["contextWindow", "reasoning", "thinkingLevelMap"] {
        let (a, b) = (&ours[field], &reference[field]);
        if a != b {
            out.push(format!("{field}: {a} ≠ {b}"));
        }
    }
    out
}

#[test]
fn every_difference_from_the_reference_catalog_is_justified() {
    let ours = our_models();
    let reference = fixture("tests/fixtures/catalog-reference.json");
    let justified = fixture("tests/fixtures/catalog-differences.json");
    let justified = justified.as_object().unwrap();
    let mut unexplained = Vec::new();
    let mut explained = 0;
    for (key, expected) in reference.as_object().unwrap() {
        let model = ours
            .get(key)
            .unwrap_or_else(|| panic!("{key} is in the reference but not in the catalog"));
        let diff = differences(model, expected);
        match (diff.is_empty(), justified.get(key)) {
            (true, Some(_)) => panic!("{key} matches now: take it out of catalog-differences.json"),
            (true, None) => {}
            (false, Some(reason)) => {
                assert!(
                    reason.as_str().is_some_and(|r| r.len() > 20),
                    "{key}: say why"
                );
                // Only a smaller window may be kept: a larger one overflows first.
                assert_eq!(diff.len(), 1, "{key}: {diff:?}");
                assert!(
                    model["contextWindow"].as_u64() < expected["contextWindow"].as_u64(),
                    "{key}: a kept difference is a smaller context window: {diff:?}"
                );
                explained += 1;
            }
            (false, None) => unexplained.push(format!("{key}: {}", diff.join("; "))),
        }
    }
    assert!(
        unexplained.is_empty(),
        "{} models differ without a reason:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert_eq!(
        explained,
        justified.len(),
        "every listed model is in the reference"
    );
    assert!(reference.as_object().unwrap().len() > 700);
}

#[test]
fn openai_default_model_has_the_window_an_account_really_gets() {
    let ours = our_models();
    let gpt = &ours["openai/gpt-5.4"];
    assert_eq!(gpt["contextWindow"], 272_000);
    assert_eq!(gpt["reasoning"], true);
    // `off` is not a level this model offers: the map says so.
    assert_eq!(gpt["thinkingLevelMap"]["off"], Value::Null);
    assert!(gpt["thinkingLevelMap"].get("off").is_some());
}
