//! End to end in tmux: `/extensions` shows each extension's status, source, load time
//! and handler times; a lazy extension shows as not loaded until its command runs.

use std::time::Duration;

use crate::support::MockServer;
use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::{Session, tmux_available};

#[test]
fn the_extensions_panel_shows_load_and_handler_times_and_lazy_status() {
    assert!(
        tmux_available(),
        "tmux is needed for the interactive end-to-end tests"
    );
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let dir = sandbox.agent_dir.join("extensions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a_timed.lua"),
        r#"return function(pi)
  pi.on("session_start", function() pi.sleep(5) end)
end
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("b_lazy.lua"),
        r#"return {
  activate = { commands = { { name = "wake", description = "Wake the lazy one" } } },
  setup = function(pi)
    pi.registerCommand("wake", { handler = function(_, ctx) ctx.ui.notify("awake now", "info") end })
  end,
}
"#,
    )
    .unwrap();
    let pi = Session::start(sandbox, "--model mock/mock-model");
    pi.tmux
        .wait_for("the editor", Duration::from_secs(30), |s| {
            s.contains("mock-model")
        });
    pi.send("/extensions");
    let screen = pi.tmux.wait_for("the panel", Duration::from_secs(10), |s| {
        s.contains("Extensions: 2 (1 loaded)")
    });
    let timed = screen
        .lines()
        .find(|l| l.contains("a_timed.lua  loaded  user  load "))
        .unwrap_or_else(|| panic!("a row with the load time:\n{screen}"));
    assert!(timed.contains(" ms  mem "), "{timed}");
    assert!(
        screen.contains("b_lazy.lua  lazy, not loaded yet  user"),
        "{screen}"
    );
    // The highlighted extension's handler: one call of at least the 5 ms it slept.
    let handler = screen
        .lines()
        .find(|l| l.contains("session_start: 1× total "))
        .unwrap_or_else(|| panic!("the handler's times:\n{screen}"));
    let max: f64 = handler
        .rsplit("max ")
        .next()
        .and_then(|m| m.trim().strip_suffix(" ms"))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("a max time in {handler:?}"));
    assert!(max >= 5.0, "{handler}");
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the panel closed", Duration::from_secs(10), |s| {
            !s.contains("Extensions: 2")
        });
    pi.send("/wake");
    pi.tmux
        .wait_for("the lazy command ran", Duration::from_secs(10), |s| {
            s.contains("awake now")
        });
    pi.send("/extensions");
    pi.tmux
        .wait_for("the panel open again", Duration::from_secs(10), |s| {
            s.contains("Extensions: 2 (2 loaded)")
        });
    pi.tmux.key("Down");
    let screen = pi
        .tmux
        .wait_for("both loaded", Duration::from_secs(10), |s| {
            s.contains("Extensions: 2 (2 loaded)") && s.contains("/wake: 1× total ")
        });
    assert!(
        screen.contains("b_lazy.lua  loaded (lazy)  user"),
        "{screen}"
    );
}
