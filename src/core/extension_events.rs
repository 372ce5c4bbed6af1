//! Extension events beyond the agent loop's own: `context`, provider
//! request hooks, model and thinking-level changes, `user_bash`,
//! `resources_discover` and the cancellable `session_before_*` events.

use crate::t;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Value, json};

use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::stream::RequestHooks;
use crate::ai::types::Message;
use crate::core::extension_bridge::ExtensionBridge;
use crate::lua::ExtensionHandle;

/// Paths extensions contributed in `resources_discover`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DiscoveredResources {
    /// Extra skill files or folders.
    pub skill_paths: Vec<PathBuf>,
    /// Extra prompt-template files or folders.
    pub prompt_paths: Vec<PathBuf>,
    /// Extra theme files or folders.
    pub theme_paths: Vec<PathBuf>,
    /// Each contributed path with the name and entry file of the extension returning it.
    pub contributed_by: Vec<(PathBuf, String, PathBuf)>,
}

/// `before_provider_request` / `after_provider_response` for one request.
pub struct ExtensionRequestHooks {
    handle: ExtensionHandle,
}

#[async_trait]
impl RequestHooks for ExtensionRequestHooks {
    async fn before_request(&self, payload: Value) -> Value {
        let out = self
            .handle
            .emit(
                "before_provider_request",
                json!({"type": "before_provider_request", "payload": payload}),
            )
            .await;
        match out.event.get("payload") {
            Some(p) if !out.results.is_empty() => p.clone(),
            _ => payload,
        }
    }

    async fn after_response(&self, status: u16, headers: BTreeMap<String, String>) {
        self.handle
            .emit(
                "after_provider_response",
                json!({"type": "after_provider_response", "status": status, "headers": headers}),
            )
            .await;
    }
}

fn paths(results: &[Value], key: &str) -> Vec<PathBuf> {
    results
        .iter()
        .filter_map(|r| r.get(key).and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .map(PathBuf::from)
        .collect()
}

/// Every path a `resources_discover` result names, with the extension that returned it.
fn contributions(out: &crate::lua::dispatch::Dispatched) -> Vec<(PathBuf, String, PathBuf)> {
    let keys = ["skillPaths", "promptPaths", "themePaths"];
    out.results
        .iter()
        .zip(&out.result_sources)
        .flat_map(|(result, (name, file))| {
            keys.iter()
                .filter_map(|key| result.get(*key).and_then(Value::as_array))
                .flatten()
                .filter_map(Value::as_str)
                .map(|p| (PathBuf::from(p), name.clone(), file.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

impl ExtensionBridge {
    /// Request hooks when some extension listens to provider requests.
    pub fn request_hooks(&self) -> Option<Arc<dyn RequestHooks>> {
        let wanted = self.handle.has_handlers("before_provider_request")
            || self.handle.has_handlers("after_provider_response");
        wanted.then(|| {
            Arc::new(ExtensionRequestHooks {
                handle: self.handle.clone(),
            }) as Arc<dyn RequestHooks>
        })
    }

    /// Whether some handler of `context` may replace the messages sent to the model.
    pub fn handles_context(&self) -> bool {
        self.handle.has_handlers("context")
    }

    /// `context`: handlers may replace the messages sent to the model.
    pub async fn context(&self, messages: &mut Vec<Message>) {
        if !self.handle.has_handlers("context") {
            return;
        }
        let payload = json!({"type": "context", "messages": messages});
        let out = self.handle.emit("context", payload).await;
        if out.results.iter().all(|r| r.get("messages").is_none()) {
            return;
        }
        match out
            .event
            .get("messages")
            .map(|m| serde_json::from_value::<Vec<Message>>(m.clone()))
        {
            Some(Ok(replaced)) => *messages = replaced,
            Some(Err(e)) => self.view.report(format!(
                "Extension error: {}",
                t!("pi.ext.context_unreadable", error = e.to_string())
            )),
            None => {}
        }
    }

    /// `model_select` with `source` = `set`, `cycle` or `restore`.
    pub async fn model_select(&self, model: &Model, previous: Option<&Model>, source: &str) {
        let payload = json!({
            "type": "model_select", "model": model, "previousModel": previous, "source": source,
        });
        self.handle.emit("model_select", payload).await;
    }

    /// `thinking_level_select`.
    pub async fn thinking_level_select(&self, level: ThinkingLevel, previous: ThinkingLevel) {
        let payload = json!({
            "type": "thinking_level_select", "level": level.as_str(), "previousLevel": previous.as_str(),
        });
        self.handle.emit("thinking_level_select", payload).await;
    }

    /// `user_bash`: a handler's `{result = {output, exitCode}}` replaces
    /// running the command.
    pub async fn user_bash(
        &self,
        command: &str,
        exclude: bool,
        cwd: &std::path::Path,
    ) -> Option<(String, Option<i32>)> {
        if !self.handle.has_handlers("user_bash") {
            return None;
        }
        let payload = json!({
            "type": "user_bash", "command": command, "excludeFromContext": exclude,
            "cwd": cwd.display().to_string(),
        });
        let out = self.handle.emit("user_bash", payload).await;
        let result = out.results.iter().find_map(|r| r.get("result"))?;
        let output = result
            .get("output")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let code = result
            .get("exitCode")
            .and_then(Value::as_i64)
            .map(|c| c as i32);
        Some((output, code))
    }

    /// `resources_discover`: remember the paths extensions contribute.
    pub async fn resources_discover(&mut self, cwd: &std::path::Path, reason: &str) {
        if !self.handle.has_handlers("resources_discover") {
            self.resources = DiscoveredResources::default();
            return;
        }
        let payload = json!({
            "type": "resources_discover", "cwd": cwd.display().to_string(), "reason": reason,
        });
        let out = self.handle.emit("resources_discover", payload).await;
        self.resources = DiscoveredResources {
            skill_paths: paths(&out.results, "skillPaths"),
            prompt_paths: paths(&out.results, "promptPaths"),
            theme_paths: paths(&out.results, "themePaths"),
            contributed_by: contributions(&out),
        };
    }

    /// A `session_before_*` event; `true` when a handler cancelled.
    pub async fn session_before(&self, name: &str, mut payload: Value) -> bool {
        if !self.handle.has_handlers(name) {
            return false;
        }
        payload["type"] = Value::String(name.to_string());
        self.handle.emit(name, payload).await.cancelled()
    }
}
