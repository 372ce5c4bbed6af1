//! Labels on session entries.
//! orig-file: packages/coding-agent/test/session-manager/labels.test.ts

use std::path::Path;

use pi::session::SessionManager;

use crate::session_tree::{assistant, entries_json, user};

fn memory() -> SessionManager {
    SessionManager::in_memory(Path::new("/tmp"))
}

/// orig: SessionManager labels › sets and gets labels
#[test]
fn set_and_get() {
    let mut s = memory();
    let m = s.append_message(user("hello"));
    assert_eq!(s.label(&m), None);
    let l = s.append_label_change(&m, Some("checkpoint")).unwrap();
    assert_eq!(s.label(&m), Some("checkpoint"));
    let e = entries_json(&s);
    let entry = e.iter().find(|x| x["type"] == "label").unwrap();
    assert_eq!(entry["id"], l);
    assert_eq!(entry["targetId"], m);
    assert_eq!(entry["label"], "checkpoint");
}

/// orig: SessionManager labels › clears labels with undefined
#[test]
fn clear() {
    let mut s = memory();
    let m = s.append_message(user("hello"));
    s.append_label_change(&m, Some("checkpoint")).unwrap();
    s.append_label_change(&m, None).unwrap();
    assert_eq!(s.label(&m), None);
}

/// orig: SessionManager labels › last label wins
#[test]
fn last_wins() {
    let mut s = memory();
    let m = s.append_message(user("hello"));
    for l in ["first", "second", "third"] {
        s.append_label_change(&m, Some(l)).unwrap();
    }
    assert_eq!(s.label(&m), Some("third"));
}

/// orig: SessionManager labels › labels are included in tree nodes
#[test]
fn labels_in_tree() {
    let mut s = memory();
    let a = s.append_message(user("hello"));
    let b = s.append_message(assistant("hi"));
    s.append_label_change(&a, Some("start")).unwrap();
    s.append_label_change(&b, Some("response")).unwrap();
    let tree = s.get_tree();
    let n1 = tree.nodes.iter().find(|n| n.entry.id() == a).unwrap();
    assert_eq!(n1.label, Some("start"));
    let n2 = tree.nodes.iter().find(|n| n.entry.id() == b).unwrap();
    assert_eq!(n2.label, Some("response"));
    assert!(n1.children.iter().any(|&c| tree.nodes[c].entry.id() == b));
}

/// orig: SessionManager labels › labels are preserved in createBranchedSession
#[test]
fn labels_kept_by_fork() {
    let mut s = memory();
    let a = s.append_message(user("hello"));
    let b = s.append_message(assistant("hi"));
    s.append_label_change(&a, Some("important")).unwrap();
    s.append_label_change(&b, Some("also-important")).unwrap();
    s.create_branched_session(&b).unwrap();
    assert_eq!(s.label(&a), Some("important"));
    assert_eq!(s.label(&b), Some("also-important"));
    assert_eq!(
        entries_json(&s)
            .iter()
            .filter(|e| e["type"] == "label")
            .count(),
        2
    );
}

/// orig: SessionManager labels › labels not on path are not preserved in createBranchedSession
#[test]
fn labels_off_path_dropped_by_fork() {
    let mut s = memory();
    let a = s.append_message(user("hello"));
    let b = s.append_message(assistant("hi"));
    let c = s.append_message(user("followup"));
    s.append_label_change(&a, Some("first")).unwrap();
    s.append_label_change(&b, Some("second")).unwrap();
    s.append_label_change(&c, Some("third")).unwrap();
    s.create_branched_session(&b).unwrap();
    assert_eq!(s.label(&a), Some("first"));
    assert_eq!(s.label(&b), Some("second"));
    assert_eq!(s.label(&c), None);
}

/// orig: SessionManager labels › labels are not included in buildSessionContext
#[test]
fn labels_not_in_context() {
    let mut s = memory();
    let m = s.append_message(user("hello"));
    s.append_label_change(&m, Some("checkpoint")).unwrap();
    let ctx = s.build_context();
    assert_eq!(ctx.messages.len(), 1);
    assert_eq!(ctx.messages[0].role(), "user");
}

/// orig: SessionManager labels › throws when labeling non-existent entry
#[test]
fn label_missing_entry() {
    let mut s = memory();
    let err = s
        .append_label_change("non-existent", Some("label"))
        .unwrap_err();
    assert_eq!(err.to_string(), "Entry non-existent not found");
}
