//! The extension UI sub-protocol: `ctx.ui` dialogs become
//! `extension_ui_request` lines on stdout and wait for the client's
//! `extension_ui_response` with the same id; notifications are sent and
//! forgotten.

use crate::sync::LockExt;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::io::emit;
use crate::lua::ExtensionUi;

/// Dialogs waiting for an answer, by request id.
#[derive(Clone, Default)]
pub struct UiReplies {
    pending: Arc<Mutex<HashMap<String, Waiter>>>,
}

/// A dialog's answer slot and the token that fires when it stops waiting.
struct Waiter {
    answer: oneshot::Sender<Value>,
    closed: CancellationToken,
}

impl UiReplies {
    /// Hand a client's `extension_ui_response` to the dialog waiting for it;
    /// answers for unknown or expired ids are dropped.
    pub fn deliver(&self, response: &Value) {
        let Some(id) = response["id"].as_str() else {
            return;
        };
        let mut pending = self.pending.locked();
        pending.retain(|_, w| !w.closed.is_cancelled());
        if let Some(waiter) = pending.remove(id) {
            let _ = waiter.answer.send(response.clone());
        }
    }
}

/// Methods of pi's extension UI sub-protocol that are sent without waiting.
const FIRE_METHODS: [&str; 5] = [
    "notify",
    "setStatus",
    "setWidget",
    "setTitle",
    "set_editor_text",
];

/// `ctx.ui` over stdin/stdout.
pub struct RpcUi {
    replies: UiReplies,
    next_id: AtomicU64,
}

impl RpcUi {
    /// A UI answering through `replies` (fed by the stdin reader).
    pub fn new(replies: UiReplies) -> Arc<Self> {
        Arc::new(RpcUi {
            replies,
            next_id: AtomicU64::new(1),
        })
    }

    fn request(&self, mut request: Value) -> (String, Value) {
        let id = format!("ui-{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        if let Some(fields) = request.as_object_mut() {
            let mut out = serde_json::Map::new();
            out.insert("type".into(), json!("extension_ui_request"));
            out.insert("id".into(), json!(id));
            out.extend(std::mem::take(fields));
            request = Value::Object(out);
        }
        (id, request)
    }
}

impl ExtensionUi for RpcUi {
    fn dialog(&self, request: Value, closed: CancellationToken) -> oneshot::Receiver<Value> {
        let (id, request) = self.request(request);
        let (tx, rx) = oneshot::channel();
        {
            let mut pending = self.replies.pending.locked();
            pending.retain(|_, w| !w.closed.is_cancelled());
            pending.insert(id, Waiter { answer: tx, closed });
        }
        emit(&request);
        rx
    }

    fn fire(&self, request: Value) {
        let method = request["method"].as_str().unwrap_or_default();
        if FIRE_METHODS.contains(&method) {
            emit(&self.request(request).1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_dialog_gets_the_answer_with_its_id_and_expired_ones_are_dropped() {
        let replies = UiReplies::default();
        let ui = RpcUi::new(replies.clone());
        let closed = CancellationToken::new();
        let rx = ui.dialog(
            json!({"method": "confirm", "title": "Sure?"}),
            closed.clone(),
        );
        let id = replies
            .pending
            .lock()
            .unwrap()
            .keys()
            .next()
            .cloned()
            .unwrap();
        replies.deliver(&json!({"type": "extension_ui_response", "id": "other"}));
        replies.deliver(&json!({"type": "extension_ui_response", "id": id, "confirmed": true}));
        assert_eq!(rx.await.unwrap()["confirmed"], true);

        let closed = CancellationToken::new();
        let _rx = ui.dialog(json!({"method": "confirm", "title": "t"}), closed.clone());
        closed.cancel();
        replies.deliver(&json!({"type": "extension_ui_response", "id": "late"}));
        assert!(replies.pending.lock().unwrap().is_empty());
    }
}
