//! End to end in tmux: the extension author's loop. Start pi with one extension, add a
//! second file, `/reload`, run its command; add a broken file and see it named while the
//! first still works; delete the second and see its command gone. Then the same without
//! typing `/reload`, with `"extensions.watch": true`. Skipped when tmux is missing.

use std::path::Path;
use std::time::Duration;

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

const LIMIT: Duration = Duration::from_secs(30);

fn command_extension(name: &str) -> String {
    format!(
        "return function(pi)\n  pi.registerCommand(\"{name}\", {{ description = \"{name} here\", \
         handler = function(args, ctx) ctx.ui.notify(\"{name} ran\", \"info\") end }})\nend\n"
    )
}

fn extensions_dir(pi: &Session) -> std::path::PathBuf {
    let dir = pi.sandbox.agent_dir.join("extensions");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn start(server: &MockServer, watch: bool) -> Session {
    Session::launch(server, |sandbox| {
        let dir = sandbox.agent_dir.join("extensions");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("first.lua"), command_extension("alpha")).unwrap();
        if watch {
            sandbox.write_agent_file("settings.json", r#"{"extensions.watch": true}"#);
        }
    })
}

#[test]
fn reload_sees_added_broken_and_removed_extension_files() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("unused"));
    let pi = start(&server, false);
    let dir = extensions_dir(&pi);
    write(&dir, "second.lua", &command_extension("beta"));
    pi.send("/reload");
    pi.tmux
        .wait_for("two extensions, the new one named", LIMIT, |s| {
            s.contains("Reloaded 2 extensions") && s.contains("extensions: added second.lua")
        });
    pi.send("/beta");
    pi.tmux
        .wait_for("the new command", LIMIT, |s| s.contains("beta ran"));

    write(
        &dir,
        "broken.lua",
        "return function(pi)\n  pi.registerCommand(\"x\", {\nend\n",
    );
    pi.send("/reload");
    let screen = pi.tmux.wait_for("the broken file named", LIMIT, |s| {
        s.contains("broken.lua:3")
    });
    assert!(screen.contains("1 failed"), "{screen}");
    pi.send("/alpha");
    pi.tmux
        .wait_for("the first extension still working", LIMIT, |s| {
            s.contains("alpha ran")
        });

    std::fs::remove_file(dir.join("second.lua")).unwrap();
    std::fs::remove_file(dir.join("broken.lua")).unwrap();
    pi.send("/reload");
    pi.tmux
        .wait_for("one extension, the removed one named", LIMIT, |s| {
            s.contains("Reloaded 1 extension")
                && s.contains("extensions: removed broken.lua, second.lua")
        });
    pi.send("/beta");
    pi.tmux.wait_for("the removed command gone", LIMIT, |s| {
        s.contains("Unknown command: /beta")
    });
    pi.quit_and_check_terminal();
}

#[test]
fn with_watching_on_new_and_removed_files_apply_without_reload() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("unused"));
    let pi = start(&server, true);
    let dir = extensions_dir(&pi);
    write(&dir, "second.lua", &command_extension("beta"));
    pi.tmux.wait_for("an automatic reload", LIMIT, |s| {
        s.contains("Reloaded 2 extensions")
    });
    pi.send("/beta");
    pi.tmux
        .wait_for("the new command", LIMIT, |s| s.contains("beta ran"));
    std::fs::remove_file(dir.join("second.lua")).unwrap();
    pi.tmux.wait_for("a reload after the removal", LIMIT, |s| {
        s.contains("Reloaded 1 extension")
    });
    pi.send("/beta");
    pi.tmux.wait_for("the removed command gone", LIMIT, |s| {
        s.contains("Unknown command: /beta")
    });
    pi.quit_and_check_terminal();
}

#[test]
fn reload_finds_prompt_templates_and_skills_added_or_removed_since_start_up() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("unused"));
    let pi = Session::launch(&server, |_| {});
    let prompts = pi.sandbox.agent_dir.join("prompts");
    let skill = pi.sandbox.agent_dir.join("skills").join("tidy");
    std::fs::create_dir_all(&prompts).unwrap();
    std::fs::create_dir_all(&skill).unwrap();
    write(
        &prompts,
        "explain.md",
        "---\ndescription: Explain the code\n---\nExplain it.\n",
    );
    write(
        &skill,
        "SKILL.md",
        "---\nname: tidy\ndescription: Tidies the tree.\n---\nTidy up.\n",
    );
    pi.send("/reload");
    pi.tmux
        .wait_for("the reload naming what it found", LIMIT, |s| {
            s.contains("Reloaded")
                && s.contains("skills: added tidy")
                && s.contains("prompts: added /explain")
        });
    pi.tmux.type_text("/expl");
    pi.tmux.wait_for("the new template offered", LIMIT, |s| {
        s.contains("/explain") && s.contains("Explain the code")
    });
    pi.tmux.key("C-u");
    pi.tmux.type_text("/skill:ti");
    pi.tmux.wait_for("the new skill offered", LIMIT, |s| {
        s.contains("/skill:tidy") && s.contains("Tidies the tree.")
    });
    pi.tmux.key("C-u");

    std::fs::remove_file(prompts.join("explain.md")).unwrap();
    std::fs::remove_dir_all(&skill).unwrap();
    pi.send("/reload");
    pi.tmux
        .wait_for("the second reload naming what went", LIMIT, |s| {
            s.matches("Reloaded").count() == 2
                && s.contains("skills: removed tidy")
                && s.contains("prompts: removed /explain")
        });
    // A reload that finds nothing new says so.
    pi.send("/reload");
    pi.tmux.wait_for("the third reload", LIMIT, |s| {
        s.contains("nothing added, changed or removed")
    });
    pi.send("/explain");
    pi.tmux.wait_for("the removed template gone", LIMIT, |s| {
        s.contains("Unknown command: /explain")
    });
    pi.quit_and_check_terminal();
}
