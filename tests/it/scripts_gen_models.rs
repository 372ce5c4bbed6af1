//! `scripts/gen-models` turns models.dev data into the catalog format: tool-capable text
//! models only, `base_model` inheritance, provider map and per-model overrides.

use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

fn generate(output: &Path) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/models-dev");
    Command::new("python3")
        .arg(root.join("scripts/gen-models"))
        .arg("--source")
        .arg(&fixture)
        .arg("--config")
        .arg(fixture.join("gen-models.providers.json"))
        .arg("--output")
        .arg(output)
        .output()
        .expect("python3 runs")
}

#[test]
fn writes_tool_capable_models_with_inheritance_and_overrides() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("catalog.json");
    let run = generate(&out);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("no provider not-in-data"), "{stderr}");
    let catalog: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let providers = catalog["providers"].as_array().unwrap();
    assert_eq!(providers.len(), 2);
    // A provider models.dev does not list keeps the models given in full.
    assert_eq!(providers[1]["provider"], "listed");
    assert_eq!(
        providers[1]["models"],
        json!([{"id": "only-here", "name": "Only Here", "reasoning": true, "input": ["text"],
                "cost": [1, 2, 0.1, 0], "contextWindow": 50000, "maxTokens": 64000}])
    );
    let acme = &providers[0];
    assert_eq!(acme["provider"], "acme-cloud");
    assert_eq!(acme["api"], "openai-completions");
    assert_eq!(acme["baseUrl"], "https://api.acme.example/v1");
    let models = acme["models"].as_array().unwrap();
    let ids: Vec<&str> = models.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        ["lab/derived", "plain"],
        "no-tools, deprecated and embedding models are left out"
    );
    assert_eq!(
        models[0],
        json!({"id": "lab/derived", "name": "Derived", "reasoning": true, "input": ["text", "image"],
               "cost": [3.0, 2.0, 0, 0], "contextWindow": 100000, "maxTokens": 8000,
               "headers": {"X-Client": "pi"}})
    );
    assert_eq!(models[1]["input"], json!(["text"]));
    assert_eq!(models[1]["cost"], json!([0.5, 1.5, 0, 0.6]));
    assert_eq!(models[1]["compat"], json!({"supportsDeveloperRole": false}));
}

#[test]
fn check_mode_reports_a_stale_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("catalog.json");
    assert!(generate(&out).status.success());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/models-dev");
    let check = |path: &Path| {
        Command::new("python3")
            .arg(root.join("scripts/gen-models"))
            .args(["--source", fixture.to_str().unwrap(), "--check", "--output"])
            .arg(path)
            .arg("--config")
            .arg(fixture.join("gen-models.providers.json"))
            .status()
            .unwrap()
    };
    assert!(check(&out).success());
    std::fs::write(&out, "{}").unwrap();
    assert!(!check(&out).success());
}

#[test]
fn committed_catalog_parses_with_hundreds_of_models() {
    let text = include_str!("../../src/ai/catalog.json");
    let catalog: Value = serde_json::from_str(text).unwrap();
    let total: usize = catalog["providers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["models"].as_array().unwrap().len())
        .sum();
    assert!(total > 500, "{total}");
}

#[test]
fn gateway_routes_give_models_their_own_api_and_only_named_providers_are_regenerated() {
    let dir = tempfile::tempdir().unwrap();
    let model = "name = \"M\"\ntool_call = true\n[cost]\ninput = 1\noutput = 2\n[limit]\ncontext = 1000\noutput = 100\n";
    for id in ["up/claude-x", "compat/@cf/lab/small", "elsewhere/skipped"] {
        let path = dir.path().join(format!("providers/gate/models/{id}.toml"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, model).unwrap();
    }
    let config = json!({"providers": [
        {"provider": "gate", "source": "gate", "api": "openai-completions", "baseUrl": "https://g/{ID}/compat",
         "routes": [
            {"prefix": "up/", "strip": true, "api": "anthropic-messages", "baseUrl": "https://g/{ID}/up"},
            {"prefix": "compat/"}
         ]},
        {"provider": "zzz-untouched", "source": "absent", "api": "openai-completions", "baseUrl": "https://z"}
    ]});
    std::fs::write(dir.path().join("config.json"), config.to_string()).unwrap();
    let out = dir.path().join("catalog.json");
    let existing = json!({"providers": [
        {"provider": "aaa-kept", "api": "openai-completions", "baseUrl": "https://a", "models": [
            {"id": "kept", "name": "Kept", "reasoning": false, "input": ["text"], "cost": [0, 0, 0, 0],
             "contextWindow": 1, "maxTokens": 1}]}
    ]});
    std::fs::write(&out, existing.to_string()).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Command::new("python3")
        .arg(root.join("scripts/gen-models"))
        .arg("--source")
        .arg(dir.path())
        .arg("--config")
        .arg(dir.path().join("config.json"))
        .arg("--output")
        .arg(&out)
        .args(["--provider", "gate"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let catalog: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let providers = catalog["providers"].as_array().unwrap();
    let names: Vec<&str> = providers
        .iter()
        .map(|p| p["provider"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["aaa-kept", "gate"],
        "other providers kept, unnamed ones not added"
    );
    let models = providers[1]["models"].as_array().unwrap();
    let ids: Vec<&str> = models.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        ["compat/@cf/lab/small", "claude-x"],
        "unrouted ids are skipped"
    );
    assert_eq!(models[1]["api"], "anthropic-messages");
    assert_eq!(models[1]["baseUrl"], "https://g/{ID}/up");
    assert!(
        models[0].get("api").is_none(),
        "the provider's own api is not repeated"
    );
}
