//! A scripted `ctx.ui` front end: records every request, answers dialogs
//! from a queue (an empty queue leaves them waiting) and mirrors the editor
//! text, tool expansion and the current built-in theme like a real front end.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use pi::lua::ExtensionUi;
use pi::ui_kit::theme::Theme;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// The fake front end.
#[derive(Default)]
pub struct FakeUi {
    /// Every dialog and fire request, in order.
    pub log: Mutex<Vec<Value>>,
    /// Answers for the next dialogs.
    pub answers: Mutex<VecDeque<Value>>,
    /// Dialogs left waiting, with the token that closes them.
    pub waiting: Mutex<Vec<(oneshot::Sender<Value>, CancellationToken)>>,
    editor: Mutex<String>,
    expanded: Mutex<bool>,
    theme: Mutex<Option<String>>,
}

impl FakeUi {
    /// A fake answering dialogs with `answers` in order.
    pub fn new(answers: Vec<Value>) -> Arc<Self> {
        Arc::new(FakeUi {
            answers: Mutex::new(answers.into()),
            ..FakeUi::default()
        })
    }

    /// Recorded requests with `method`.
    pub fn calls(&self, method: &str) -> Vec<Value> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|r| r["method"] == method)
            .cloned()
            .collect()
    }
}

impl ExtensionUi for FakeUi {
    fn dialog(&self, request: Value, closed: CancellationToken) -> oneshot::Receiver<Value> {
        self.log.lock().unwrap().push(request);
        let (tx, rx) = oneshot::channel();
        match self.answers.lock().unwrap().pop_front() {
            Some(answer) => {
                let _ = tx.send(answer);
            }
            None => self.waiting.lock().unwrap().push((tx, closed)),
        }
        rx
    }

    fn fire(&self, request: Value) {
        match request["method"].as_str() {
            Some("set_editor_text") => {
                *self.editor.lock().unwrap() = request["text"].as_str().unwrap().into()
            }
            Some("setTheme") => {
                *self.theme.lock().unwrap() = request["name"].as_str().map(String::from)
            }
            Some("setToolsExpanded") => {
                *self.expanded.lock().unwrap() = request["expanded"] == true
            }
            _ => {}
        }
        self.log.lock().unwrap().push(request);
    }

    fn theme(&self, name: Option<&str>) -> Option<Theme> {
        match name
            .map(String::from)
            .or_else(|| self.theme.lock().unwrap().clone())
        {
            Some(name) => Theme::builtin(&name),
            None => Some(Theme::default()),
        }
    }

    fn query(&self, what: &str) -> Value {
        match what {
            "editorText" => json!(*self.editor.lock().unwrap()),
            "toolsExpanded" => json!(*self.expanded.lock().unwrap()),
            _ => Value::Null,
        }
    }
}
