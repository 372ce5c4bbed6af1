//! Which built-in models accept the `xhigh` thinking level.
//! orig-file: packages/ai/test/supports-xhigh.test.ts

use pi::ai::registry::ModelRegistry;

fn supports(provider: &str, id: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let (registry, _) = ModelRegistry::load_from(&dir.path().join("models.json"));
    registry
        .find(provider, id)
        .unwrap_or_else(|| panic!("{provider}/{id} missing"))
        .supports_xhigh()
}

/// orig: supportsXhigh › returns true for Anthropic Opus 4.6 on anthropic-messages API
#[test]
fn opus_4_6() {
    assert!(supports("anthropic", "claude-opus-4-6"));
}

/// orig: supportsXhigh › returns false for non-Opus Anthropic models
#[test]
fn sonnet_4_5() {
    assert!(!supports("anthropic", "claude-sonnet-4-5"));
}

/// orig: supportsXhigh › returns true for GPT-5.4 models
#[test]
fn gpt_5_4() {
    assert!(supports("openai-codex", "gpt-5.4"));
}

/// orig: supportsXhigh › returns true for OpenRouter Opus 4.6 (openai-completions API)
#[test]
fn openrouter_opus_4_6() {
    assert!(supports("openrouter", "anthropic/claude-opus-4.6"));
}
