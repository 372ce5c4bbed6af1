//! Session file names: `<time>_<id>.jsonl` (folders come from `config::paths`).

/// The file name of a new session: its ISO creation time with `:` and `.`
/// replaced by `-`, an underscore, and its id.
pub fn session_file_name(iso_timestamp: &str, session_id: &str) -> String {
    let time = iso_timestamp.replace([':', '.'], "-");
    format!("{time}_{session_id}.jsonl")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_name_replaces_colons_and_dots() {
        assert_eq!(
            session_file_name("2025-12-09T00:52:54.397Z", "abc"),
            "2025-12-09T00-52-54-397Z_abc.jsonl"
        );
    }
}
