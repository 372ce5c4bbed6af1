//! The figures in the exported page's header, counted over the whole file as
//! pi 0.73.1's page counts them: messages by kind, tool calls, tokens, cost
//! (the sum of each answer's input, output, cache-read and cache-write cost)
//! and the models that answered, in order of first answer.

use serde_json::{Value, json};

const PARTS: [&str; 4] = ["input", "output", "cacheRead", "cacheWrite"];

/// The header's figures, counted one entry (as JSON) at a time.
#[derive(Debug, Default)]
pub struct Figures {
    user: u64,
    assistant: u64,
    tool_results: u64,
    custom: u64,
    compactions: u64,
    branch_summaries: u64,
    tool_calls: u64,
    tokens: [u64; 4],
    cost: f64,
    models: Vec<String>,
}

impl Figures {
    /// Count `entry` (a session entry as JSON).
    pub fn add(&mut self, entry: &Value) {
        match entry["type"].as_str() {
            Some("compaction") => self.compactions += 1,
            Some("branch_summary") => self.branch_summaries += 1,
            Some("custom_message") => self.custom += 1,
            Some("message") => self.add_message(&entry["message"]),
            _ => {}
        }
    }

    fn add_message(&mut self, m: &Value) {
        match m["role"].as_str() {
            Some("user") => self.user += 1,
            Some("toolResult") => self.tool_results += 1,
            Some("assistant") => {
                self.assistant += 1;
                if let Some(model) = m["model"].as_str() {
                    let name = match m["provider"].as_str() {
                        Some(p) if !p.is_empty() => format!("{p}/{model}"),
                        _ => model.to_string(),
                    };
                    if !self.models.contains(&name) {
                        self.models.push(name);
                    }
                }
                let usage = &m["usage"];
                for (total, part) in self.tokens.iter_mut().zip(PARTS) {
                    *total += usage[part].as_u64().unwrap_or(0);
                }
                self.cost += PARTS
                    .iter()
                    .map(|p| usage["cost"][p].as_f64().unwrap_or(0.0))
                    .sum::<f64>();
                self.tool_calls += m["content"].as_array().map_or(0, |blocks| {
                    blocks.iter().filter(|b| b["type"] == "toolCall").count()
                }) as u64;
            }
            _ => {}
        }
    }

    /// The figures as the page reads them.
    pub fn to_json(&self) -> Value {
        json!({
            "user": self.user, "assistant": self.assistant, "toolResult": self.tool_results,
            "custom": self.custom, "compactions": self.compactions,
            "branchSummaries": self.branch_summaries, "toolCalls": self.tool_calls,
            "input": self.tokens[0], "output": self.tokens[1], "cacheRead": self.tokens[2],
            "cacheWrite": self.tokens[3], "cost": self.cost, "models": self.models,
        })
    }
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
        let mut figures = Figures::default();
        for entry in session.entries().iter() {
            figures.add(&serde_json::to_value(entry).unwrap());
        }
        let f = figures.to_json();
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
