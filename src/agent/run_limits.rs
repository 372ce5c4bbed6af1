//! Limits on one run, so that a model stuck in a loop cannot send requests without
//! end: the same tool call failing the same way again and again (the loop guard), a
//! number of turns, and a number of model requests (retries included).
//!
//! The loop counts in [`RunCounters`] and, before each request after the first, asks
//! [`RunCounters::reached`] whether a limit is met; its observer then decides
//! ([`LimitDecision`]) whether the run goes on.

use serde_json::{Value, json};

use crate::ai::types::{ContentBlock, ToolCall, ToolResultMessage};
use crate::t;

/// Stable code of a run stopped by the loop guard.
pub const REPEATED_TOOL_FAILURE: &str = "repeated_tool_failure";
/// Stable code of a run stopped at its turn limit.
pub const MAX_TURNS: &str = "max_turns";
/// Stable code of a run stopped at its request limit.
pub const MAX_REQUESTS: &str = "max_requests";

/// The limits of a run; `None` is no limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunLimits {
    /// The same call failing the same way this many turns in a row stops the run.
    pub repeated_failure: Option<u32>,
    /// Model replies in one run.
    pub max_turns: Option<u32>,
    /// Model requests in one run, retries included.
    pub max_requests: Option<u32>,
}

/// The default number of identical failures in a row that stops a run.
pub const DEFAULT_REPEATED_FAILURE_LIMIT: u32 = 3;
/// The default turn limit of a run nobody watches (print, JSON, RPC, SDK).
pub const DEFAULT_HEADLESS_MAX_TURNS: u32 = 200;

/// Which limit was reached.
#[derive(Debug, Clone, PartialEq)]
pub enum LimitKind {
    /// One call (same tool, same arguments) failed the same way `times` turns in a row.
    RepeatedToolFailure {
        /// The tool's name.
        tool_name: String,
        /// The call's arguments.
        args: Value,
        /// The error text of its result.
        error: String,
        /// Turns in a row it failed.
        times: u32,
    },
    /// The run has had as many turns as it may.
    MaxTurns,
    /// The run has sent as many requests as it may.
    MaxRequests,
}

/// A limit that was reached, with the run's counts.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitReached {
    /// Which limit.
    pub kind: LimitKind,
    /// The limit in force.
    pub limit: u32,
    /// Model replies so far in this run.
    pub turns: u32,
    /// Model requests so far in this run.
    pub requests: u32,
}

/// What happens when a limit is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitDecision {
    /// The run ends.
    Stop,
    /// The run goes on: a repeated call's count starts again; a turn or request limit
    /// grows by its configured amount.
    Continue,
    /// The run goes on with this turn limit (it stops when it is not above the count).
    SetMaxTurns(u32),
    /// The run goes on with this request limit (it stops when it is not above the count).
    SetMaxRequests(u32),
}

/// Why a run was stopped: a stable code and a message for people.
#[derive(Debug, Clone, PartialEq)]
pub struct RunStop {
    /// `repeated_tool_failure`, `max_turns` or `max_requests`.
    pub code: &'static str,
    /// What happened and what to do about it.
    pub message: String,
    /// The limit that was reached and the counts.
    pub reached: LimitReached,
}

/// One call that failed in the last turn, and in how many turns in a row.
#[derive(Debug, Clone)]
struct FailingCall {
    signature: String,
    tool_name: String,
    args: Value,
    error: String,
    times: u32,
}

/// What one run has done so far, and the limits raised during it.
#[derive(Debug, Clone, Default)]
pub struct RunCounters {
    /// Model replies received.
    pub turns: u32,
    /// Model requests sent (retries included).
    pub requests: u32,
    failing: Vec<FailingCall>,
    raised: RunLimits,
    /// Set when a limit stopped the run.
    pub stopped: Option<RunStop>,
}

impl RunCounters {
    /// Note the results of one turn's tool calls: a call failing as it failed in the
    /// previous turn counts one more, any other failure starts at one, and calls that
    /// did not fail this turn are forgotten.
    pub fn record_turn(&mut self, calls: &[ToolCall], results: &[ToolResultMessage]) {
        let mut now: Vec<FailingCall> = Vec::new();
        for (call, result) in calls.iter().zip(results) {
            if !result.is_error {
                continue;
            }
            let error = error_text(&result.content);
            let signature = format!("{}\u{0}{}\u{0}{}", call.name, call.arguments, error);
            if now.iter().any(|f| f.signature == signature) {
                continue;
            }
            let before = self.failing.iter().find(|f| f.signature == signature);
            now.push(FailingCall {
                times: before.map_or(1, |f| f.times + 1),
                signature,
                tool_name: call.name.clone(),
                args: call.arguments.clone(),
                error,
            });
        }
        self.failing = now;
    }

    /// The first limit the run has reached under `limits` (as raised during the run).
    pub fn reached(&self, limits: &RunLimits) -> Option<LimitReached> {
        let limits = self.in_force(limits);
        let at = |kind, limit| LimitReached {
            kind,
            limit,
            turns: self.turns,
            requests: self.requests,
        };
        if let Some(limit) = limits.repeated_failure
            && let Some(f) = self.failing.iter().find(|f| f.times >= limit)
        {
            let kind = LimitKind::RepeatedToolFailure {
                tool_name: f.tool_name.clone(),
                args: f.args.clone(),
                error: f.error.clone(),
                times: f.times,
            };
            return Some(at(kind, limit));
        }
        if let Some(limit) = limits.max_turns
            && self.turns >= limit
        {
            return Some(at(LimitKind::MaxTurns, limit));
        }
        if let Some(limit) = limits.max_requests
            && self.requests >= limit
        {
            return Some(at(LimitKind::MaxRequests, limit));
        }
        None
    }

    /// Carry out `decision` on the limit `reached`; `false` when the run must stop.
    pub fn apply(
        &mut self,
        limits: &RunLimits,
        reached: &LimitReached,
        decision: LimitDecision,
    ) -> bool {
        match decision {
            LimitDecision::Stop => false,
            LimitDecision::SetMaxTurns(n) => {
                self.raised.max_turns = Some(n);
                self.forget_failure(reached);
                n > self.turns
            }
            LimitDecision::SetMaxRequests(n) => {
                self.raised.max_requests = Some(n);
                self.forget_failure(reached);
                n > self.requests
            }
            LimitDecision::Continue => {
                match reached.kind {
                    LimitKind::RepeatedToolFailure { .. } => self.forget_failure(reached),
                    LimitKind::MaxTurns => {
                        let step = limits.max_turns.unwrap_or(reached.limit).max(1);
                        self.raised.max_turns = Some(self.turns + step);
                    }
                    LimitKind::MaxRequests => {
                        let step = limits.max_requests.unwrap_or(reached.limit).max(1);
                        self.raised.max_requests = Some(self.requests + step);
                    }
                }
                true
            }
        }
    }

    fn forget_failure(&mut self, reached: &LimitReached) {
        if let LimitKind::RepeatedToolFailure {
            tool_name,
            args,
            error,
            ..
        } = &reached.kind
        {
            self.failing
                .retain(|f| !(&f.tool_name == tool_name && &f.args == args && &f.error == error));
        }
    }

    fn in_force(&self, limits: &RunLimits) -> RunLimits {
        RunLimits {
            repeated_failure: limits.repeated_failure,
            max_turns: self.raised.max_turns.or(limits.max_turns),
            max_requests: self.raised.max_requests.or(limits.max_requests),
        }
    }
}

/// The text blocks of a result, joined.
fn error_text(content: &[ContentBlock]) -> String {
    content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` on one line (its lines joined by spaces), cut at 200 characters.
fn short(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

impl LimitReached {
    /// The stable code of this limit.
    pub fn code(&self) -> &'static str {
        match self.kind {
            LimitKind::RepeatedToolFailure { .. } => REPEATED_TOOL_FAILURE,
            LimitKind::MaxTurns => MAX_TURNS,
            LimitKind::MaxRequests => MAX_REQUESTS,
        }
    }

    /// The limit as an event payload (camelCase fields), without `type`.
    pub fn payload(&self) -> Value {
        let mut v = json!({
            "reason": self.code(),
            "limit": self.limit,
            "turns": self.turns,
            "requests": self.requests,
        });
        if let LimitKind::RepeatedToolFailure {
            tool_name,
            args,
            error,
            times,
        } = &self.kind
        {
            v["toolName"] = json!(tool_name);
            v["args"] = args.clone();
            v["error"] = json!(error);
            v["times"] = json!(times);
        }
        v
    }

    /// The question the terminal UI asks (continue or stop).
    pub fn question(&self) -> String {
        match &self.kind {
            LimitKind::RepeatedToolFailure {
                tool_name,
                error,
                times,
                ..
            } => t!(
                "pi.limit.ask_repeated_failure",
                tool = tool_name.as_str(),
                times = *times,
                error = short(error)
            ),
            LimitKind::MaxTurns => t!("pi.limit.ask_max_turns", limit = self.limit),
            LimitKind::MaxRequests => t!("pi.limit.ask_max_requests", limit = self.limit),
        }
    }

    /// The run stopped at this limit.
    pub fn stop(&self) -> RunStop {
        let message = match &self.kind {
            LimitKind::RepeatedToolFailure {
                tool_name,
                error,
                times,
                ..
            } => t!(
                "pi.limit.repeated_failure",
                tool = tool_name.as_str(),
                times = *times,
                error = short(error)
            ),
            LimitKind::MaxTurns => t!("pi.limit.max_turns", limit = self.limit),
            LimitKind::MaxRequests => t!("pi.limit.max_requests", limit = self.limit),
        };
        RunStop {
            code: self.code(),
            message,
            reached: self.clone(),
        }
    }
}

#[cfg(test)]
#[path = "run_limits_tests.rs"]
mod tests;
