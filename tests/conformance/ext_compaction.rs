//! Extensions around a compaction: `session_before_compact` sees the preparation and the
//! branch, may cancel or supply the compaction (its summary and token count are used as
//! given); `session_compact` follows once the entry is saved, telling whether an extension
//! made it; a failing handler leaves the default compaction; several extensions run in
//! load order. Extensions are Lua here; each records what it saw with `pi.appendEntry`.
//! orig-file: packages/coding-agent/test/compaction-extensions.test.ts

use pi::core::session_command::{Outcome, SessionCommand};
use serde_json::Value;

use crate::session_harness::Harness;

/// Records both events: the before event's shape and the after event's entry.
const RECORDER: &str = r#"return function(pi)
  pi.on("session_before_compact", function(event)
    local p = event.preparation
    pi.appendEntry("before", {
      toSummarize = #p.messagesToSummarize, prefix = #p.turnPrefixMessages,
      tokensBefore = p.tokensBefore, isSplitTurn = p.isSplitTurn,
      firstKept = p.firstKeptEntryId, branch = #event.branchEntries,
    })
  end)
  pi.on("session_compact", function(event, ctx)
    local saved = false
    for _, e in ipairs(ctx.sessionManager.getEntries()) do
      if e.type == "compaction" then saved = true end
    end
    pi.appendEntry("after", { summary = event.compactionEntry.summary,
      tokensBefore = event.compactionEntry.tokensBefore, fromExtension = event.fromExtension, saved = saved })
  end)
end"#;

async fn session(sources: &[&str], prompts: &[&str]) -> Harness {
    let (mut h, errors) = Harness::with_extensions(sources).await;
    assert!(errors.is_empty(), "{errors:?}");
    h.agent.compaction.keep_recent_tokens = 1;
    for p in prompts {
        h.faux.push_text("4");
        h.prompt(p).await;
    }
    h
}

async fn compact(h: &mut Harness) -> Result<pi::compaction::CompactionResult, String> {
    h.faux.push_text("## Goal\nDefault summary.");
    h.faux.push_text("## Original Request\nA sum.");
    let command = SessionCommand::Compact {
        instructions: None,
        signal: h.signal.clone(),
    };
    h.agent
        .execute(command)
        .await
        .map(|o| match o {
            Outcome::Compacted(result) => result,
            other => panic!("{other:?}"),
        })
        .map_err(|e| e.to_string())
}

fn recorded(h: &Harness, kind: &str) -> Vec<Value> {
    h.agent
        .session
        .entries()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["type"] == "custom" && e["customType"] == kind)
        .map(|e| e["data"].clone())
        .collect()
}

/// orig: Compaction extensions › should emit before_compact and compact events
#[tokio::test]
async fn both_events_are_emitted() {
    let mut h = session(&[RECORDER], &["What is 2+2?", "What is 3+3?"]).await;
    compact(&mut h).await.unwrap();
    let before = recorded(&h, "before");
    assert_eq!(before.len(), 1);
    assert!(before[0]["toSummarize"].as_u64().unwrap() > 0);
    assert!(before[0]["prefix"].is_u64());
    assert!(before[0]["isSplitTurn"].is_boolean());
    assert!(before[0]["branch"].as_u64().unwrap() > 0);
    let after = recorded(&h, "after");
    assert_eq!(after.len(), 1);
    assert!(
        after[0]["summary"]
            .as_str()
            .unwrap()
            .contains("Default summary.")
    );
    assert_eq!(after[0]["fromExtension"], false);
}

/// orig: Compaction extensions › should allow extensions to cancel compaction
#[tokio::test]
async fn an_extension_cancels() {
    let cancel = r#"return function(pi) pi.on("session_before_compact", function() return { cancel = true } end) end"#;
    let mut h = session(&[cancel, RECORDER], &["What is 2+2?"]).await;
    let err = compact(&mut h).await.unwrap_err();
    assert!(err.contains("Compaction cancelled"), "{err}");
    assert!(recorded(&h, "after").is_empty());
    assert_eq!(h.faux.call_count(), 1, "no summary was asked for");
}

/// orig: Compaction extensions › should allow extensions to provide custom compaction
#[tokio::test]
async fn an_extension_supplies_the_compaction() {
    let custom = r#"return function(pi) pi.on("session_before_compact", function(event)
  return { compaction = { summary = "Custom summary from extension",
    firstKeptEntryId = event.preparation.firstKeptEntryId, tokensBefore = event.preparation.tokensBefore } }
end) end"#;
    let mut h = session(&[custom, RECORDER], &["What is 2+2?", "What is 3+3?"]).await;
    let calls = h.faux.call_count();
    let result = compact(&mut h).await.unwrap();
    assert_eq!(result.summary, "Custom summary from extension");
    assert_eq!(h.faux.call_count(), calls, "the model was not asked");
    let after = recorded(&h, "after");
    assert_eq!(after[0]["summary"], "Custom summary from extension");
    assert_eq!(after[0]["fromExtension"], true);
}

/// orig: Compaction extensions › should include entries in compact event after compaction is saved
#[tokio::test]
async fn the_entry_is_saved_before_session_compact() {
    let mut h = session(&[RECORDER], &["What is 2+2?"]).await;
    compact(&mut h).await.unwrap();
    let after = recorded(&h, "after");
    assert_eq!(after.len(), 1);
    assert_eq!(after[0]["saved"], true);
}

/// orig: Compaction extensions › should continue with default compaction if extension throws error
#[tokio::test]
async fn a_failing_handler_leaves_the_default_compaction() {
    let throws = r#"return function(pi) pi.on("session_before_compact", function() error("Extension intentionally throws") end) end"#;
    let mut h = session(&[throws, RECORDER], &["What is 2+2?"]).await;
    let result = compact(&mut h).await.unwrap();
    assert!(result.summary.contains("Default summary."));
    let after = recorded(&h, "after");
    assert_eq!(after.len(), 1);
    assert_eq!(after[0]["fromExtension"], false);
    assert!(
        h.reports()
            .iter()
            .any(|r| r.contains("Extension intentionally throws"))
    );
}

/// orig: Compaction extensions › should call multiple extensions in order
#[tokio::test]
async fn several_extensions_in_load_order() {
    let ext = |n: u32| {
        format!(
            r#"return function(pi)
  pi.on("session_before_compact", function() pi.appendEntry("order", {{ step = "extension{n}-before" }}) end)
  pi.on("session_compact", function() pi.appendEntry("order", {{ step = "extension{n}-after" }}) end)
end"#
        )
    };
    let (one, two) = (ext(1), ext(2));
    let mut h = session(&[&one, &two], &["What is 2+2?"]).await;
    compact(&mut h).await.unwrap();
    let order: Vec<Value> = recorded(&h, "order")
        .into_iter()
        .map(|d| d["step"].clone())
        .collect();
    assert_eq!(
        order,
        [
            "extension1-before",
            "extension2-before",
            "extension1-after",
            "extension2-after"
        ]
    );
}

/// orig: Compaction extensions › should pass correct data in before_compact event
#[tokio::test]
async fn the_before_event_carries_the_preparation() {
    let mut h = session(&[RECORDER], &["What is 2+2?", "What is 3+3?"]).await;
    compact(&mut h).await.unwrap();
    let before = &recorded(&h, "before")[0];
    assert!(before["isSplitTurn"].is_boolean());
    let first = before["firstKept"].as_str().unwrap();
    assert!(h.agent.session.entry(first).is_some());
    assert!(before["tokensBefore"].is_u64());
    assert!(before["toSummarize"].is_u64() && before["prefix"].is_u64());
    assert!(before["branch"].as_u64().unwrap() >= 4);
}

/// orig: Compaction extensions › should use extension compaction even with different values
#[tokio::test]
async fn an_extensions_values_are_used_as_given() {
    let custom = r#"return function(pi) pi.on("session_before_compact", function(event)
  return { compaction = { summary = "Custom summary with modified values",
    firstKeptEntryId = event.preparation.firstKeptEntryId, tokensBefore = 999 } }
end) end"#;
    let mut h = session(&[custom], &["What is 2+2?"]).await;
    let result = compact(&mut h).await.unwrap();
    assert_eq!(result.summary, "Custom summary with modified values");
    assert_eq!(result.tokens_before, 999);
}
