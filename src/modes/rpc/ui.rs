//! The extension UI sub-protocol: `ctx.ui` dialogs become
//! `extension_ui_request` lines on stdout and wait for the client's
//! `extension_ui_response` with the same id; notifications are sent and
//! forgotten.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use super::io::emit;
use crate::lua::ExtensionUi;

/// Dialogs waiting for an answer, by request id.
#[derive(Clone, Default)]
pub struct UiReplies {
    pending: Arc<Mutex<HashMap<String, Sender<Value>>>>,
}

impl UiReplies {
    /// Hand a client's `extension_ui_response` to the dialog waiting for it;
    /// answers for unknown or expired ids are dropped.
    pub fn deliver(&self, response: &Value) {
        let Some(id) = response["id"].as_str() else {
            return;
        };
        if let Some(waiter) = self.pending.lock().unwrap().remove(id) {
            let _ = waiter.send(response.clone());
        }
    }
}

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
    fn dialog(&self, request: Value) -> Option<Value> {
        let timeout = request["timeout"].as_u64();
        let (id, request) = self.request(request);
        let (tx, rx) = channel();
        self.replies.pending.lock().unwrap().insert(id.clone(), tx);
        emit(&request);
        let answer = match timeout {
            Some(ms) => rx.recv_timeout(Duration::from_millis(ms)).ok(),
            None => rx.recv().ok(),
        };
        self.replies.pending.lock().unwrap().remove(&id);
        answer
    }

    fn fire(&self, request: Value) {
        emit(&self.request(request).1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dialog_gets_the_answer_with_its_id_and_times_out_otherwise() {
        let replies = UiReplies::default();
        let ui = RpcUi::new(replies.clone());
        let answering = replies.clone();
        let t = std::thread::spawn(move || {
            loop {
                let id = answering.pending.lock().unwrap().keys().next().cloned();
                if let Some(id) = id {
                    answering.deliver(&json!({"type": "extension_ui_response", "id": "other"}));
                    answering.deliver(
                        &json!({"type": "extension_ui_response", "id": id, "confirmed": true}),
                    );
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let answer = ui.dialog(json!({"method": "confirm", "title": "Sure?"}));
        t.join().unwrap();
        assert_eq!(answer.unwrap()["confirmed"], true);
        let none = ui.dialog(json!({"method": "confirm", "title": "t", "timeout": 5}));
        assert!(none.is_none());
        assert!(replies.pending.lock().unwrap().is_empty());
    }
}
