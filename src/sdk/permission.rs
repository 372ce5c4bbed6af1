//! The SDK's answer to the permission policy's questions: a callback the program gives in
//! [`SessionOptions::on_permission`](super::SessionOptions::on_permission), asked for each
//! tool call an `ask` rule, the danger floor or an extension wants confirmed. Without one,
//! such calls are refused with a message naming the rule.

use std::fmt;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::lua::{ExtensionUi, SharedExtensionUi};

/// What the policy asks about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionQuestion {
    /// The tool (`bash`, `write`, …).
    pub tool: String,
    /// The command part or path in question.
    pub subject: String,
    /// The rule that asks (`bash "npm *" → ask (user)`, `floor:sudo`, …).
    pub rule: String,
}

/// The program's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermissionAnswer {
    /// Run it this time.
    Once,
    /// Run it, and the same command (or path) for the rest of the session.
    Always,
    /// Refuse it: the model gets a tool error naming the rule.
    No,
}

/// A callback answering permission questions (called on pi's runtime: answer quickly).
#[derive(Clone)]
pub struct PermissionCallback(
    pub(super) Arc<dyn Fn(&PermissionQuestion) -> PermissionAnswer + Send + Sync>,
);

impl fmt::Debug for PermissionCallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PermissionCallback")
    }
}

impl PermissionCallback {
    /// The callback as the front end the permission gate asks.
    pub(super) fn as_ui(&self) -> SharedExtensionUi {
        Arc::new(CallbackUi(self.clone()))
    }
}

struct CallbackUi(PermissionCallback);

impl ExtensionUi for CallbackUi {
    fn dialog(&self, request: Value, _closed: CancellationToken) -> oneshot::Receiver<Value> {
        let (tx, rx) = oneshot::channel();
        let question = &request["permission"];
        if question.is_object() {
            let text = |k: &str| question[k].as_str().unwrap_or("").to_string();
            let answer = (self.0.0)(&PermissionQuestion {
                tool: text("toolName"),
                subject: text("subject"),
                rule: text("rule"),
            });
            let index = match answer {
                PermissionAnswer::Once => 0,
                PermissionAnswer::Always => 1,
                PermissionAnswer::No => 2,
            };
            let _ = tx.send(json!({"value": request["options"][index]}));
        }
        rx
    }

    fn fire(&self, _request: Value) {}
}
