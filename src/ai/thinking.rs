//! Request-side thinking settings shared by the wire protocols: which level
//! applies, how it maps to provider values, and output-token budgets.

use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::stream::StreamOptions;

/// Default thinking budgets (tokens) of budget-based models, per level.
const BUDGETS: [(ThinkingLevel, u64); 4] = [
    (ThinkingLevel::Minimal, 1024),
    (ThinkingLevel::Low, 2048),
    (ThinkingLevel::Medium, 8192),
    (ThinkingLevel::High, 16384),
];

/// Output tokens always left for the answer when a budget must shrink.
const MIN_OUTPUT_TOKENS: u64 = 1024;

/// The thinking level to request: the option clamped to the model, `None` when off.
pub fn effective_level(model: &Model, options: &StreamOptions) -> Option<ThinkingLevel> {
    let level = model.clamp_thinking(options.reasoning?);
    (level != ThinkingLevel::Off).then_some(level)
}

/// The provider value a model maps `level` to (`thinkingLevelMap`), if any.
pub fn mapped_value(model: &Model, level: ThinkingLevel) -> Option<String> {
    model
        .thinking_level_map
        .as_ref()?
        .get(level.as_str())?
        .clone()
}

/// Output-token cap when the caller set none: the model's limit, at most 32000.
pub fn base_max_tokens(model: &Model, options: &StreamOptions) -> u64 {
    options
        .max_tokens
        .unwrap_or_else(|| model.max_tokens.min(32_000))
}

/// Grow `base_max_tokens` by the thinking budget of `level` (within the
/// model's limit) and return `(max_tokens, budget)`. `xhigh` uses the `high`
/// budget; a budget that would leave no room for output shrinks.
pub fn budget_for(base_max_tokens: u64, model_max_tokens: u64, level: ThinkingLevel) -> (u64, u64) {
    let level = if level == ThinkingLevel::Xhigh {
        ThinkingLevel::High
    } else {
        level
    };
    let mut budget = BUDGETS
        .iter()
        .find(|(l, _)| *l == level)
        .map_or(0, |(_, b)| *b);
    let max_tokens = (base_max_tokens + budget).min(model_max_tokens);
    if max_tokens <= budget {
        budget = max_tokens.saturating_sub(MIN_OUTPUT_TOKENS);
    }
    (max_tokens, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_grow_max_tokens_within_model_limit() {
        assert_eq!(
            budget_for(32_000, 64_000, ThinkingLevel::Medium),
            (40_192, 8192)
        );
        assert_eq!(
            budget_for(32_000, 32_000, ThinkingLevel::High),
            (32_000, 16384)
        );
        assert_eq!(budget_for(4096, 8000, ThinkingLevel::Xhigh), (8000, 6976));
        assert_eq!(budget_for(1000, 1000, ThinkingLevel::Minimal), (1000, 0));
    }

    #[test]
    fn level_is_clamped_and_off_means_none() {
        let model: Model = serde_json::from_value(serde_json::json!({
            "id": "m", "name": "m", "api": "x", "provider": "p", "baseUrl": "http://x",
            "reasoning": true, "thinkingLevelMap": {"high": "max", "minimal": null}
        }))
        .unwrap();
        let opts = |l| StreamOptions {
            reasoning: Some(l),
            ..Default::default()
        };
        assert_eq!(effective_level(&model, &opts(ThinkingLevel::Off)), None);
        assert_eq!(
            effective_level(&model, &opts(ThinkingLevel::Minimal)),
            Some(ThinkingLevel::Low)
        );
        assert_eq!(effective_level(&model, &StreamOptions::default()), None);
        assert_eq!(
            mapped_value(&model, ThinkingLevel::High).as_deref(),
            Some("max")
        );
        assert_eq!(mapped_value(&model, ThinkingLevel::Low), None);
    }
}
