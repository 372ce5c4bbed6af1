//! The permission gate before every tool call: the policy's verdict, the extensions'
//! `permission` handlers, then the user's answer to an `ask` (the terminal UI's dialog or
//! an RPC client's `extension_ui_request`); with nobody to ask, the call is refused with a
//! message naming the rule and how to allow it. "Always" answers become session rules,
//! kept in the session file so a resumed session keeps them.

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::ai::types::ToolCall;
use crate::core::extension_bridge::ExtensionBridge;
use crate::lua::SharedExtensionUi;
use crate::permissions::{Action, Policy, Reason, Rule, Scope, Verdict};
use crate::session::entries::SessionEntry;
use crate::session::manager::SessionManager;
use crate::t;

/// The session entry (`custom`) holding one "always allow" answer.
pub const SESSION_RULE_ENTRY: &str = "pi.permission_rule";

/// The policy of one session and where its questions go.
#[derive(Clone, Default)]
pub struct PermissionGate {
    /// Rules, floor and switches.
    pub policy: Policy,
    /// Where the user is asked (the terminal UI or an RPC client); `None`: nobody, an
    /// `ask` is refused.
    pub ui: Option<SharedExtensionUi>,
}

/// What the user answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Once,
    Always,
    No,
}

impl PermissionGate {
    /// The effective mode and rules as extensions read them (`ctx.permissions`).
    pub fn snapshot(&self) -> Value {
        let rules: Vec<Value> = self
            .policy
            .all_rules()
            .iter()
            .map(|r| {
                let mut v = r.to_json();
                v["scope"] = json!(r.scope.as_str());
                v
            })
            .collect();
        json!({
            "active": self.policy.active(),
            "yolo": self.policy.yolo,
            "mode": if self.policy.sandboxed { "sandboxed" } else { "full" },
            "projectTrusted": self.policy.project_trusted,
            "rules": rules,
        })
    }

    /// Read the "always" answers a session file holds.
    pub fn load_session_rules(&mut self, session: &SessionManager) {
        self.policy.session.clear();
        for entry in session.entries_of_type("custom") {
            // Only custom entries are looked at: nothing is converted per entry.
            let SessionEntry::Custom(custom) = entry else {
                continue;
            };
            if custom.custom_type != SESSION_RULE_ENTRY {
                continue;
            }
            let Some(data) = &custom.data else {
                continue;
            };
            let removed = data["removed"].as_bool() == Some(true);
            let (Some(tool), Some(pattern)) = (data["tool"].as_str(), data["pattern"].as_str())
            else {
                continue;
            };
            self.policy
                .session
                .retain(|r| !(r.tool == tool && r.pattern == pattern));
            if !removed && let Ok(rule) = Rule::new(tool, pattern, Action::Allow, Scope::Session) {
                self.policy.session.push(rule);
            }
        }
    }

    /// Forget a session rule (`/permissions remove`), recorded in the session file.
    pub fn remove_session_rule(&mut self, index: usize, session: &mut SessionManager) -> bool {
        if index >= self.policy.session.len() {
            return false;
        }
        let rule = self.policy.session.remove(index);
        session.append_custom_entry(
            SESSION_RULE_ENTRY,
            Some(json!({"tool": rule.tool, "pattern": rule.pattern, "removed": true})),
        );
        true
    }

    /// Decide a call: `None` lets it run, `Some(message)` refuses it with that tool error.
    pub async fn check(
        &mut self,
        call: &ToolCall,
        args: &Value,
        extensions: Option<&ExtensionBridge>,
        session: &mut SessionManager,
        signal: &CancellationToken,
    ) -> Option<String> {
        let handlers = extensions.filter(|e| e.handle.has_handlers("permission"));
        if !self.policy.active() && handlers.is_none() {
            return None;
        }
        let mut verdict = self.policy.decide(&call.name, args);
        if let Some(ext) = handlers {
            self.ask_extensions(ext, call, args, &mut verdict).await;
        }
        let label = verdict
            .reason
            .as_ref()
            .map(Reason::label)
            .unwrap_or_default();
        match verdict.action {
            Action::Allow => None,
            Action::Deny => Some(t!(
                "pi.permissions.denied",
                rule = label,
                subject = verdict.subject.clone()
            )),
            Action::Ask => {
                let Some(ui) = self.ui.clone() else {
                    return Some(refusal_without_ui(&call.name, &verdict, &label));
                };
                match ask(ui.as_ref(), &call.name, &verdict, &label, signal).await {
                    Answer::Once => None,
                    Answer::Always => {
                        for rule in &verdict.remember {
                            session.append_custom_entry(SESSION_RULE_ENTRY, Some(rule.to_json()));
                            self.policy.session.push(rule.clone());
                        }
                        if let Some(ext) = extensions {
                            ext.view.lock().permissions = self.snapshot();
                        }
                        None
                    }
                    Answer::No => Some(t!(
                        "pi.permissions.declined",
                        rule = label,
                        subject = verdict.subject.clone()
                    )),
                }
            }
        }
    }

    /// Let `permission` handlers weigh in: the strictest answer wins; a handler that fails
    /// counts as `ask` and is named.
    async fn ask_extensions(
        &self,
        ext: &ExtensionBridge,
        call: &ToolCall,
        args: &Value,
        verdict: &mut Verdict,
    ) {
        ext.view.lock().permissions = self.snapshot();
        let mut payload = json!({
            "type": "permission",
            "toolCallId": call.id,
            "toolName": call.name,
            "input": args,
            "subject": verdict.subject,
            "decision": verdict.action.as_str(),
        });
        if let Some(reason) = &verdict.reason {
            payload["rule"] = json!(reason.label());
        }
        if call.name == "bash" {
            let command = args["command"].as_str().unwrap_or("");
            payload["commands"] = json!(crate::permissions::bash_words::command_texts(command));
        }
        let out = ext.handle.emit("permission", payload).await;
        let mut proposals: Vec<(Action, Reason)> = out
            .errors
            .iter()
            .map(|e| {
                let reason = t!("pi.permissions.handler_failed", error = e.clone());
                (Action::Ask, Reason::Extension("permission".into(), reason))
            })
            .collect();
        for result in &out.results {
            let Some(decision) = result["decision"].as_str() else {
                continue;
            };
            let Some(action) = Action::parse(decision) else {
                // A decision pi cannot read is a failure of the handler: asked about.
                let error = t!(
                    "pi.permissions.bad_decision",
                    decision = decision.to_string()
                );
                let reason = t!("pi.permissions.handler_failed", error = error);
                proposals.push((Action::Ask, Reason::Extension("permission".into(), reason)));
                continue;
            };
            let why = result["reason"].as_str().unwrap_or("").to_string();
            proposals.push((action, Reason::Extension("permission".into(), why)));
        }
        // An "always" answer of this session stands for the user's consent.
        let consented = verdict.action == Action::Allow
            && matches!(&verdict.reason, Some(Reason::Rule(r)) if r.scope == Scope::Session);
        for (action, reason) in proposals {
            if consented && action == Action::Ask {
                continue;
            }
            // Prompts stay off with --yolo, except for the danger floor.
            let action = match action {
                Action::Ask if self.policy.yolo => Action::Allow,
                a => a,
            };
            if action > verdict.action {
                verdict.action = action;
                verdict.reason = Some(reason);
                if verdict.remember.is_empty() {
                    verdict.remember = self.policy.decide_remember(&call.name, args);
                }
            }
        }
    }
}

/// The refusal of an `ask` in print and JSON mode: the rule, and the rule that would
/// allow it.
fn refusal_without_ui(tool: &str, verdict: &Verdict, label: &str) -> String {
    let allow = verdict
        .remember
        .first()
        .map(|r| r.to_json().to_string())
        .unwrap_or_else(|| json!({"tool": tool, "pattern": "…", "action": "allow"}).to_string());
    t!(
        "pi.permissions.no_one_to_ask",
        rule = label.to_string(),
        subject = verdict.subject.clone(),
        allow = allow
    )
}

/// Ask "once / always for this command / no"; Escape, an abort or no answer mean no.
async fn ask(
    ui: &dyn crate::lua::ExtensionUi,
    tool: &str,
    verdict: &Verdict,
    label: &str,
    signal: &CancellationToken,
) -> Answer {
    let once = t!("pi.permissions.once");
    let always = t!("pi.permissions.always");
    let request = json!({
        "method": "select",
        "title": t!(
            "pi.permissions.question",
            tool = tool.to_string(),
            subject = verdict.subject.clone(),
            rule = label.to_string()
        ),
        "options": [once, always, t!("pi.permissions.no")],
        "permission": {"toolName": tool, "subject": verdict.subject, "rule": label},
    });
    let closed = CancellationToken::new();
    let answer = ui.dialog(request, closed.clone());
    let answer = tokio::select! {
        answer = answer => answer.ok(),
        _ = signal.cancelled() => None,
    };
    closed.cancel();
    match answer.as_ref().and_then(|a| a["value"].as_str()) {
        Some(v) if v == once => Answer::Once,
        Some(v) if v == always => Answer::Always,
        _ => Answer::No,
    }
}

#[cfg(test)]
mod session_rule_tests {
    use super::*;

    #[test]
    fn session_rules_come_back_from_the_session_entries_and_removals_count() {
        let mut session = SessionManager::in_memory(std::path::Path::new("/p"));
        session.append_custom_entry(
            SESSION_RULE_ENTRY,
            Some(json!({"tool": "bash", "pattern": "npm test"})),
        );
        session.append_custom_entry(
            SESSION_RULE_ENTRY,
            Some(json!({"tool": "bash", "pattern": "ls *"})),
        );
        // Other extensions' entries and entries without data are passed over.
        session.append_custom_entry("other.ext", Some(json!({"tool": "bash", "pattern": "rm"})));
        session.append_custom_entry(SESSION_RULE_ENTRY, None);
        let mut gate = PermissionGate::default();
        gate.load_session_rules(&session);
        let rules: Vec<(&str, &str)> = gate
            .policy
            .session
            .iter()
            .map(|r| (r.tool.as_str(), r.pattern.as_str()))
            .collect();
        assert_eq!(rules, [("bash", "npm test"), ("bash", "ls *")]);

        assert!(gate.remove_session_rule(0, &mut session));
        let mut reloaded = PermissionGate::default();
        reloaded.load_session_rules(&session);
        assert_eq!(reloaded.policy.session.len(), 1);
        assert_eq!(reloaded.policy.session[0].pattern, "ls *");
    }
}
