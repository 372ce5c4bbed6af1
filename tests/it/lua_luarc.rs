//! `pi luarc` writes the `.luarc.json` an author's editor needs: checked with the same
//! LuaLS-compatible checker CI runs (`emmylua_check`, installed by scripts/check-lua.sh),
//! an extension requiring `pi.ui` resolves with the file and does not without it.

use std::process::Command;

use crate::support::pi_cli::PiSandbox;

const EXTENSION: &str = "local ui = require(\"pi.ui\")\n\
---@param pi pi.API\n\
return function(pi)\n  \
  pi.registerCommand(\"x\", { description = \"d\", handler = function(_, ctx) ctx.ui.notify(\"hi\", \"info\") end })\n  \
  local _ = ui\n\
end\n";

fn check(folder: &std::path::Path) -> String {
    let out = Command::new("emmylua_check")
        .arg(".")
        .current_dir(folder)
        .output()
        .expect("emmylua_check is on PATH (scripts/check-lua.sh installs it)");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_written_luarc_lets_the_checker_resolve_pi_modules() {
    let sandbox = PiSandbox::new();
    let folder = sandbox.project.join(".pi").join("extensions");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("typed.lua"), EXTENSION).unwrap();
    assert!(
        check(&folder).contains("unresolved-require"),
        "without the file the module is unknown"
    );

    let out = sandbox.run(&["luarc"], None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(".luarc.json"), "{stdout}");
    let report = check(&folder);
    assert!(!report.contains("unresolved-require"), "{report}");
    assert!(!report.contains("error"), "{report}");
}
