//! Extension widgets are clipped to a bounded height (10 lines, as pi 0.73.1)
//! with a count of the rest, so even a widget of a million lines leaves the
//! editor in view and usable.

use super::*;
use crate::support::tui_harness::{Session, tmux_available};

#[test]
fn a_million_line_widget_is_clipped_and_the_editor_stays_visible() {
    if !tmux_available() {
        eprintln!("tmux is not installed; skipping");
        return;
    }
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let ext = extension(
        &sandbox,
        "tall.lua",
        r#"
return function(pi)
  pi.on("session_start", function(_, ctx)
    local rows = {}
    for i = 1, 1000000 do rows[i] = "row " .. i end
    ctx.ui.setWidget("tall", rows)
    ctx.ui.setWidget("short", {"short one", "short two"}, {placement = "belowEditor"})
  end)
end
"#,
    );
    let args = format!("--model mock/mock-model -e {}", ext.display());
    let pi = Session::start(sandbox, &args);
    let screen = pi
        .tmux
        .wait_for("the clipped widget", Duration::from_secs(30), |s| {
            s.contains("999,990 more lines") || s.contains("999990 more lines")
        });
    assert!(screen.contains("row 10"), "{screen}");
    assert!(!screen.contains("row 11"), "{screen}");
    assert!(screen.contains("short two"), "{screen}");
    assert!(screen.contains("mock-model"), "footer: {screen}");
    pi.tmux.type_text("still typing here");
    let screen = pi
        .tmux
        .wait_for("typed text in the editor", Duration::from_secs(10), |s| {
            s.contains("still typing here")
        });
    assert!(
        screen.contains("row 1\n") || screen.contains("row 1 "),
        "{screen}"
    );
    pi.tmux.tmux(&["kill-server"]);
}
