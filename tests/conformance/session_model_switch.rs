//! Switching between a model that thinks and one that cannot keeps the thinking level the
//! user chose: off on the model without thinking, back on the thinking model, whether the
//! switch is by name or by cycling, each change recorded in the session.
//! orig-file: packages/coding-agent/test/agent-session-model-switch-thinking.test.ts

use pi::ai::model::{Model, ThinkingLevel};
use pi::core::session_command::{ModelSource, SessionCommand};
use pi::session::entries::SessionEntry;

use crate::session_harness::Harness;

async fn switch(h: &mut Harness, model: &Model, source: ModelSource) {
    h.agent
        .execute(SessionCommand::SetModel {
            model: Box::new(model.clone()),
            source,
        })
        .await
        .unwrap();
}

/// orig: AgentSession model switching › preserves the saved thinking preference through non-reasoning models
#[tokio::test]
async fn the_thinking_preference_survives_a_model_without_thinking() {
    let mut h = Harness::new();
    let plain = h.faux.model();
    let mut reasoning = h.faux.model();
    reasoning.id = "faux-reasoning".into();
    reasoning.reasoning = true;
    switch(&mut h, &reasoning, ModelSource::Set).await;
    h.agent
        .execute(SessionCommand::SetThinking(ThinkingLevel::High))
        .await
        .unwrap();
    h.agent.default_thinking = Some(ThinkingLevel::High);
    let recorded_before = levels(&h).len();

    switch(&mut h, &plain, ModelSource::Set).await;
    assert_eq!(h.agent.config.thinking, ThinkingLevel::Off);
    assert_eq!(h.agent.default_thinking, Some(ThinkingLevel::High));
    switch(&mut h, &reasoning, ModelSource::Set).await;
    assert_eq!(h.agent.config.thinking, ThinkingLevel::High);
    switch(&mut h, &plain, ModelSource::Cycle).await;
    assert_eq!(h.agent.config.thinking, ThinkingLevel::Off);
    switch(&mut h, &reasoning, ModelSource::Cycle).await;
    assert_eq!(h.agent.config.thinking, ThinkingLevel::High);
    assert_eq!(h.agent.default_thinking, Some(ThinkingLevel::High));
    assert_eq!(
        levels(&h)[recorded_before..],
        ["off", "high", "off", "high"]
    );
}

fn levels(h: &Harness) -> Vec<String> {
    h.agent
        .session
        .entries()
        .iter()
        .filter_map(|e| match e {
            SessionEntry::ThinkingLevelChange(t) => Some(t.thinking_level.to_string()),
            _ => None,
        })
        .collect()
}
