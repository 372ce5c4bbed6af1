//! The summary request of a compaction asks a model that can think for the session's
//! thinking level, and a model that cannot for none. pi 0.58.3 asked for `high`; pi 0.73.1
//! asks for the session's level (off: none), which is what is kept here.
//! orig-file: packages/coding-agent/test/compaction-summary-reasoning.test.ts

use pi::ai::model::ThinkingLevel;
use pi::compaction::summarize::complete_summary;

use crate::session_harness::Harness;

async fn summary_options(reasoning: bool, level: ThinkingLevel) -> pi::ai::stream::StreamOptions {
    let h = Harness::new();
    let mut config = h.agent.config.clone();
    config.model.reasoning = reasoning;
    config.thinking = level;
    h.faux.push_text("## Goal\nTest summary");
    let text = complete_summary(&config, "Summarize this.".into(), 2000, true, &h.signal)
        .await
        .unwrap();
    assert_eq!(text, "## Goal\nTest summary");
    h.faux.requests()[0].options.clone()
}

/// orig: generateSummary reasoning options › sets reasoning=high for reasoning-capable models
#[tokio::test]
async fn a_thinking_model_is_asked_to_think() {
    let options = summary_options(true, ThinkingLevel::High).await;
    assert_eq!(options.reasoning, Some(ThinkingLevel::High));
    assert_eq!(options.max_tokens, Some(2000));
    let options = summary_options(true, ThinkingLevel::Low).await;
    assert_eq!(options.reasoning, Some(ThinkingLevel::Low));
}

/// orig: generateSummary reasoning options › does not set reasoning for non-reasoning models
#[tokio::test]
async fn a_model_that_cannot_think_is_not() {
    let options = summary_options(false, ThinkingLevel::High).await;
    assert_eq!(options.reasoning, None);
    assert_eq!(options.max_tokens, Some(2000));
}
