//! Model resolution (`--model`, `--models`, initial choice) and `--list-models` output.

use std::path::Path;

use pi::ai::auth::AuthStorage;
use pi::ai::model::ThinkingLevel;
use pi::ai::registry::ModelRegistry;
use pi::ai::resolve::{
    InitialModelRequest, ModelResolveError, ModelSelectionError, list_models, resolve_cli_model,
    resolve_model_scope, select_initial_model,
};
use pi::config::Env;

fn registry(agent: &Path) -> ModelRegistry {
    ModelRegistry::load(agent).0
}

fn auth(agent: &Path, env: &[(&str, &str)]) -> AuthStorage {
    let (auth, warnings) = AuthStorage::load_with_env(agent, Env::from_pairs(env));
    assert!(warnings.is_empty(), "{warnings:?}");
    auth
}

// ----------------------------------------------------------- model resolution

#[test]
fn cli_model_resolution() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry(dir.path());
    let resolve = |provider: Option<&str>, pattern: &str| {
        resolve_cli_model(&registry, provider, pattern)
            .map(|r| {
                (
                    format!("{}/{}", r.model.provider, r.model.id),
                    r.thinking_level,
                )
            })
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        resolve(None, "claude-sonnet-4-5").unwrap(),
        ("anthropic/claude-sonnet-4-5".into(), None)
    );
    assert_eq!(
        resolve(None, "Claude-Opus-4-7").unwrap().0,
        "anthropic/claude-opus-4-7"
    );
    assert_eq!(
        resolve(None, "anthropic/claude-sonnet-4-5").unwrap().0,
        "anthropic/claude-sonnet-4-5"
    );
    // Fuzzy: partial id, alias preferred over dated ids, highest sorting alias.
    assert_eq!(
        resolve(None, "anthropic/sonnet").unwrap().0,
        "anthropic/claude-sonnet-5"
    );
    assert_eq!(
        resolve(None, "anthropic/haiku").unwrap().0,
        "anthropic/claude-haiku-4-5"
    );
    // Name matching.
    assert_eq!(
        resolve(Some("anthropic"), "Claude Sonnet 4.5").unwrap().0,
        "anthropic/claude-sonnet-4-5"
    );
    // Thinking suffix.
    assert_eq!(
        resolve(None, "anthropic/sonnet:high").unwrap(),
        (
            "anthropic/claude-sonnet-5".into(),
            Some(ThinkingLevel::High)
        )
    );
    // Provider prefix wins over ids containing slashes.
    assert_eq!(resolve(None, "zai/glm-5.1").unwrap().0, "zai/glm-5.1");
    // --provider restricts candidates (case-insensitive).
    assert_eq!(
        resolve(Some("ZAI"), "glm-5.1:minimal").unwrap(),
        ("zai/glm-5.1".into(), Some(ThinkingLevel::Minimal))
    );
    assert_eq!(
        resolve(Some("anthropic"), "anthropic/opus").unwrap().0,
        "anthropic/claude-opus-4-8"
    );
    // Invalid suffix is strict on the command line.
    let err = resolve(None, "sonnet:bogus").unwrap_err();
    assert!(
        err.starts_with("Model \"sonnet:bogus\" not found."),
        "{err}"
    );
    // Unknown model: close matches and where to look.
    let err = resolve(None, "glm-5.1:OFF").unwrap_err();
    assert!(err.contains("Did you mean: zai/glm-5.1"), "{err}");
    assert!(err.contains("pi --list-models"), "{err}");
    let err = resolve_cli_model(&registry, Some("nope"), "x").unwrap_err();
    assert_eq!(
        err,
        ModelResolveError::UnknownProvider {
            provider: "nope".into()
        }
    );
    let err = err.to_string();
    assert_eq!(
        err,
        "Unknown provider \"nope\". Use --list-models to see available providers/models."
    );
    // Unknown id for a known provider: a custom id on the provider's default model.
    let custom = resolve_cli_model(&registry, Some("anthropic"), "claude-foo").unwrap();
    assert_eq!(custom.model.id, "claude-foo");
    assert_eq!(custom.model.api, "anthropic-messages");
    assert_eq!(
        custom.warning.as_deref(),
        Some("Model \"claude-foo\" not found for provider \"anthropic\". Using custom model id.")
    );
}

#[test]
fn scope_patterns() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry(dir.path());
    let patterns: Vec<String> = [
        "zai/*:high",
        "CLAUDE-OPUS-4-?",
        "gpt-5.4:low",
        "nomatch",
        "opus:bogus",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (scoped, warnings) = resolve_model_scope(&patterns, registry.all());
    let names: Vec<String> = scoped
        .iter()
        .map(|s| {
            let level = s
                .thinking_level
                .map(|l| format!(":{l}"))
                .unwrap_or_default();
            format!("{}/{}{level}", s.model.provider, s.model.id)
        })
        .collect();
    assert!(names.contains(&"zai/glm-5.1:high".to_string()), "{names:?}");
    assert!(
        names.contains(&"anthropic/claude-opus-4-7".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"openrouter/openai/gpt-5.4-pro:low".to_string()),
        "{names:?}"
    );
    assert_eq!(
        names
            .iter()
            .filter(|n| n.contains("claude-opus-4-7"))
            .count(),
        3,
        "anthropic, cloudflare-ai-gateway and opencode, each once: {names:?}"
    );
    assert_eq!(
        warnings,
        vec![
            "No models match pattern \"nomatch\"".to_string(),
            "Invalid thinking level \"bogus\" in pattern \"opus:bogus\". Using default instead."
                .to_string()
        ]
    );
}

fn base_request<'a>(registry: &'a ModelRegistry, auth: &'a AuthStorage) -> InitialModelRequest<'a> {
    InitialModelRequest {
        cli_provider: None,
        cli_model: None,
        cli_thinking: None,
        scoped_models: &[],
        has_existing_session: false,
        default_provider: None,
        default_model: None,
        registry,
        auth,
    }
}

#[test]
fn initial_model_selection() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry(dir.path());
    let request = |auth| base_request(&registry, auth);
    // First available provider in the default order.
    let keys = auth(
        dir.path(),
        &[("ZAI_API_KEY", "z"), ("ANTHROPIC_API_KEY", "a")],
    );
    let chosen = select_initial_model(request(&keys)).unwrap();
    assert_eq!(
        (chosen.model.provider.as_str(), chosen.model.id.as_str()),
        ("anthropic", "claude-opus-4-7")
    );
    // Settings default wins.
    let chosen = select_initial_model(InitialModelRequest {
        default_provider: Some("zai"),
        default_model: Some("glm-4.7"),
        ..request(&keys)
    })
    .unwrap();
    assert_eq!(chosen.model.id, "glm-4.7");
    // CLI model with a suffix; --thinking wins over the suffix.
    let chosen = select_initial_model(InitialModelRequest {
        cli_model: Some("glm-5.1:low"),
        ..request(&keys)
    })
    .unwrap();
    assert_eq!(chosen.thinking_level, Some(ThinkingLevel::Low));
    assert!(chosen.thinking_from_cli);
    let chosen = select_initial_model(InitialModelRequest {
        cli_model: Some("glm-5.1:low"),
        cli_thinking: Some(ThinkingLevel::High),
        ..request(&keys)
    })
    .unwrap();
    assert_eq!(chosen.thinking_level, Some(ThinkingLevel::High));
    // Scope: saved default if in scope, else the first scoped model.
    let (scoped, _) = resolve_model_scope(
        &["glm-4.7:high".into(), "glm-5.1".into()],
        &registry.available(&keys),
    );
    let chosen = select_initial_model(InitialModelRequest {
        scoped_models: &scoped,
        ..request(&keys)
    })
    .unwrap();
    assert_eq!(chosen.model.id, "glm-4.7");
    assert_eq!(chosen.thinking_level, Some(ThinkingLevel::High));
    // Bad --model.
    let err = select_initial_model(InitialModelRequest {
        cli_model: Some("no-such-model-anywhere"),
        ..request(&keys)
    })
    .unwrap_err();
    assert!(matches!(err, ModelSelectionError::InvalidCliModel(_)));
    // Nothing configured.
    let empty = auth(dir.path(), &[]);
    let err = select_initial_model(request(&empty)).unwrap_err();
    let ModelSelectionError::NoModelsAvailable { models_path, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(models_path, &dir.path().join("models.json"));
    let text = err.to_string();
    assert!(text.starts_with("No models available."), "{text}");
    assert!(
        text.contains("ANTHROPIC_API_KEY") && text.contains("OPENAI_API_KEY"),
        "{text}"
    );
    assert!(
        text.contains(&dir.path().join("models.json").display().to_string()),
        "{text}"
    );
}

// -------------------------------------------------------------- --list-models

#[test]
fn list_models_table() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry(dir.path());
    let auth = auth(
        dir.path(),
        &[("ZAI_API_KEY", "x"), ("CEREBRAS_API_KEY", "y")],
    );
    let expected = "\
provider  model         context  max-out  thinking  images
cerebras  gpt-oss-120b  131.1K   41.0K    yes       no    
cerebras  zai-glm-4.7   131.1K   41.0K    no        no    
zai       glm-4.5-air   131.1K   98.3K    yes       no    
zai       glm-4.7       204.8K   131.1K   yes       no    
zai       glm-5-turbo   200K     131.1K   yes       no    
zai       glm-5.1       200K     131.1K   yes       no    
zai       glm-5.2       1M       131.1K   yes       no    
zai       glm-5v-turbo  200K     131.1K   yes       yes   ";
    assert_eq!(list_models(&registry, &auth, None), expected);
    let filtered = list_models(&registry, &auth, Some("zai 5v"));
    assert_eq!(filtered.lines().count(), 2, "{filtered}");
    assert!(
        filtered
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("zai       glm-5v-turbo")
    );
    assert_eq!(
        list_models(&registry, &auth, Some("zzzz")),
        "No models matching \"zzzz\""
    );
    let nothing = list_models(&registry, &self::auth(dir.path(), &[]), None);
    assert!(nothing.starts_with("No models available."), "{nothing}");
}
