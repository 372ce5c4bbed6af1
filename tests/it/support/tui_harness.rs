//! A tmux harness for driving the interactive `pi` against the mock LLM
//! server: start it in a detached tmux session, type, wait for the screen,
//! and compare `stty -a` before and after. Include with
//! `#[path = "support/tui_harness.rs"] mod tui_harness;` next to `mod support;`
//! and `mod pi_cli;`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::MockServer;
use crate::support::pi_cli::PiSandbox;

pub const SCRUBBED: [&str; 12] = [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_OAUTH_TOKEN",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GROQ_API_KEY",
    "XAI_API_KEY",
    "OPENROUTER_API_KEY",
    "MISTRAL_API_KEY",
    "DEEPSEEK_API_KEY",
    "PI_CODING_AGENT_SESSION_DIR",
    "PI_CODING_AGENT_DIR",
    "PI_PACKAGE_DIR",
];

pub fn tmux_available() -> bool {
    Command::new("which")
        .arg("tmux")
        .output()
        .is_ok_and(|o| o.status.success())
}

pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A private tmux server running one pane.
pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    pub fn start(command: &str, cwd: &Path) -> Tmux {
        let socket = format!("pi-e2e-{}-{}", std::process::id(), rand_suffix());
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-x",
                "100",
                "-y",
                "30",
                "-c",
            ])
            .arg(cwd)
            .arg(command)
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session failed");
        Tmux { socket }
    }

    pub fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    }

    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p"])
    }

    /// The pane's history and screen together.
    pub fn history(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-S", "-"])
    }

    /// A tmux format evaluated for the pane, e.g. `#{alternate_on}`.
    pub fn format(&self, format: &str) -> String {
        self.tmux(&["display-message", "-p", format])
            .trim()
            .to_string()
    }

    pub fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-l", text]);
    }

    pub fn key(&self, key: &str) {
        self.tmux(&["send-keys", key]);
    }

    /// Poll the screen until `pred` holds, failing with the last screen after `limit`.
    pub fn wait_for(&self, what: &str, limit: Duration, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

pub fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

pub fn wait_for_file(path: &Path, limit: Duration) -> String {
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && !text.is_empty()
        {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The shell command: record `stty -a`, run pi, record `stty -a` again.
pub fn pi_command(sandbox: &PiSandbox, args: &str, before: &Path, after: &Path) -> String {
    let mut env = String::from("env");
    for var in SCRUBBED {
        env.push_str(&format!(" -u {var}"));
    }
    for (key, value) in &sandbox.env {
        env.push_str(&format!(" {key}={}", quote(value)));
    }
    env.push_str(&format!(
        " PI_CODING_AGENT_DIR={} PI_OFFLINE=1 {} {args}",
        quote(&sandbox.agent_dir.to_string_lossy()),
        quote(env!("CARGO_BIN_EXE_pi")),
    ));
    format!(
        "sh -c {}",
        quote(&format!(
            "stty -a > {b}; {env} 2> pi-stderr.txt; stty -a > {a}.tmp; mv {a}.tmp {a}; exec cat",
            b = quote(&before.to_string_lossy()),
            a = quote(&after.to_string_lossy()),
        ))
    )
}

pub struct Session {
    pub sandbox: PiSandbox,
    pub tmux: Tmux,
    pub before: PathBuf,
    pub after: PathBuf,
}

impl Session {
    pub fn launch(server: &MockServer, prepare: impl FnOnce(&mut PiSandbox)) -> Session {
        let mut sandbox = PiSandbox::with_mock(server, "openai-completions");
        prepare(&mut sandbox);
        let pi = Session::start(sandbox, "--model mock/mock-model");
        pi.tmux
            .wait_for("the editor and footer", Duration::from_secs(20), |s| {
                s.contains("mock-model") && s.contains("pi v")
            });
        pi
    }

    pub fn start(sandbox: PiSandbox, args: &str) -> Session {
        let before = sandbox.root.path().join("stty-before.txt");
        let after = sandbox.root.path().join("stty-after.txt");
        let command = pi_command(&sandbox, args, &before, &after);
        let tmux = Tmux::start(&command, &sandbox.project);
        Session {
            sandbox,
            tmux,
            before,
            after,
        }
    }

    pub fn send(&self, text: &str) {
        self.tmux.type_text(text);
        self.tmux.key("Enter");
    }

    /// Ctrl+D, then the terminal settings must equal those before pi ran.
    pub fn quit_and_check_terminal(&self) {
        self.tmux.key("C-d");
        let deadline = Instant::now() + Duration::from_secs(20);
        let after = loop {
            match std::fs::read_to_string(&self.after) {
                Ok(text) if !text.is_empty() => break text,
                _ if Instant::now() >= deadline => {
                    panic!("pi did not exit on Ctrl+D; screen:\n{}", self.tmux.screen())
                }
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        };
        let before = std::fs::read_to_string(&self.before).unwrap();
        assert_eq!(before, after, "stty -a differs after pi exited");
    }
}
