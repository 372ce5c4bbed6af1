//! Settings-level choices that cross every layer: reasoning effort and how queued
//! messages are delivered.

use serde::{Deserialize, Serialize};

/// Reasoning effort requested from the model.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "lowercase")]
pub enum ThinkingLevel {
    /// No thinking.
    Off,
    /// Minimal.
    Minimal,
    /// Low.
    Low,
    /// Medium (pi's default).
    #[default]
    Medium,
    /// High.
    High,
    /// Extra high (few models).
    Xhigh,
}

impl ThinkingLevel {
    /// Every level, in increasing order.
    pub const ALL: [ThinkingLevel; 6] = [
        ThinkingLevel::Off,
        ThinkingLevel::Minimal,
        ThinkingLevel::Low,
        ThinkingLevel::Medium,
        ThinkingLevel::High,
        ThinkingLevel::Xhigh,
    ];

    /// The name as written in settings and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ThinkingLevel::Off => "off",
            ThinkingLevel::Minimal => "minimal",
            ThinkingLevel::Low => "low",
            ThinkingLevel::Medium => "medium",
            ThinkingLevel::High => "high",
            ThinkingLevel::Xhigh => "xhigh",
        }
    }

    /// Parse a level name (case-insensitive).
    pub fn parse(s: &str) -> Option<ThinkingLevel> {
        ThinkingLevel::ALL
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

impl std::fmt::Display for ThinkingLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How many queued messages one poll takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QueueMode {
    /// One message per poll (pi's default).
    #[default]
    OneAtATime,
    /// The whole queue at once.
    All,
}

impl QueueMode {
    /// Parse a settings value (`one-at-a-time` or `all`).
    pub fn parse(s: &str) -> Option<QueueMode> {
        match s {
            "one-at-a-time" => Some(QueueMode::OneAtATime),
            "all" => Some(QueueMode::All),
            _ => None,
        }
    }

    /// The settings spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            QueueMode::All => "all",
            QueueMode::OneAtATime => "one-at-a-time",
        }
    }
}
