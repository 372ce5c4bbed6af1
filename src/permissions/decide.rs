//! The policy: rules of every scope, the danger floor and `--yolo` together decide whether
//! one tool call runs, is asked about, or is refused — and name what decided.

use std::path::PathBuf;

use serde_json::Value;

use super::bash_words::{SimpleCommand, split};
use super::floor::{Floor, Place, bash_floor, normalize, path_floor};
use super::rules::{Action, Rule, Scope, last_match};

/// The tools whose rules match a path rather than a command.
pub const FILE_TOOLS: [&str; 6] = ["read", "write", "edit", "grep", "find", "ls"];

/// What decided a call.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    /// A rule matched.
    Rule(Rule),
    /// The danger floor (the command that hit it).
    Floor(Floor, String),
    /// The bash command could not be split into the commands it runs.
    Unparsed(crate::permissions::error::SplitError),
    /// The command's name is only known when it runs.
    Dynamic(String),
    /// A `permission` handler of an extension (its name and reason).
    Extension(String, String),
}

impl Reason {
    /// A short name for the rule: `bash "git push*" → deny (user)`, `floor:sudo`, ….
    pub fn label(&self) -> String {
        match self {
            Reason::Rule(r) => r.label(),
            Reason::Floor(f, _) => f.id().to_string(),
            Reason::Unparsed(_) => "unparsed-command".to_string(),
            Reason::Dynamic(_) => "computed-command-name".to_string(),
            Reason::Extension(_, why) => {
                crate::t!("pi.permissions.extension_rule", reason = why.clone())
            }
        }
    }
}

/// The decision about one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Run, ask or refuse.
    pub action: Action,
    /// What decided (none: nothing had an opinion and the call runs).
    pub reason: Option<Reason>,
    /// The subject the decision was about: the command part or the path.
    pub subject: String,
    /// Session rules an "always" answer adds: one per command that was asked about.
    pub remember: Vec<Rule>,
}

impl Verdict {
    fn allow(subject: String) -> Verdict {
        Verdict {
            action: Action::Allow,
            reason: None,
            subject,
            remember: Vec::new(),
        }
    }
}

/// Every rule and switch that decides tool calls.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Rules from `~/.pi/agent/settings.json`.
    pub user: Vec<Rule>,
    /// Rules from the project's `.pi/settings.json`.
    pub project: Vec<Rule>,
    /// Whether the project is trusted (else its rules may only tighten).
    pub project_trusted: bool,
    /// "Always allow" answers of this session.
    pub session: Vec<Rule>,
    /// `--yolo`: no prompts, except the danger floor's.
    pub yolo: bool,
    /// A sandbox mode other than `full` was chosen.
    pub sandboxed: bool,
    /// The workspace.
    pub cwd: PathBuf,
    /// The home folder.
    pub home: Option<PathBuf>,
}

impl Policy {
    /// Whether the user opted in to the policy (a rule, a sandbox mode, `--yolo`); without
    /// it every call runs as before, with no floor, only the session's own answers.
    pub fn active(&self) -> bool {
        self.yolo || self.sandboxed || !self.user.is_empty() || !self.project.is_empty()
    }

    /// Every rule in the order it applies, each with its scope.
    pub fn all_rules(&self) -> Vec<&Rule> {
        self.user
            .iter()
            .chain(&self.project)
            .chain(&self.session)
            .collect()
    }

    /// Decide a call of `tool` with `args`.
    pub fn decide(&self, tool: &str, args: &Value) -> Verdict {
        if tool == "bash" {
            let command = args.get("command").and_then(Value::as_str).unwrap_or("");
            return self.bash(command);
        }
        if FILE_TOOLS.contains(&tool) {
            let path = args
                .get("path")
                .or_else(|| args.get("file_path"))
                .and_then(Value::as_str)
                .unwrap_or(".");
            return self.path(tool, path);
        }
        let subject = serde_json::to_string(args).unwrap_or_default();
        let rule = self.rule_for(tool, std::slice::from_ref(&subject));
        self.finish(tool, subject.clone(), rule, None, &subject)
    }

    fn place(&self) -> Place<'_> {
        Place {
            cwd: &self.cwd,
            home: self.home.as_deref(),
        }
    }

    /// What a command pi cannot judge gets: a question, or with `--yolo` a pass.
    fn ask_unless_yolo(&self) -> Action {
        if self.yolo {
            Action::Allow
        } else {
            Action::Ask
        }
    }

    fn bash(&self, command: &str) -> Verdict {
        let commands = match split(command) {
            Ok(c) => c,
            Err(_) if !self.active() => return Verdict::allow(command.to_string()),
            Err(e) => {
                return Verdict {
                    action: self.ask_unless_yolo(),
                    reason: Some(Reason::Unparsed(e)),
                    subject: command.to_string(),
                    remember: vec![self.session_rule("bash", command)],
                };
            }
        };
        let mut verdicts: Vec<Verdict> = commands
            .iter()
            .map(|c| self.one_command(c, &commands))
            .collect();
        // The strictest decides; among equals, the first.
        let worst = verdicts.iter().map(|v| v.action).max();
        let Some(worst) = worst else {
            return Verdict::allow(command.to_string());
        };
        let remember: Vec<Rule> = verdicts
            .iter()
            .filter(|v| v.action == Action::Ask)
            .flat_map(|v| v.remember.clone())
            .collect();
        let index = verdicts.iter().position(|v| v.action == worst).unwrap_or(0);
        let mut verdict = verdicts.swap_remove(index);
        verdict.remember = remember;
        verdict
    }

    fn one_command(&self, command: &SimpleCommand, all: &[SimpleCommand]) -> Verdict {
        let text = command.text();
        let rule = self.rule_for("bash", std::slice::from_ref(&text));
        if command.dynamic_name && self.active() && rule.is_none_or(|r| r.action != Action::Deny) {
            return Verdict {
                action: self.ask_unless_yolo(),
                reason: Some(Reason::Dynamic(text.clone())),
                subject: text.clone(),
                remember: vec![self.session_rule("bash", &text)],
            };
        }
        let floor = bash_floor(command, all, &self.place());
        self.finish("bash", text.clone(), rule, floor, &text)
    }

    fn path(&self, tool: &str, path: &str) -> Verdict {
        let absolute = normalize(&self.cwd.join(path));
        let mut subjects = vec![path.to_string(), absolute.to_string_lossy().into_owned()];
        if let Ok(relative) = absolute.strip_prefix(normalize(&self.cwd)) {
            subjects.push(relative.to_string_lossy().into_owned());
        }
        let rule = self.rule_for(tool, &subjects);
        let floor = path_floor(tool, path, &self.place());
        self.finish(tool, path.to_string(), rule, floor, &subjects[1])
    }

    /// Combine the rule that matched with the floor and `--yolo`.
    fn finish(
        &self,
        tool: &str,
        subject: String,
        rule: Option<&Rule>,
        floor: Option<Floor>,
        remember_as: &str,
    ) -> Verdict {
        let remember = vec![self.session_rule(tool, remember_as)];
        if let Some(floor) = floor.filter(|_| self.active()) {
            // Only an explicit allow of the user's own lets a floor command through.
            let named = rule.is_some_and(|r| {
                r.action == Action::Allow
                    && r.is_explicit()
                    && matches!(r.scope, Scope::User | Scope::Session)
            });
            let denied = rule.is_some_and(|r| r.action == Action::Deny);
            if !named && !denied {
                return Verdict {
                    action: Action::Ask,
                    reason: Some(Reason::Floor(floor, subject.clone())),
                    subject,
                    remember,
                };
            }
        }
        let Some(rule) = rule else {
            return Verdict::allow(subject);
        };
        let action = match rule.action {
            Action::Ask if self.yolo => Action::Allow,
            other => other,
        };
        Verdict {
            action,
            reason: Some(Reason::Rule(rule.clone())),
            subject,
            remember,
        }
    }

    /// The rule that decides `subjects` of `tool`: the last match among the user's and a
    /// trusted project's rules (an untrusted project's only where they are stricter), then
    /// the session's answers, which never lift a refusal.
    fn rule_for(&self, tool: &str, subjects: &[String]) -> Option<&Rule> {
        let chosen = if self.project_trusted {
            self.user
                .iter()
                .chain(&self.project)
                .rev()
                .find(|r| subjects.iter().any(|s| r.matches(tool, s)))
        } else {
            let user = last_match(&self.user, tool, subjects);
            let project = last_match(&self.project, tool, subjects);
            match (user, project) {
                (Some(u), Some(p)) if p.action > u.action => Some(p),
                (None, Some(p)) if p.action != Action::Allow => Some(p),
                (u, _) => u,
            }
        };
        match (chosen, last_match(&self.session, tool, subjects)) {
            (Some(c), _) if c.action == Action::Deny => Some(c),
            (_, Some(s)) => Some(s),
            (c, None) => c,
        }
    }

    /// The session rules an "always" answer adds for a call that something other than
    /// the rules asked about (an extension): each command of a bash script, else the path
    /// or the arguments.
    pub fn decide_remember(&self, tool: &str, args: &Value) -> Vec<Rule> {
        if tool == "bash" {
            let command = args.get("command").and_then(Value::as_str).unwrap_or("");
            return match split(command) {
                Ok(commands) => commands
                    .iter()
                    .map(|c| self.session_rule(tool, &c.text()))
                    .collect(),
                Err(_) => vec![self.session_rule(tool, command)],
            };
        }
        if FILE_TOOLS.contains(&tool) {
            let path = args
                .get("path")
                .or_else(|| args.get("file_path"))
                .and_then(Value::as_str)
                .unwrap_or(".");
            let absolute = normalize(&self.cwd.join(path));
            return vec![self.session_rule(tool, &absolute.to_string_lossy())];
        }
        let subject = serde_json::to_string(args).unwrap_or_default();
        vec![self.session_rule(tool, &subject)]
    }

    fn session_rule(&self, tool: &str, subject: &str) -> Rule {
        Rule::literal(tool, subject, Action::Allow, Scope::Session)
    }
}
