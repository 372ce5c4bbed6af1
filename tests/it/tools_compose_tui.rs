//! End to end in tmux: two extensions registering `read` give one warning in the terminal
//! UI naming both and the owner, the header marks the extension that overrides the
//! built-in, and after `/reload` a `pi.wrapTool` wrapper applies once, not twice. Skipped
//! when tmux is missing.

use std::time::Duration;

use serde_json::json;

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

const LIMIT: Duration = Duration::from_secs(30);

/// A `read` tool whose row says which extension drew it.
fn reader(tag: &str) -> String {
    format!(
        "return function(pi)\n  local ui = require(\"pi.ui\")\n  \
         pi.registerTool({{ name = \"read\", label = \"Read\", \
         description = \"reads\", parameters = {{ type = \"object\" }}, \
         renderCall = function() return ui.Text(\"ROW-BY-{tag}\", 0, 0) end, \
         execute = function() return {{ content = \"read by {tag}\" }} end }})\nend\n"
    )
}

/// Wraps bash (a line appended to the result) and decorates the rows of bash (the
/// built-in row, which it replaces) and read (the owner's row, which it keeps).
const SUFFIXER: &str = r#"return function(pi)
  local ui = require("pi.ui")
  pi.wrapTool("bash", function(args, next)
    local r = next(args)
    table.insert(r.content, { type = "text", text = "WRAPPED-MARK" })
    return r
  end)
  pi.wrapToolRenderer("bash", {
    renderCall = function(args, theme, context, inner)
      if inner() then return ui.Text("UNEXPECTED-INNER", 0, 0) end
      return ui.Text("DECORATED-BASH " .. args.command, 0, 0)
    end,
  })
  pi.wrapToolRenderer("read", {
    renderCall = function(args, theme, context, inner)
      local box = ui.Container()
      box.addChild(inner())
      box.addChild(ui.Text("DECORATED-READ", 0, 0))
      return box
    end,
  })
end
"#;

/// The screen with its lines joined, so a wrapped sentence reads as one.
fn flat(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_tui_warns_about_a_shared_tool_marks_the_override_and_reload_does_not_double_wrappers() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |sandbox| {
        let dir = sandbox.agent_dir.join("extensions");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("reader-one.lua"), reader("one")).unwrap();
        std::fs::write(dir.join("reader-two.lua"), reader("two")).unwrap();
        std::fs::write(dir.join("suffixer.lua"), SUFFIXER).unwrap();
        sandbox.write_agent_file(
            "settings.json",
            &json!({"tools.owners": {"read": "reader-one"}}).to_string(),
        );
    });
    let screen = pi.tmux.wait_for("the conflict warning", LIMIT, |s| {
        flat(s).contains("is registered by both reader-one and reader-two")
    });
    let text = flat(&screen);
    assert!(text.contains("reader-one's is used"), "{screen}");
    assert_eq!(text.matches("is registered by both").count(), 1, "{screen}");
    assert!(text.contains("reader-one.lua (overrides read)"), "{screen}");
    assert!(!text.contains("reader-two.lua (overrides"), "{screen}");

    pi.send("/reload");
    pi.tmux
        .wait_for("the reload", LIMIT, |s| s.contains("Reloaded 3 extensions"));
    server.push(MockReply::openai_tool_calls(&[
        ("call_1", "bash", json!({"command": "echo hi"})),
        ("call_2", "read", json!({"path": "x"})),
    ]));
    server.push(MockReply::openai_text("all done"));
    pi.send("run it");
    let screen = pi
        .tmux
        .wait_for("the reply and the decorated rows", LIMIT, |s| {
            s.contains("all done") && s.contains("DECORATED-READ")
        });
    let requests = server.requests();
    let tool = requests.last().unwrap().tool_message();
    assert_eq!(tool.matches("WRAPPED-MARK").count(), 1, "{tool}");
    assert!(tool.contains("hi"), "{tool}");
    // The built-in bash row is replaced; the owner's read row is kept, with the mark.
    assert!(screen.contains("DECORATED-BASH echo hi"), "{screen}");
    assert!(!screen.contains("UNEXPECTED-INNER"), "{screen}");
    assert!(screen.contains("ROW-BY-one"), "{screen}");
    assert_eq!(screen.matches("DECORATED-READ").count(), 1, "{screen}");
}
