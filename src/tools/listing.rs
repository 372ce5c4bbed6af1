//! Final formatting shared by `grep`, `find` and `ls`: byte truncation and
//! the bracketed notice line with matching `details`.

use serde_json::{Map, Value, json};

use crate::agent::tool::ToolOutput;
use crate::ai::types::ContentBlock;

use super::truncate::{
    DEFAULT_MAX_BYTES, GREP_MAX_LINE_LENGTH, TruncationLimits, format_size, truncate_head,
};

/// Facts that produce notices.
#[derive(Debug, Clone, Default)]
pub struct ListingNotices {
    /// The result-count limit was reached: `(limit, details key, notice text)`.
    pub limit_reached: Option<(usize, &'static str, String)>,
    /// Some lines were shortened (grep only).
    pub lines_truncated: bool,
}

/// Truncate `raw` to the byte limit and append `[notice. notice]` when
/// anything was cut; details hold the limit, truncation and line facts.
pub fn finish_listing(raw: &str, facts: ListingNotices) -> ToolOutput {
    let truncation = truncate_head(raw, TruncationLimits::bytes_only());
    let mut text = truncation.content.clone();
    let mut details = Map::new();
    let mut notices = Vec::new();
    if let Some((limit, key, notice)) = facts.limit_reached {
        notices.push(notice);
        details.insert(key.to_string(), json!(limit));
    }
    if truncation.truncated {
        notices.push(format!("{} limit reached", format_size(DEFAULT_MAX_BYTES)));
        details.insert("truncation".into(), json!(truncation));
    }
    if facts.lines_truncated {
        notices.push(format!(
            "Some lines truncated to {GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines"
        ));
        details.insert("linesTruncated".into(), Value::Bool(true));
    }
    if !notices.is_empty() {
        text.push_str(&format!("\n\n[{}]", notices.join(". ")));
    }
    ToolOutput {
        content: vec![ContentBlock::text(text)],
        details: (!details.is_empty()).then_some(Value::Object(details)),
        terminate: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_listing_has_no_details() {
        let out = finish_listing("a\nb", ListingNotices::default());
        assert_eq!(out.joined_text(), "a\nb");
        assert!(out.details.is_none());
    }

    #[test]
    fn notices_are_joined_in_order() {
        let raw = "x".repeat(DEFAULT_MAX_BYTES) + "\ny";
        let facts = ListingNotices {
            limit_reached: Some((5, "resultLimitReached", "5 results limit reached".into())),
            lines_truncated: true,
        };
        let out = finish_listing(&raw, facts);
        let text = out.joined_text();
        assert!(text.ends_with(
            "\n\n[5 results limit reached. 50.0KB limit reached. Some lines truncated to 500 chars. Use read tool to see full lines]"
        ));
        let details = out.details.unwrap();
        assert_eq!(details["resultLimitReached"], 5);
        assert_eq!(details["truncation"]["truncated"], true);
        assert_eq!(details["linesTruncated"], true);
    }
}
