use super::*;
use serde_json::json;

fn check(schema: &'static ConfigSchema, mut value: Value) -> (Value, Vec<String>) {
    let warnings = schema.check(Path::new("/cfg/settings.json"), &mut value);
    (value, warnings.iter().map(ToString::to_string).collect())
}

/// The ```json blocks of a document that parse as JSON objects.
fn json_blocks(doc: &str) -> Vec<Value> {
    let mut blocks = Vec::new();
    let mut rest = doc;
    while let Some(start) = rest.find("```json\n") {
        let body = &rest[start + 8..];
        let Some(end) = body.find("```") else { break };
        if let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(&body[..end]) {
            blocks.push(value);
        }
        rest = &body[end..];
    }
    blocks
}

#[test]
fn every_shipped_schema_compiles() {
    for schema in [&SETTINGS, &MODELS, &KEYBINDINGS, &THEME] {
        assert!(schema.schema().is_some());
    }
}

#[test]
fn wrong_types_are_named_with_the_expected_type_and_taken_out() {
    let (kept, warnings) = check(
        &SETTINGS,
        json!({"theme": 42, "defaultThinkingLevel": ["x"], "quietStartup": true}),
    );
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/cfg/settings.json: \"theme\" should be a string, not 42"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].contains("\"defaultThinkingLevel\" should be one of \"off\", \"minimal\""),
        "{warnings:?}"
    );
    assert!(warnings[1].contains("not [\"x\"]"), "{warnings:?}");
    assert_eq!(kept, json!({"quietStartup": true}));
}

#[test]
fn nested_keys_list_items_and_unknown_keys_get_one_warning_each() {
    let (kept, warnings) = check(
        &SETTINGS,
        json!({
            "retry": {"maxRetries": "five", "enabled": false, "bogus": 1},
            "enabledModels": ["a", 3, "b", {}],
            "colour": "red",
        }),
    );
    assert_eq!(warnings.len(), 5, "{warnings:?}");
    let all = warnings.join("\n");
    assert!(
        all.contains("\"retry.maxRetries\" should be a number (0 or more), not \"five\""),
        "{all}"
    );
    assert!(all.contains("unknown key \"retry.bogus\""), "{all}");
    assert!(
        all.contains("\"enabledModels[1]\" should be a string, not 3"),
        "{all}"
    );
    assert!(
        all.contains("\"enabledModels[3]\" should be a string, not {}"),
        "{all}"
    );
    assert!(all.contains("unknown key \"colour\""), "{all}");
    assert_eq!(
        kept,
        json!({"retry": {"enabled": false, "bogus": 1}, "enabledModels": ["a", "b"], "colour": "red"})
    );
}

#[test]
fn every_documented_setting_is_accepted() {
    let all_keys = json!({
        "$schema": "../schemas/settings.schema.json",
        "lastChangelogVersion": "0.73.1",
        "defaultProvider": "anthropic",
        "defaultModel": "claude-sonnet-4-5",
        "defaultThinkingLevel": "xhigh",
        "transport": "websocket",
        "steeringMode": "all",
        "followUpMode": "one-at-a-time",
        "theme": "dark",
        "locale": "zh-TW",
        "alwaysTrust": false,
        "compaction": {"enabled": true, "reserveTokens": 16384, "keepRecentTokens": 20000},
        "branchSummary": {"reserveTokens": 16384, "skipPrompt": true},
        "retry": {"enabled": true, "maxRetries": 3, "baseDelayMs": 2000,
                  "provider": {"timeoutMs": 3600000, "maxRetries": 0,
                               "maxRetryDelayMs": 60000, "idleTimeoutMs": 0}},
        "hideThinkingBlock": false,
        "shellPath": "/bin/zsh",
        "quietStartup": true,
        "shellCommandPrefix": "shopt -s expand_aliases",
        "npmCommand": ["mise", "exec", "node@20", "--", "npm"],
        "collapseChangelog": true,
        "enableInstallTelemetry": false,
        "packages": ["pi-skills", {"source": "git:github.com/u/r", "skills": ["a"], "extensions": [],
                                   "prompts": ["p"], "themes": ["t"]}],
        "extensions": ["./ext"], "skills": ["./skills"], "prompts": ["./prompts"], "themes": ["./themes"],
        "enableSkillCommands": true,
        "terminal": {"showImages": true, "imageWidthCells": 60, "clearOnShrink": false,
                     "showTerminalProgress": true},
        "images": {"autoResize": true, "blockImages": false},
        "enabledModels": ["claude-*", "gpt-4o"],
        "doubleEscapeAction": "fork",
        "treeFilterMode": "labeled-only",
        "thinkingBudgets": {"minimal": 1024, "low": 4096, "medium": 10240, "high": 32768},
        "editorPaddingX": 1,
        "autocompleteMaxVisible": 10,
        "showHardwareCursor": false,
        "markdown": {"codeBlockIndent": "    "},
        "warnings": {"anthropicExtraUsage": false},
        "sessionDir": ".pi/sessions",
        "extensions.watch": true,
        "extensions.memoryLimitMb": 64
    });
    let (_, warnings) = check(&SETTINGS, all_keys);
    assert!(warnings.is_empty(), "{warnings:?}");
    let legacy = json!({"queueMode": "all", "websockets": true, "retry": {"maxDelayMs": 5},
                        "skills": {"enableSkillCommands": false, "customDirectories": ["x"]}});
    let (_, warnings) = check(&SETTINGS, legacy);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn the_examples_in_the_docs_are_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read_to_string(root.join("docs").join(name)).unwrap();
    let settings = json_blocks(&read("settings.md"));
    assert!(settings.len() >= 2);
    for block in settings {
        assert!(check(&SETTINGS, block).1.is_empty());
    }
    let keys = json_blocks(&read("keybindings.md"));
    assert!(!keys.is_empty());
    for block in keys {
        assert!(check(&KEYBINDINGS, block).1.is_empty());
    }
    let mut models = 0;
    for doc in ["models.md", "custom-provider.md", "providers.md"] {
        for block in json_blocks(&read(doc)) {
            if block.get("providers").is_some() {
                models += 1;
                let (_, warnings) = check(&MODELS, block);
                assert!(warnings.is_empty(), "{doc}: {warnings:?}");
            }
        }
    }
    assert!(models >= 3, "{models}");
    for entry in std::fs::read_dir(root.join("themes")).unwrap() {
        let path = entry.unwrap().path();
        let theme: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let (_, warnings) = check(&THEME, theme);
        assert!(warnings.is_empty(), "{}: {warnings:?}", path.display());
    }
}

#[test]
fn a_model_without_an_id_is_dropped_and_the_others_stay() {
    let (kept, warnings) = check(
        &MODELS,
        json!({"providers": {"p": {"baseUrl": "u", "models": [
            {"name": "no id"}, {"id": "m", "contextWindow": "big", "input": ["text", "video"],
                                "cost": {"input": 1}}
        ]}}}),
    );
    let all = warnings.join("\n");
    assert_eq!(warnings.len(), 4, "{all}");
    assert!(
        all.contains("\"providers.p.models[1].cost\" is missing \"output\""),
        "{all}"
    );
    assert!(
        all.contains("\"providers.p.models[0]\" is missing \"id\""),
        "{all}"
    );
    assert!(
        all.contains("\"providers.p.models[1].contextWindow\" should be a number, not \"big\""),
        "{all}"
    );
    assert!(
        all.contains("\"providers.p.models[1].input[1]\" should be one of \"text\", \"image\""),
        "{all}"
    );
    assert_eq!(
        kept,
        json!({"providers": {"p": {"baseUrl": "u", "models": [{"id": "m", "input": ["text"]}]}}})
    );
}

#[test]
fn theme_colours_name_the_accepted_forms() {
    let theme: Value = serde_json::from_str(crate::ui_kit::theme::DARK_JSON).unwrap();
    let mut theme = theme;
    theme["colors"]["accent"] = json!(true);
    let (_, warnings) = check(&THEME, theme);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains(
            "\"colors.accent\" should be a string or a whole number from 0 to 255, not true"
        ),
        "{warnings:?}"
    );
}

#[test]
fn a_keybinding_of_the_wrong_type_is_named() {
    let (kept, warnings) = check(
        &KEYBINDINGS,
        json!({"app.quit": 5, "app.model.select": "ctrl+x"}),
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("\"app.quit\" should be a string or a list of strings, not 5"),
        "{warnings:?}"
    );
    assert_eq!(kept, json!({"app.model.select": "ctrl+x"}));
}

#[test]
fn counts_are_grouped_by_thousands() {
    use super::group_thousands;
    assert_eq!(group_thousands(1_234_567), "1,234,567");
    assert_eq!(group_thousands(999), "999");
}
