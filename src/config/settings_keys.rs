//! Typed accessors for the settings keys the core uses, with pi's defaults.

use std::path::PathBuf;

use serde_json::Value;

use super::paths::expand_tilde;
use super::settings::Settings;
use crate::protocol::ThinkingLevel;

pub use crate::protocol::QueueMode;

/// Agent-level retry on transient errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetrySettings {
    /// `retry.enabled` (default true).
    pub enabled: bool,
    /// `retry.maxRetries` (default 3).
    pub max_retries: u32,
    /// `retry.baseDelayMs` (default 2000; backoff doubles per attempt).
    pub base_delay_ms: u64,
    /// `retry.totalTimeoutMs` (default 110000; 0 = no bound): how long one request may
    /// take over all its attempts before pi stops retrying it.
    pub total_timeout_ms: u64,
}

/// `retry.totalTimeoutMs` unless configured: a provider that never answers is reported
/// within two minutes.
pub const DEFAULT_TOTAL_TIMEOUT_MS: u64 = 110_000;

/// Provider/SDK-level request settings (`retry.provider.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderRetrySettings {
    /// Request timeout in ms (provider default when `None`).
    pub timeout_ms: Option<u64>,
    /// Provider retry attempts (provider default when `None`).
    pub max_retries: Option<u32>,
    /// Longest server-requested delay to wait for (default 60000; 0 = no cap).
    pub max_retry_delay_ms: u64,
    /// How long a streaming reply may send nothing before it fails and is
    /// retried (`idleTimeoutMs`, default 60000; 0 = wait forever).
    pub idle_timeout_ms: u64,
    /// How long a request may wait for its response headers and first bytes before it
    /// fails and is retried (`firstByteTimeoutMs`, default 60000; 0 = wait forever).
    pub first_byte_timeout_ms: u64,
}

/// Automatic context compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionSettings {
    /// `compaction.enabled` (default true).
    pub enabled: bool,
    /// `compaction.reserveTokens` (default 16384).
    pub reserve_tokens: u64,
    /// `compaction.keepRecentTokens` (default 20000).
    pub keep_recent_tokens: u64,
}

/// Limits on one run (`agent.*`): a number as set, `None` when the key is absent (the
/// caller applies the mode's default); 0 means no limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AgentLimitSettings {
    /// `agent.repeatedFailureLimit`: identical failures in a row that stop a run.
    pub repeated_failure_limit: Option<u32>,
    /// `agent.maxTurns`: model replies in one run.
    pub max_turns: Option<u32>,
    /// `agent.maxRequests`: model requests in one run, retries included.
    pub max_requests: Option<u32>,
}

/// File checkpoints (`checkpoints.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckpointSettings {
    /// `checkpoints.enabled` (default true).
    pub enabled: bool,
    /// `checkpoints.maxSessionBytes` (default 512 MiB).
    pub max_session_bytes: u64,
    /// `checkpoints.maxFolderBytes` (default 512 MiB).
    pub max_folder_bytes: u64,
    /// `checkpoints.maxFileBytes`: larger files stay out of snapshots (default 10 MiB).
    pub max_file_bytes: u64,
}

impl Default for CheckpointSettings {
    fn default() -> Self {
        CheckpointSettings {
            enabled: true,
            max_session_bytes: 512 << 20,
            max_folder_bytes: 512 << 20,
            max_file_bytes: 10 << 20,
        }
    }
}

/// Branch summarisation on `/tree` navigation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BranchSummarySettings {
    /// `branchSummary.reserveTokens` (default 16384).
    pub reserve_tokens: u64,
    /// `branchSummary.skipPrompt` (default false).
    pub skip_prompt: bool,
}

impl Settings {
    fn str_key(&self, key: &str) -> Option<&str> {
        self.get(key)?.as_str()
    }

    fn bool_key(&self, key: &str, default: bool) -> bool {
        self.get(key).and_then(Value::as_bool).unwrap_or(default)
    }

    fn nested_bool(&self, section: &str, key: &str, default: bool) -> bool {
        self.get_nested(section, key)
            .and_then(Value::as_bool)
            .unwrap_or(default)
    }

    fn nested_u64(&self, section: &str, key: &str) -> Option<u64> {
        as_u64(self.get_nested(section, key)?)
    }

    fn string_list(&self, key: &str) -> Option<Vec<String>> {
        let items = self.get(key)?.as_array()?;
        Some(
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        )
    }

    /// `defaultProvider`.
    pub fn default_provider(&self) -> Option<&str> {
        self.str_key("defaultProvider")
    }

    /// `defaultModel` (a model id).
    pub fn default_model(&self) -> Option<&str> {
        self.str_key("defaultModel")
    }

    /// `defaultThinkingLevel`, when set to a valid level.
    pub fn default_thinking_level(&self) -> Option<ThinkingLevel> {
        self.str_key("defaultThinkingLevel")
            .and_then(ThinkingLevel::parse)
    }

    /// `enabledModels` patterns (same syntax as `--models`).
    pub fn enabled_models(&self) -> Option<Vec<String>> {
        self.string_list("enabledModels")
    }

    /// `steeringMode` (default one-at-a-time).
    pub fn steering_mode(&self) -> QueueMode {
        self.str_key("steeringMode")
            .and_then(QueueMode::parse)
            .unwrap_or_default()
    }

    /// `followUpMode` (default one-at-a-time).
    pub fn follow_up_mode(&self) -> QueueMode {
        self.str_key("followUpMode")
            .and_then(QueueMode::parse)
            .unwrap_or_default()
    }

    /// `transport` (default `auto`).
    pub fn transport(&self) -> &str {
        self.str_key("transport").unwrap_or("auto")
    }

    /// `retry.*` with defaults.
    pub fn retry(&self) -> RetrySettings {
        RetrySettings {
            enabled: self.nested_bool("retry", "enabled", true),
            max_retries: self
                .nested_u64("retry", "maxRetries")
                .map_or(3, |n| n.min(u32::MAX as u64) as u32),
            base_delay_ms: self.nested_u64("retry", "baseDelayMs").unwrap_or(2000),
            total_timeout_ms: self
                .nested_u64("retry", "totalTimeoutMs")
                .unwrap_or(DEFAULT_TOTAL_TIMEOUT_MS),
        }
    }

    /// `retry.provider.*` with defaults.
    pub fn provider_retry(&self) -> ProviderRetrySettings {
        let provider = self.get_nested("retry", "provider");
        let field = |k: &str| provider.and_then(|p| p.get(k)).and_then(as_u64);
        ProviderRetrySettings {
            timeout_ms: field("timeoutMs"),
            max_retries: field("maxRetries").map(|n| n.min(u32::MAX as u64) as u32),
            max_retry_delay_ms: field("maxRetryDelayMs").unwrap_or(60_000),
            idle_timeout_ms: field("idleTimeoutMs").unwrap_or(60_000),
            first_byte_timeout_ms: field("firstByteTimeoutMs").unwrap_or(60_000),
        }
    }

    /// `compaction.*` with defaults.
    pub fn compaction(&self) -> CompactionSettings {
        CompactionSettings {
            enabled: self.nested_bool("compaction", "enabled", true),
            reserve_tokens: self
                .nested_u64("compaction", "reserveTokens")
                .unwrap_or(16_384),
            keep_recent_tokens: self
                .nested_u64("compaction", "keepRecentTokens")
                .unwrap_or(20_000),
        }
    }

    /// `checkpoints.*` with defaults.
    pub fn checkpoints(&self) -> CheckpointSettings {
        let d = CheckpointSettings::default();
        let key = |k: &str, default: u64| self.nested_u64("checkpoints", k).unwrap_or(default);
        CheckpointSettings {
            enabled: self.nested_bool("checkpoints", "enabled", d.enabled),
            max_session_bytes: key("maxSessionBytes", d.max_session_bytes),
            max_folder_bytes: key("maxFolderBytes", d.max_folder_bytes),
            max_file_bytes: key("maxFileBytes", d.max_file_bytes),
        }
    }

    /// `agent.*`: the run limits that are set.
    pub fn agent_limits(&self) -> AgentLimitSettings {
        let field = |k: &str| {
            self.nested_u64("agent", k)
                .map(|n| n.min(u32::MAX as u64) as u32)
        };
        AgentLimitSettings {
            repeated_failure_limit: field("repeatedFailureLimit"),
            max_turns: field("maxTurns"),
            max_requests: field("maxRequests"),
        }
    }

    /// `branchSummary.*` with defaults.
    pub fn branch_summary(&self) -> BranchSummarySettings {
        BranchSummarySettings {
            reserve_tokens: self
                .nested_u64("branchSummary", "reserveTokens")
                .unwrap_or(16_384),
            skip_prompt: self.nested_bool("branchSummary", "skipPrompt", false),
        }
    }

    /// `thinkingBudgets` as `(level, tokens)` pairs.
    pub fn thinking_budgets(&self) -> Vec<(ThinkingLevel, u64)> {
        let Some(Value::Object(map)) = self.get("thinkingBudgets") else {
            return Vec::new();
        };
        map.iter()
            .filter_map(|(k, v)| Some((ThinkingLevel::parse(k)?, as_u64(v)?)))
            .collect()
    }

    /// `shellPath`.
    pub fn shell_path(&self) -> Option<&str> {
        self.str_key("shellPath")
    }

    /// `shellCommandPrefix`.
    pub fn shell_command_prefix(&self) -> Option<&str> {
        self.str_key("shellCommandPrefix")
    }

    /// `enableUpdateCheck` (default false): look for a newer pi at start-up, at most daily.
    pub fn update_check_enabled(&self) -> bool {
        self.bool_key("enableUpdateCheck", false)
    }

    /// `quietStartup` (default false).
    pub fn quiet_startup(&self) -> bool {
        self.bool_key("quietStartup", false)
    }

    /// `alternateScreen` (default false): the interactive UI takes the
    /// terminal's alternate screen instead of drawing on the normal screen
    /// with scrollback.
    pub fn alternate_screen(&self) -> bool {
        self.bool_key("alternateScreen", false)
    }

    /// `theme` (`None` = pick from the terminal background).
    pub fn theme(&self) -> Option<&str> {
        self.str_key("theme")
    }

    /// `hideThinkingBlock` (default false).
    pub fn hide_thinking_block(&self) -> bool {
        self.bool_key("hideThinkingBlock", false)
    }

    /// `collapseChangelog` (default false).
    pub fn collapse_changelog(&self) -> bool {
        self.bool_key("collapseChangelog", false)
    }

    /// `enableSkillCommands` (default true).
    pub fn enable_skill_commands(&self) -> bool {
        self.bool_key("enableSkillCommands", true)
    }

    /// `images.autoResize` (default true).
    pub fn image_auto_resize(&self) -> bool {
        self.nested_bool("images", "autoResize", true)
    }

    /// `images.blockImages` (default false).
    pub fn block_images(&self) -> bool {
        self.nested_bool("images", "blockImages", false)
    }

    /// `terminal.showImages` (default true).
    pub fn show_images(&self) -> bool {
        self.nested_bool("terminal", "showImages", true)
    }

    /// `terminal.imageWidthCells` (default 60, at least 1): the width inline
    /// images are drawn at, in terminal cells.
    pub fn image_width_cells(&self) -> u16 {
        self.get_nested("terminal", "imageWidthCells")
            .and_then(Value::as_f64)
            .filter(|w| w.is_finite())
            .map_or(60, |w| w.floor().clamp(1.0, u16::MAX as f64) as u16)
    }

    /// `terminal.clearOnShrink` (default false; unset, `PI_CLEAR_ON_SHRINK=1`
    /// turns it on): when the UI's rows shrink, redraw the whole screen so no
    /// empty rows are left below it.
    pub fn clear_on_shrink(&self) -> bool {
        match self
            .get_nested("terminal", "clearOnShrink")
            .and_then(Value::as_bool)
        {
            Some(on) => on,
            None => std::env::var("PI_CLEAR_ON_SHRINK").is_ok_and(|v| v == "1"),
        }
    }

    /// `showHardwareCursor` (default false; unset, `PI_HARDWARE_CURSOR=1`
    /// turns it on): show the terminal's own cursor at the editor's caret.
    pub fn show_hardware_cursor(&self) -> bool {
        match self.get("showHardwareCursor").and_then(Value::as_bool) {
            Some(on) => on,
            None => std::env::var("PI_HARDWARE_CURSOR").is_ok_and(|v| v == "1"),
        }
    }

    /// `sessionDir` with `~` expanded (relative paths are left relative).
    pub fn session_dir(&self) -> Option<PathBuf> {
        self.str_key("sessionDir")
            .filter(|s| !s.is_empty())
            .map(expand_tilde)
    }

    /// `doubleEscapeAction`: `tree` (default), `fork`, `rewind` or `none`.
    pub fn double_escape_action(&self) -> &str {
        self.str_key("doubleEscapeAction").unwrap_or("tree")
    }

    /// `treeFilterMode` (invalid or missing → `default`).
    pub fn tree_filter_mode(&self) -> &str {
        match self.str_key("treeFilterMode") {
            Some(m @ ("default" | "no-tools" | "user-only" | "labeled-only" | "all")) => m,
            _ => "default",
        }
    }

    /// `editorPaddingX` (default 0).
    pub fn editor_padding_x(&self) -> u64 {
        self.get("editorPaddingX").and_then(as_u64).unwrap_or(0)
    }

    /// `autocompleteMaxVisible` (default 5).
    pub fn autocomplete_max_visible(&self) -> u64 {
        self.get("autocompleteMaxVisible")
            .and_then(as_u64)
            .unwrap_or(5)
    }

    /// `terminal.showTerminalProgress` (default false).
    pub fn show_terminal_progress(&self) -> bool {
        self.nested_bool("terminal", "showTerminalProgress", false)
    }

    /// `markdown.codeBlockIndent` (default two spaces).
    pub fn code_block_indent(&self) -> &str {
        self.get_nested("markdown", "codeBlockIndent")
            .and_then(Value::as_str)
            .unwrap_or("  ")
    }

    /// `extensions` entries of both files (project first), each relative path resolved
    /// against the folder of the settings file that names it.
    pub fn extension_paths(&self) -> Vec<String> {
        self.listed_entries("extensions")
            .into_iter()
            .map(|e| e.entry)
            .collect()
    }

    /// `skills` entries, resolved like [`Self::extension_paths`].
    pub fn skill_paths(&self) -> Vec<String> {
        self.listed_entries("skills")
            .into_iter()
            .map(|e| e.entry)
            .collect()
    }

    /// `"extensions.memoryLimitMb"` (a top-level key with a dot; default 256):
    /// the most memory one Lua VM may hold.
    pub fn extension_memory_limit_mb(&self) -> Option<u64> {
        self.get("extensions.memoryLimitMb")
            .and_then(as_u64)
            .filter(|&mb| mb > 0)
    }

    /// `"extensions.startupTimeoutSeconds"` (default 10): how long one extension's
    /// `session_start` handler may take before pi goes on without it.
    pub fn extension_startup_limit(&self) -> Option<std::time::Duration> {
        self.get("extensions.startupTimeoutSeconds")
            .and_then(Value::as_f64)
            .filter(|s| *s > 0.0 && s.is_finite())
            .map(|s| std::time::Duration::from_secs_f64(s.min(86_400.0)))
    }

    /// `"extensions.slowHandlerMs"` (default 200): an extension handler slower than this
    /// is named once in the transcript.
    pub fn extension_slow_handler_ms(&self) -> Option<u64> {
        self.get("extensions.slowHandlerMs")
            .and_then(as_u64)
            .filter(|&ms| ms > 0)
    }

    /// `"tools.owners"` (a top-level key with a dot): tool name → the extension whose
    /// registration of that tool is used when several register it.
    pub fn tool_owners(&self) -> Option<&Value> {
        self.get("tools.owners").filter(|v| v.is_object())
    }

    /// `"tools.wrapOrder"`: tool name → extension names, outermost `pi.wrapTool` wrapper
    /// first (extensions not named follow in load order).
    pub fn tool_wrap_order(&self) -> Option<&Value> {
        self.get("tools.wrapOrder").filter(|v| v.is_object())
    }

    /// `prompts` entries, resolved like [`Self::extension_paths`].
    pub fn prompt_paths(&self) -> Vec<String> {
        self.listed_entries("prompts")
            .into_iter()
            .map(|e| e.entry)
            .collect()
    }

    /// `themes` entries, resolved like [`Self::extension_paths`].
    pub fn theme_paths(&self) -> Vec<String> {
        self.listed_entries("themes")
            .into_iter()
            .map(|e| e.entry)
            .collect()
    }

    /// The entries of the resource array `key` in the project file, then the global one.
    /// A relative path (or `!pattern`) is made absolute against the folder holding the
    /// settings file that names it: `<project>/.pi` or the agent folder.
    pub fn listed_entries(&self, key: &str) -> Vec<ListedEntry> {
        let mut out = Vec::new();
        for (map, file, project) in [
            (self.project(), self.project_path(), true),
            (self.global(), self.global_path(), false),
        ] {
            let Some(items) = map.get(key).and_then(Value::as_array) else {
                continue;
            };
            let base = file.and_then(std::path::Path::parent);
            for raw in items.iter().filter_map(Value::as_str) {
                out.push(ListedEntry {
                    entry: resolve_entry(raw, base),
                    project,
                    base_dir: base.map(std::path::Path::to_path_buf),
                });
            }
        }
        out
    }
}

/// One entry of a settings resource array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedEntry {
    /// The entry, absolute when its settings file is known (a leading `!` kept).
    pub entry: String,
    /// Named by the project's settings (else the global ones).
    pub project: bool,
    /// The folder of the settings file naming it.
    pub base_dir: Option<std::path::PathBuf>,
}

fn resolve_entry(raw: &str, base: Option<&std::path::Path>) -> String {
    // `!glob`, `+path` and `-path` keep their mark in front of the resolved path.
    let (mark, path) = match raw.chars().next() {
        Some(c @ ('!' | '+' | '-')) => (c.to_string(), &raw[1..]),
        _ => (String::new(), raw),
    };
    let Some(base) = base else {
        return raw.to_string();
    };
    if path.starts_with('~') || std::path::Path::new(path).is_absolute() {
        return raw.to_string();
    }
    let path = path.strip_prefix("./").unwrap_or(path);
    format!("{mark}{}", base.join(path).display())
}

/// A non-negative integer from a JSON number (fractions truncated).
fn as_u64(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| f.is_finite() && *f >= 0.0)
            .map(|f| f as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_when_empty() {
        let s = Settings::from_values(json!({}), json!({}));
        assert_eq!(
            s.retry(),
            RetrySettings {
                enabled: true,
                max_retries: 3,
                base_delay_ms: 2000,
                total_timeout_ms: 110_000,
            }
        );
        assert_eq!(
            s.compaction(),
            CompactionSettings {
                enabled: true,
                reserve_tokens: 16384,
                keep_recent_tokens: 20000
            }
        );
        assert_eq!(s.provider_retry().max_retry_delay_ms, 60_000);
        assert_eq!(s.provider_retry().first_byte_timeout_ms, 60_000);
        assert_eq!(s.steering_mode(), QueueMode::OneAtATime);
        assert!(s.image_auto_resize());
        assert!(!s.block_images());
        assert_eq!(s.default_thinking_level(), None);
        assert_eq!(s.transport(), "auto");
    }

    #[test]
    fn typed_values_are_read() {
        let s = Settings::from_values(
            json!({"defaultThinkingLevel": "high", "steeringMode": "all",
                   "retry": {"maxRetries": 5}, "images": {"blockImages": true},
                   "agent": {"maxTurns": 7, "repeatedFailureLimit": 0},
                   "thinkingBudgets": {"low": 100, "bogus": 1}, "treeFilterMode": "nope"}),
            json!({"retry": {"enabled": false}}),
        );
        assert_eq!(s.default_thinking_level(), Some(ThinkingLevel::High));
        assert_eq!(s.steering_mode(), QueueMode::All);
        assert_eq!(s.retry().max_retries, 5);
        let limits = AgentLimitSettings {
            repeated_failure_limit: Some(0),
            max_turns: Some(7),
            max_requests: None,
        };
        assert_eq!(s.agent_limits(), limits);
        assert!(!s.retry().enabled);
        assert!(s.block_images());
        assert_eq!(s.thinking_budgets(), vec![(ThinkingLevel::Low, 100)]);
        assert_eq!(s.tree_filter_mode(), "default");
    }
}
