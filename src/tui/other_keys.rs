//! xterm's modifyOtherKeys mode inside tmux. A terminal without the Kitty keyboard
//! protocol sends Shift+Enter as a plain Enter and Ctrl+- like Ctrl+_; tmux sends them
//! distinctly (`ESC [ 13 ; 2 u`, `ESC [ 45 ; 5 u`) once the program asks with
//! `ESC [ > 4 ; 2 m` — in the CSI-u form that crossterm reads, up to tmux 3.4 and later
//! with `extended-keys-format csi-u`. tmux's other form (`ESC [ 27 ; mod ; code ~`, also
//! what xterm itself sends) is not read by crossterm, so pi asks only where the answer
//! will be CSI-u.

/// Ask for modifyOtherKeys mode 2.
pub const ENABLE: &str = "\x1b[>4;2m";
/// Back to the terminal's default.
pub const DISABLE: &str = "\x1b[>4;0m";

/// Whether to ask, from the environment (`TMUX`, `TERM_PROGRAM`, `TERM_PROGRAM_VERSION`)
/// and, for tmux 3.5 and later, its `extended-keys-format` option.
pub fn wanted() -> bool {
    let env = |name: &str| std::env::var(name).ok();
    decide(
        env("TMUX").is_some_and(|v| !v.is_empty()),
        env("TERM_PROGRAM").as_deref(),
        env("TERM_PROGRAM_VERSION").as_deref(),
        tmux_key_format,
    )
}

/// The decision: in tmux, when its keys will come in the CSI-u form.
pub fn decide(
    in_tmux: bool,
    program: Option<&str>,
    version: Option<&str>,
    key_format: impl FnOnce() -> Option<String>,
) -> bool {
    if !in_tmux {
        return false;
    }
    let version = match program {
        Some("tmux") => version.and_then(parse_version),
        _ => None,
    };
    match version {
        Some(v) if v < (3, 5) => true,
        _ => key_format().is_some_and(|f| f.trim() == "csi-u"),
    }
}

/// `3.3a` as (3, 3).
fn parse_version(text: &str) -> Option<(u32, u32)> {
    let (major, rest) = text.split_once('.')?;
    let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// tmux's `extended-keys-format` option (`xterm` or `csi-u`), when tmux answers.
fn tmux_key_format() -> Option<String> {
    let out = std::process::Command::new("tmux")
        .args(["show-options", "-gv", "extended-keys-format"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asked_for_in_tmux_when_keys_come_as_csi_u() {
        let never = || -> Option<String> { panic!("tmux is not asked") };
        assert!(decide(true, Some("tmux"), Some("3.3a"), never));
        assert!(decide(true, Some("tmux"), Some("3.4"), never));
        assert!(!decide(false, Some("tmux"), Some("3.3a"), never));
        assert!(!decide(true, Some("tmux"), Some("3.5a"), || Some(
            "xterm\n".into()
        )));
        assert!(decide(true, Some("tmux"), Some("3.5a"), || Some(
            "csi-u\n".into()
        )));
        assert!(!decide(true, None, None, || None));
        assert!(decide(true, Some("vscode"), Some("1.90"), || Some(
            "csi-u".into()
        )));
    }
}
