//! Upgrading v1 (linear, no ids) and v2 (`hookMessage` role) sessions to v3.

use std::collections::HashSet;

use serde_json::Value;

use super::entries::CURRENT_SESSION_VERSION;
use super::ids::new_entry_id;

/// The version a set of raw lines declares (the first `session` line's
/// `version`, 1 when absent).
pub fn declared_version(lines: &[Value]) -> u64 {
    lines
        .iter()
        .find(|line| line_type(line) == Some("session"))
        .and_then(|header| header.get("version"))
        .and_then(Value::as_u64)
        .unwrap_or(1)
}

/// Migrate raw session lines (header included) in place to the current
/// version. Returns the version migrated from, or `None` when already current.
pub fn migrate_to_current(lines: &mut [Value]) -> Option<u64> {
    let version = declared_version(lines);
    if version >= u64::from(CURRENT_SESSION_VERSION) {
        return None;
    }
    if version < 2 {
        migrate_v1_to_v2(lines);
    }
    migrate_v2_to_v3(lines);
    Some(version)
}

/// v1 → v2: give every entry an id, chain each to the previous one, and turn
/// compaction `firstKeptEntryIndex` into `firstKeptEntryId`.
fn migrate_v1_to_v2(lines: &mut [Value]) {
    let mut taken: HashSet<String> = HashSet::new();
    let mut previous: Option<String> = None;
    for index in 0..lines.len() {
        if line_type(&lines[index]) == Some("session") {
            set(&mut lines[index], "version", Value::from(2));
            continue;
        }
        let id = new_entry_id(|candidate| taken.contains(candidate));
        taken.insert(id.clone());
        set(&mut lines[index], "id", Value::from(id.clone()));
        set(
            &mut lines[index],
            "parentId",
            previous.map_or(Value::Null, Value::from),
        );
        previous = Some(id);
        if line_type(&lines[index]) != Some("compaction") {
            continue;
        }
        let Some(kept_index) = lines[index]
            .get("firstKeptEntryIndex")
            .and_then(Value::as_u64)
        else {
            continue;
        };
        // Entries after this one have no id yet, exactly as in pi.
        let kept_id = usize::try_from(kept_index)
            .ok()
            .and_then(|i| lines.get(i))
            .filter(|target| line_type(target) != Some("session"))
            .and_then(|target| target.get("id"))
            .cloned();
        let entry = &mut lines[index];
        if let Some(kept_id) = kept_id {
            set(entry, "firstKeptEntryId", kept_id);
        }
        if let Some(object) = entry.as_object_mut() {
            object.shift_remove("firstKeptEntryIndex");
        }
    }
}

/// v2 → v3: the `hookMessage` role became `custom`.
fn migrate_v2_to_v3(lines: &mut [Value]) {
    for line in lines.iter_mut() {
        match line_type(line) {
            Some("session") => set(line, "version", Value::from(3)),
            Some("message") => {
                if let Some(message) = line.get_mut("message")
                    && message.get("role").and_then(Value::as_str) == Some("hookMessage")
                {
                    set(message, "role", Value::from("custom"));
                }
            }
            _ => {}
        }
    }
}

fn line_type(line: &Value) -> Option<&str> {
    line.get("type").and_then(Value::as_str)
}

fn set(object: &mut Value, key: &str, value: Value) {
    if let Some(map) = object.as_object_mut() {
        map.insert(key.to_string(), value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v1_gets_chained_ids_and_kept_id() {
        let mut lines = vec![
            json!({"type":"session","id":"s","timestamp":"t","cwd":"/p"}),
            json!({"type":"message","timestamp":"t","message":{"role":"user","content":"a","timestamp":1}}),
            json!({"type":"message","timestamp":"t","message":{"role":"user","content":"b","timestamp":2}}),
            json!({"type":"compaction","timestamp":"t","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}),
        ];
        assert_eq!(migrate_to_current(&mut lines), Some(1));
        assert_eq!(lines[0]["version"], 3);
        assert_eq!(lines[1]["parentId"], Value::Null);
        assert_eq!(lines[2]["parentId"], lines[1]["id"]);
        assert_eq!(lines[3]["parentId"], lines[2]["id"]);
        assert_eq!(lines[3]["firstKeptEntryId"], lines[2]["id"]);
        assert!(lines[3].get("firstKeptEntryIndex").is_none());
        let keys: Vec<&String> = lines[3].as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "type",
                "timestamp",
                "summary",
                "tokensBefore",
                "id",
                "parentId",
                "firstKeptEntryId"
            ]
        );
    }

    #[test]
    fn v2_hook_messages_become_custom() {
        let mut lines = vec![
            json!({"type":"session","version":2,"id":"s","timestamp":"t","cwd":"/p"}),
            json!({"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"hookMessage","customType":"x","content":"c","display":true,"timestamp":1}}),
        ];
        assert_eq!(migrate_to_current(&mut lines), Some(2));
        assert_eq!(lines[1]["message"]["role"], "custom");
        assert_eq!(lines[1]["id"], "a");
        assert_eq!(lines[0]["version"], 3);
    }

    #[test]
    fn current_version_is_untouched() {
        let mut lines = vec![json!({"type":"session","version":3,"id":"s"})];
        assert_eq!(migrate_to_current(&mut lines), None);
    }
}
