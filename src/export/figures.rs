//! The figures in the exported page's header, counted over the whole file as
//! pi 0.73.1's page counts them: messages by kind, tool calls, tokens, cost
//! (the sum of each answer's input, output, cache-read and cache-write cost)
//! and the models that answered, in order of first answer.

use serde_json::{Value, json};

/// The header's figures of `entries` (session entries as JSON).
pub fn figures(entries: &[Value]) -> Value {
    let (mut user, mut assistant, mut tool_results) = (0u64, 0u64, 0u64);
    let (mut custom, mut compactions, mut branch_summaries, mut tool_calls) = (0u64, 0, 0, 0);
    let mut tokens = [0u64; 4];
    let mut cost = 0.0f64;
    let mut models: Vec<String> = Vec::new();
    const PARTS: [&str; 4] = ["input", "output", "cacheRead", "cacheWrite"];
    for entry in entries {
        match entry["type"].as_str() {
            Some("compaction") => compactions += 1,
            Some("branch_summary") => branch_summaries += 1,
            Some("custom_message") => custom += 1,
            Some("message") => {
                let m = &entry["message"];
                match m["role"].as_str() {
                    Some("user") => user += 1,
                    Some("toolResult") => tool_results += 1,
                    Some("assistant") => {
                        assistant += 1;
                        if let Some(model) = m["model"].as_str() {
                            let name = match m["provider"].as_str() {
                                Some(p) if !p.is_empty() => format!("{p}/{model}"),
                                _ => model.to_string(),
                            };
                            if !models.contains(&name) {
                                models.push(name);
                            }
                        }
                        let usage = &m["usage"];
                        for (total, part) in tokens.iter_mut().zip(PARTS) {
                            *total += usage[part].as_u64().unwrap_or(0);
                        }
                        cost += PARTS
                            .iter()
                            .map(|p| usage["cost"][p].as_f64().unwrap_or(0.0))
                            .sum::<f64>();
                        tool_calls += m["content"].as_array().map_or(0, |blocks| {
                            blocks.iter().filter(|b| b["type"] == "toolCall").count()
                        }) as u64;
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    json!({
        "user": user, "assistant": assistant, "toolResult": tool_results, "custom": custom,
        "compactions": compactions, "branchSummaries": branch_summaries, "toolCalls": tool_calls,
        "input": tokens[0], "output": tokens[1], "cacheRead": tokens[2], "cacheWrite": tokens[3],
        "cost": cost, "models": models,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::manager::SessionManager;

    #[test]
    fn the_large_session_has_the_figures_of_pi_0_73_1s_page() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("large.jsonl");
        std::fs::copy(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/conformance/large-session.jsonl"
            ),
            &file,
        )
        .unwrap();
        let session = SessionManager::open(&file).unwrap();
        let entries: Vec<Value> = session
            .entries()
            .iter()
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        let f = figures(&entries);
        assert_eq!(
            (
                &f["user"],
                &f["assistant"],
                &f["toolResult"],
                &f["toolCalls"]
            ),
            (&json!(88), &json!(453), &json!(373), &json!(391))
        );
        assert_eq!(format!("{:.3}", f["cost"].as_f64().unwrap()), "30.330");
        assert_eq!(
            f["models"],
            json!(["openai/gpt-5.1-codex", "anthropic/claude-sonnet-4-5"])
        );
        assert_eq!(f["custom"], 0);
    }
}
