//! Permission rules: `{"tool": "bash", "pattern": "git push*", "action": "deny"}`, where
//! they come from (user, project, session), and which one decides (the last that matches).

use globset::{Glob, GlobMatcher};

use super::error::BadPattern;
use serde_json::{Value, json};

/// What a rule says about a matching tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Run it without asking.
    Allow,
    /// Ask the user first.
    Ask,
    /// Refuse it.
    Deny,
}

impl Action {
    /// The action's name in settings (`allow`, `ask`, `deny`).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Ask => "ask",
            Action::Deny => "deny",
        }
    }

    /// Parse `allow`, `ask` or `deny`.
    pub fn parse(s: &str) -> Option<Action> {
        match s {
            "allow" => Some(Action::Allow),
            "ask" => Some(Action::Ask),
            "deny" => Some(Action::Deny),
            _ => None,
        }
    }
}

/// Where a rule was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `~/.pi/agent/settings.json`.
    User,
    /// `.pi/settings.json` of the project.
    Project,
    /// An "always" answer in this session.
    Session,
}

impl Scope {
    /// The scope's name (`user`, `project`, `session`).
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Session => "session",
        }
    }
}

/// One rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The tool it is about (`bash`, `write`, … or `*` for any).
    pub tool: String,
    /// A glob over the command (bash) or the path (file tools).
    pub pattern: String,
    /// What it says.
    pub action: Action,
    /// Where it was written.
    pub scope: Scope,
    /// `None`: a pattern that could not be compiled, which matches nothing.
    matcher: Option<GlobMatcher>,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.tool == other.tool
            && self.pattern == other.pattern
            && self.action == other.action
            && self.scope == other.scope
    }
}

impl Rule {
    /// A rule, or why its pattern is not a valid glob.
    pub fn new(
        tool: &str,
        pattern: &str,
        action: Action,
        scope: Scope,
    ) -> Result<Rule, BadPattern> {
        let matcher = Glob::new(pattern)
            .map_err(|e| BadPattern {
                pattern: pattern.to_string(),
                detail: e.kind().to_string(),
            })?
            .compile_matcher();
        Ok(Rule {
            tool: tool.to_string(),
            pattern: pattern.to_string(),
            action,
            scope,
            matcher: Some(matcher),
        })
    }

    /// A rule matching exactly `text` (glob characters in it stand for themselves).
    pub fn literal(tool: &str, text: &str, action: Action, scope: Scope) -> Rule {
        let pattern = globset::escape(text);
        let matcher = Glob::new(&pattern).ok().map(|g| g.compile_matcher());
        Rule {
            tool: tool.to_string(),
            pattern,
            action,
            scope,
            matcher,
        }
    }

    /// Whether it applies to `tool` with this subject (command or path).
    pub fn matches(&self, tool: &str, subject: &str) -> bool {
        (self.tool == "*" || self.tool == tool)
            && self.matcher.as_ref().is_some_and(|m| m.is_match(subject))
    }

    /// Whether its pattern names something rather than matching everything (`*`).
    pub fn is_explicit(&self) -> bool {
        !self.pattern.chars().all(|c| c == '*' || c == '?')
    }

    /// How the rule is named in messages: `bash "git push*" → deny (user)`.
    pub fn label(&self) -> String {
        format!(
            "{} \"{}\" → {} ({})",
            self.tool,
            self.pattern,
            self.action.as_str(),
            self.scope.as_str()
        )
    }

    /// The rule as written in settings.json.
    pub fn to_json(&self) -> Value {
        json!({"tool": self.tool, "pattern": self.pattern, "action": self.action.as_str()})
    }
}

/// Rules read from a `permissions` array; entries that are not rules are skipped with a
/// warning each.
pub fn parse_rules(value: Option<&Value>, scope: Scope) -> (Vec<Rule>, Vec<String>) {
    let mut rules = Vec::new();
    let mut warnings = Vec::new();
    let Some(items) = value.and_then(Value::as_array) else {
        return (rules, warnings);
    };
    for (i, item) in items.iter().enumerate() {
        let tool = item.get("tool").and_then(Value::as_str).unwrap_or("*");
        let pattern = item.get("pattern").and_then(Value::as_str).unwrap_or("*");
        let action = item
            .get("action")
            .and_then(Value::as_str)
            .and_then(Action::parse);
        let Some(action) = action else {
            warnings.push(crate::t!("pi.permissions.bad_action", index = i));
            continue;
        };
        match Rule::new(tool, pattern, action, scope) {
            Ok(rule) => rules.push(rule),
            Err(e) => warnings.push(crate::t!(
                "pi.permissions.rule_at",
                index = i,
                problem = e.to_string()
            )),
        }
    }
    (rules, warnings)
}

/// The last rule of `rules` matching any of `subjects` for `tool`.
pub fn last_match<'a>(rules: &'a [Rule], tool: &str, subjects: &[String]) -> Option<&'a Rule> {
    rules
        .iter()
        .rev()
        .find(|r| subjects.iter().any(|s| r.matches(tool, s)))
}
