//! Session and entry identifiers, and the ISO timestamps pi writes.

use chrono::{DateTime, SecondsFormat, Utc};

/// A fresh session id: a time-ordered UUID (v7), as pi uses.
pub fn new_session_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// A fresh 8-hex-char entry id not rejected by `is_taken`; after 100
/// collisions a full UUID is used instead.
pub fn new_entry_id(is_taken: impl Fn(&str) -> bool) -> String {
    for _ in 0..100 {
        let uuid = uuid::Uuid::new_v4().simple().to_string();
        let id = &uuid[..8];
        if !is_taken(id) {
            return id.to_string();
        }
    }
    uuid::Uuid::new_v4().to_string()
}

/// The current time as JavaScript's `toISOString()` writes it
/// (`2024-12-03T14:00:00.000Z`).
pub fn now_iso() -> String {
    to_iso(Utc::now())
}

/// A time formatted as JavaScript's `toISOString()` writes it.
pub fn to_iso(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Milliseconds since the epoch of an ISO 8601 timestamp, if it parses.
pub fn iso_to_ms(timestamp: &str) -> Option<i64> {
    DateTime::parse_from_rfc3339(timestamp)
        .ok()
        .map(|t| t.timestamp_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_ids_are_eight_hex_chars() {
        let id = new_entry_id(|_| false);
        assert_eq!(id.len(), 8);
        assert!(
            id.chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
    }

    #[test]
    fn entry_ids_avoid_taken_ones_and_fall_back_to_uuid() {
        let first = new_entry_id(|_| false);
        let second = new_entry_id(|id| id == first);
        assert_ne!(first, second);
        let fallback = new_entry_id(|_| true);
        assert_eq!(fallback.len(), 36);
    }

    #[test]
    fn iso_timestamps_match_javascript() {
        let time = DateTime::parse_from_rfc3339("2024-12-03T14:00:00.5Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(to_iso(time), "2024-12-03T14:00:00.500Z");
        assert_eq!(iso_to_ms("1970-01-01T00:00:01.000Z"), Some(1000));
        assert_eq!(iso_to_ms("nope"), None);
    }

    #[test]
    fn session_ids_are_uuids() {
        let id = new_session_id();
        assert!(uuid::Uuid::parse_str(&id).is_ok());
    }
}
