//! Where sessions live on disk: `<agent_dir>/sessions/--<encoded cwd>--/<time>_<id>.jsonl`.

use std::path::{Path, PathBuf};

/// The folder holding every project's session folder.
pub fn sessions_root(agent_dir: &Path) -> PathBuf {
    agent_dir.join("sessions")
}

/// The folder name for a working directory: one leading separator dropped,
/// every `/`, `\` and `:` turned into `-`, wrapped in `--`.
pub fn encode_cwd(cwd: &str) -> String {
    let trimmed = cwd
        .strip_prefix('/')
        .or_else(|| cwd.strip_prefix('\\'))
        .unwrap_or(cwd);
    let encoded: String = trimmed
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | ':') {
                '-'
            } else {
                c
            }
        })
        .collect();
    format!("--{encoded}--")
}

/// The default session folder of a working directory (not created here).
pub fn default_session_dir(agent_dir: &Path, cwd: &Path) -> PathBuf {
    sessions_root(agent_dir).join(encode_cwd(&cwd.to_string_lossy()))
}

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
    fn cwd_encoding_matches_pi() {
        assert_eq!(encode_cwd("/Users/a/proj"), "--Users-a-proj--");
        assert_eq!(encode_cwd("C:\\work\\x"), "--C--work-x--");
        assert_eq!(encode_cwd("\\\\srv\\share"), "---srv-share--");
    }

    #[test]
    fn default_dir_is_under_sessions() {
        let dir = default_session_dir(Path::new("/home/u/.pi/agent"), Path::new("/w/p"));
        assert_eq!(dir, PathBuf::from("/home/u/.pi/agent/sessions/--w-p--"));
    }

    #[test]
    fn file_name_replaces_colons_and_dots() {
        assert_eq!(
            session_file_name("2025-12-09T00:52:54.397Z", "abc"),
            "2025-12-09T00-52-54-397Z_abc.jsonl"
        );
    }
}
