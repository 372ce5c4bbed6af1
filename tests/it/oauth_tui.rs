//! `/login` and `/logout` in the real interactive `pi` (tmux), with GitHub
//! and Copilot played by a mock server on 127.0.0.1. Skipped (with a
//! message) when tmux is not installed.

use crate::support;
use crate::support::tui_harness;

use std::time::Duration;

use serde_json::{Value, json};
use support::{MockReply, MockServer};
use tui_harness::*;

#[test]
fn login_to_copilot_by_device_code_then_logout() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let llm = MockServer::start();
    let github = MockServer::start();
    github.set_handler(|req| match req.path.as_str() {
        "/login/device/code" => MockReply::json(
            200,
            json!({"device_code": "dev-1", "user_code": "WXYZ-9876",
                   "verification_uri": "https://github.com/login/device",
                   "interval": 1, "expires_in": 60}),
        ),
        "/login/oauth/access_token" => MockReply::json(200, json!({"access_token": "ghu_tui"})),
        "/copilot_internal/v2/token" => MockReply::json(
            200,
            json!({"token": "tid=1;proxy-ep=proxy.individual.githubcopilot.com", "expires_at": 4_000_000_000u64}),
        ),
        _ => MockReply::status(404),
    });
    let pi = Session::launch(&llm, |sandbox| {
        sandbox.env.push(("PI_OAUTH_SERVER".into(), github.url()));
        sandbox.env.push(("PI_NO_BROWSER".into(), "1".into()));
    });
    pi.send("/login");
    pi.tmux
        .wait_for("the method choice", Duration::from_secs(20), |s| {
            s.contains("Use a subscription")
        });
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the provider list", Duration::from_secs(20), |s| {
            s.contains("Log in to a subscription")
        });
    assert!(screen.contains("Anthropic (Claude Pro/Max)"), "{screen}");
    assert!(screen.contains("ChatGPT Plus/Pro"), "{screen}");
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("back at the method choice", Duration::from_secs(20), |s| {
            !s.contains("Log in to a subscription") && s.contains("Use a subscription")
        });
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the dialog to close", Duration::from_secs(20), |s| {
            !s.contains("Use a subscription")
        });
    pi.send("/login github-copilot");
    pi.tmux
        .wait_for("the domain question", Duration::from_secs(20), |s| {
            s.contains("GitHub Enterprise URL/domain")
        });
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the login to finish", Duration::from_secs(20), |s| {
            s.contains("Logged in to GitHub Copilot")
        });
    assert!(
        screen.contains("https://github.com/login/device"),
        "{screen}"
    );
    assert!(screen.contains("Enter code: WXYZ-9876"), "{screen}");
    let auth_path = pi.sandbox.agent_dir.join("auth.json");
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(&auth_path).unwrap()).unwrap();
    assert_eq!(stored["github-copilot"]["type"], "oauth");
    assert_eq!(stored["github-copilot"]["refresh"], "ghu_tui");
    assert_eq!(
        llm.request_count(),
        0,
        "the blank answer was not sent as a prompt"
    );

    pi.send("/logout github-copilot");
    pi.tmux
        .wait_for("the logout", Duration::from_secs(20), |s| {
            s.contains("Logged out of GitHub Copilot")
        });
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(&auth_path).unwrap()).unwrap();
    assert!(stored.get("github-copilot").is_none(), "{stored}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&auth_path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    pi.quit_and_check_terminal();
}
