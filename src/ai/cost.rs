//! Dollar cost of a reply from its token usage and the model's prices.

use crate::ai::model::Model;
use crate::ai::types::Usage;

/// Fill `usage.cost` from `model.cost` (dollars per million tokens).
pub fn apply_cost(model: &Model, usage: &mut Usage) {
    let per_token = |price: f64, tokens: u64| price / 1_000_000.0 * tokens as f64;
    let cost = &mut usage.cost;
    cost.input = per_token(model.cost.input, usage.input);
    cost.output = per_token(model.cost.output, usage.output);
    cost.cache_read = per_token(model.cost.cache_read, usage.cache_read);
    cost.cache_write = per_token(model.cost.cache_write, usage.cache_write);
    cost.total = cost.input + cost.output + cost.cache_read + cost.cache_write;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_each_category_per_million_tokens() {
        let model: Model = serde_json::from_value(serde_json::json!({
            "id": "m", "name": "m", "api": "x", "provider": "p", "baseUrl": "http://x",
            "cost": {"input": 3.0, "output": 15.0, "cacheRead": 0.3, "cacheWrite": 3.75}
        }))
        .unwrap();
        let mut usage = Usage {
            input: 1_000_000,
            output: 2_000,
            cache_read: 10_000,
            cache_write: 0,
            ..Usage::default()
        };
        apply_cost(&model, &mut usage);
        assert_eq!(usage.cost.input, 3.0);
        assert!((usage.cost.output - 0.03).abs() < 1e-12);
        assert!((usage.cost.cache_read - 0.003).abs() < 1e-12);
        assert!((usage.cost.total - 3.033).abs() < 1e-12);
    }
}
