//! Compacting a session whose model thinks: with thinking at `high` the summary request
//! asks for the same level and the compaction succeeds, leaving the session usable; the
//! same model with thinking off, and a model that cannot think, compact without it. pi
//! 0.73.1 runs these against live models; here the faux model answers (with thinking
//! blocks when it thinks).
//! orig-file: packages/coding-agent/test/compaction-thinking-model.test.ts

use pi::ai::model::ThinkingLevel;
use pi::ai::providers::faux::{faux_message, faux_text, faux_thinking};
use pi::core::session_command::{Outcome, SessionCommand};

use crate::session_harness::Harness;

/// A session on a thinking model at `level` that answered one prompt.
async fn answered(reasoning: bool, level: ThinkingLevel) -> Harness {
    let mut h = Harness::new();
    h.agent.config.model.reasoning = reasoning;
    h.agent.config.thinking = level;
    h.faux.push_message(faux_message(vec![
        faux_thinking("The user wants primes."),
        faux_text("2, 3, 5, 7, 11, 13, 17, 19, 23, 29"),
    ]));
    h.prompt("Write down the first 10 prime numbers.").await;
    h
}

/// Compact by hand; returns the result and the options of the summary request.
async fn compact(h: &mut Harness) -> (pi::compaction::CompactionResult, Option<ThinkingLevel>) {
    h.faux.push_text("## Goal\nList primes.");
    h.faux.push_text("## Original Request\nList primes.");
    let before = h.faux.call_count();
    let command = SessionCommand::Compact {
        instructions: None,
        signal: h.signal.clone(),
    };
    let result = match h.agent.execute(command).await.unwrap() {
        Outcome::Compacted(result) => result,
        other => panic!("{other:?}"),
    };
    let request = &h.faux.requests()[before];
    assert!(request.options.max_tokens.is_some_and(|m| m > 0));
    (result, request.options.reasoning)
}

/// orig: Compaction with thinking models (Antigravity) › should compact successfully with claude-opus-4-5-thinking and thinking level high
#[tokio::test]
async fn a_thinking_model_at_high_compacts() {
    let mut h = answered(true, ThinkingLevel::High).await;
    h.agent.compaction.keep_recent_tokens = 1;
    let (result, reasoning) = compact(&mut h).await;
    assert_eq!(reasoning, Some(ThinkingLevel::High));
    assert!(result.summary.contains("List primes.") && result.tokens_before > 0);
    assert_eq!(h.agent.state.messages.facts(0).role, "compactionSummary");
}

/// orig: Compaction with thinking models (Antigravity) › should compact successfully with claude-sonnet-4-5 (non-thinking) for comparison
#[tokio::test]
async fn a_model_that_cannot_think_compacts_without_thinking() {
    let mut h = answered(false, ThinkingLevel::Off).await;
    h.agent.compaction.keep_recent_tokens = 1;
    let (result, reasoning) = compact(&mut h).await;
    assert_eq!(reasoning, None);
    assert!(!result.summary.is_empty());
}

/// orig: Compaction with thinking models (Anthropic) › should compact successfully with claude-sonnet-4-5 and thinking level high
#[tokio::test]
async fn thinking_off_compacts_without_thinking_and_high_with_it() {
    let mut h = answered(true, ThinkingLevel::Off).await;
    h.agent.compaction.keep_recent_tokens = 1;
    let (_, reasoning) = compact(&mut h).await;
    assert_eq!(reasoning, None, "thinking off: none asked for");
    h.agent.config.thinking = ThinkingLevel::High;
    h.faux.push_text("more");
    h.prompt("And the next ten?").await;
    let (result, reasoning) = compact(&mut h).await;
    assert_eq!(reasoning, Some(ThinkingLevel::High));
    assert!(result.tokens_before > 0);
    assert_eq!(h.agent.state.messages.facts(0).role, "compactionSummary");
}
