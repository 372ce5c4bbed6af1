//! What happens when a run reaches one of its limits (the same failing tool call again
//! and again, the turn or request limit): extensions see `run_limit` and may decide;
//! otherwise the terminal UI asks the user; with nobody to ask, the run stops.

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::agent::run_limits::{LimitDecision, LimitReached};
use crate::core::extension_bridge::ExtensionBridge;
use crate::lua::SharedExtensionUi;
use crate::t;

/// Decide whether the run goes on after `reached`.
pub async fn decide(
    extensions: Option<&ExtensionBridge>,
    ui: Option<&SharedExtensionUi>,
    reached: &LimitReached,
    signal: &CancellationToken,
) -> LimitDecision {
    if let Some(ext) = extensions
        && ext.handle.has_handlers("run_limit")
    {
        let mut payload = reached.payload();
        payload["type"] = json!("run_limit");
        let out = ext.handle.emit("run_limit", payload).await;
        if let Some(decision) = extension_decision(&out.results) {
            return decision;
        }
    }
    match ui {
        Some(ui) => ask(ui.as_ref(), reached, signal).await,
        None => LimitDecision::Stop,
    }
}

/// The first handler result that decides: `{stop = true}`, `{continue = true}`,
/// `{maxTurns = n}` or `{maxRequests = n}`.
fn extension_decision(results: &[Value]) -> Option<LimitDecision> {
    results.iter().find_map(|r| {
        let number = |k: &str| {
            r.get(k)
                .and_then(Value::as_u64)
                .map(|n| n.min(u32::MAX as u64) as u32)
        };
        if r.get("stop").and_then(Value::as_bool) == Some(true) {
            Some(LimitDecision::Stop)
        } else if let Some(n) = number("maxTurns") {
            Some(LimitDecision::SetMaxTurns(n))
        } else if let Some(n) = number("maxRequests") {
            Some(LimitDecision::SetMaxRequests(n))
        } else if r.get("continue").and_then(Value::as_bool) == Some(true) {
            Some(LimitDecision::Continue)
        } else {
            None
        }
    })
}

/// Ask the user: continue or stop. Escape, an abort or no answer stop the run.
async fn ask(
    ui: &dyn crate::lua::ExtensionUi,
    reached: &LimitReached,
    signal: &CancellationToken,
) -> LimitDecision {
    let go_on = t!("pi.limit.continue");
    let request = json!({
        "method": "select",
        "title": reached.question(),
        "options": [go_on, t!("pi.limit.stop")],
    });
    let closed = CancellationToken::new();
    let answer = ui.dialog(request, closed.clone());
    let answer = tokio::select! {
        answer = answer => answer.ok(),
        _ = signal.cancelled() => None,
    };
    closed.cancel();
    match answer {
        Some(a) if a["value"].as_str() == Some(go_on.as_str()) => LimitDecision::Continue,
        _ => LimitDecision::Stop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handler_results_decide_in_order_and_others_pass() {
        let d = |v: Value| extension_decision(v.as_array().unwrap());
        assert_eq!(d(json!([])), None);
        assert_eq!(d(json!([{"note": 1}, {"continue": false}])), None);
        assert_eq!(
            d(json!([{}, {"continue": true}])),
            Some(LimitDecision::Continue)
        );
        assert_eq!(
            d(json!([{"maxTurns": 40}, {"stop": true}])),
            Some(LimitDecision::SetMaxTurns(40))
        );
        assert_eq!(
            d(json!([{"maxRequests": 9}])),
            Some(LimitDecision::SetMaxRequests(9))
        );
        assert_eq!(
            d(json!([{"stop": true, "continue": true}])),
            Some(LimitDecision::Stop)
        );
    }
}
