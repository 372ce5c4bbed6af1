//! `/login` with an API key in the real terminal UI (tmux): the method, a searched
//! provider, a pasted key that never shows; the key lands in `auth.json` (0600) and the
//! next prompt to that provider's endpoint (a 127.0.0.1 mock) carries it, without a
//! restart; `/logout` removes it.

use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

use std::time::Duration;

use serde_json::json;

const WAIT: Duration = Duration::from_secs(30);
const KEY: &str = "gsk-e2e-secret-4821";

/// A sandbox without credentials whose `groq` provider talks to `server`.
pub fn groq_on_mock(server: &MockServer) -> PiSandbox {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"groq": {"baseUrl": server.openai_base_url()}}}).to_string(),
    );
    sandbox
}

#[test]
fn login_with_an_api_key_then_prompt_then_logout() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("Hello from groq."));
    let pi = Session::start(groq_on_mock(&server), "");
    pi.tmux.wait_for("the demo start", WAIT, |s| {
        s.contains("demo") && s.contains("pi v")
    });

    pi.tmux.type_text("/login");
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the method choice", WAIT, |s| {
        s.contains("Use a subscription") && s.contains("Use an API key")
    });
    pi.tmux.key("Down");
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the providers", WAIT, |s| {
        s.contains("Choose the provider of the API key") && s.contains("ANTHROPIC_API_KEY")
    });
    pi.tmux.type_text("groq");
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the key field", WAIT, |s| {
        s.contains("Enter the API key for groq")
    });
    pi.tmux.tmux(&["set-buffer", KEY]);
    pi.tmux.tmux(&["paste-buffer", "-p"]);
    let screen = pi
        .tmux
        .wait_for("the masked key", WAIT, |s| s.contains("•••••••••"));
    assert!(!screen.contains(KEY), "the key is never shown:\n{screen}");
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the key saved", WAIT, |s| {
        s.contains("Saved the API key for groq")
    });
    assert!(!screen.contains(KEY), "{screen}");
    // The provider's default model starts at the default thinking level, not the demo's.
    pi.tmux.wait_for("the default thinking level", WAIT, |s| {
        s.lines()
            .any(|footer| footer.contains("gpt-oss-120b • medium"))
    });

    let auth = pi.sandbox.agent_dir.join("auth.json");
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&auth).unwrap()).unwrap();
    assert_eq!(stored, json!({"groq": {"type": "api_key", "key": KEY}}));
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&auth).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    pi.send("say hello");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("Hello from groq."));
    let request = server.last_request().expect("a request to the mock");
    assert_eq!(
        request.header("authorization").map(str::to_string),
        Some(format!("Bearer {KEY}"))
    );

    pi.send("/logout groq");
    pi.tmux.wait_for("the key removed", WAIT, |s| {
        s.contains("Removed the stored API key for groq")
    });
    let left = std::fs::read_to_string(&auth).unwrap();
    assert!(!left.contains(KEY), "{left}");
    pi.quit_and_check_terminal();
}
