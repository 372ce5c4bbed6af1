//! Start-up's project trust step: decide whether this folder's `.pi` resources load, asking
//! once on the terminal UI's screen when pi runs interactively, naming what `.pi/` holds.

use crate::t;

use std::io::IsTerminal;
use std::path::Path;

use crate::cli::args::Args;
use crate::config::settings::Settings;
use crate::config::trust::{TrustOutcome, TrustSource, TrustStore, decide, trust_path};

/// Decide trust for `cwd`. `interactive` allows asking on the terminal. When the project is
/// not trusted its settings are dropped from `settings`, and a non-interactive run says how
/// to approve it.
pub fn apply_project_trust(
    args: &Args,
    settings: &mut Settings,
    agent_dir: &Path,
    cwd: &Path,
    interactive: bool,
) -> TrustOutcome {
    let flag = if args.approve {
        Some(true)
    } else if args.no_approve {
        Some(false)
    } else {
        None
    };
    let always_trust = settings
        .global()
        .get("alwaysTrust")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let contents = project_contents(cwd);
    if contents.is_empty() {
        // A `.pi/` with nothing to load (no code, settings or resources) gates nothing.
        return TrustOutcome {
            trusted: true,
            source: TrustSource::NoProjectResources,
        };
    }
    let mut store = TrustStore::load(agent_dir);
    let theme_name = settings.theme().map(str::to_string);
    let mut ask = || {
        let (theme, _) = crate::ui_kit::theme::Theme::load(
            theme_name.as_deref().unwrap_or("dark"),
            &[&agent_dir.join("themes")],
        );
        crate::tui::trust_prompt::ask(cwd, &contents, &theme, agent_dir)
    };
    let can_ask = interactive && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let outcome = decide(
        cwd,
        &mut store,
        flag,
        always_trust,
        can_ask.then_some(&mut ask as &mut dyn FnMut() -> Option<bool>),
    );
    if let Some(problem) = store.unreadable() {
        eprintln!("{}", t!("pi.trust.unreadable", error = problem.to_string()));
    }
    if !outcome.trusted {
        settings.drop_project();
        if outcome.source == TrustSource::NotAsked {
            eprintln!(
                "{}",
                t!(
                    "pi.trust.ignored",
                    path = cwd.join(".pi").display().to_string(),
                    file = trust_path(agent_dir).display().to_string()
                )
            );
        }
    }
    outcome
}

/// What `cwd/.pi` holds that trust would load, for people: "2 extensions: a.lua,
/// b/init.lua · 1 skill · settings"; empty when it holds none of these.
pub fn project_contents(cwd: &Path) -> String {
    let pi = cwd.join(crate::config::paths::CONFIG_DIR_NAME);
    let mut parts = Vec::new();
    let folder = pi.join("extensions");
    let extensions: Vec<String> = crate::lua::discovery::extensions_in_dir(&folder)
        .iter()
        .map(|p| p.strip_prefix(&folder).unwrap_or(p).display().to_string())
        .collect();
    if !extensions.is_empty() {
        parts.push(t!(
            "pi.trust.kind.extensions",
            count = extensions.len(),
            names = extensions.join(", ")
        ));
    }
    let counted = [
        (
            "pi.trust.kind.skills",
            crate::resources::skills::skill_files(&pi.join("skills"), true).len(),
        ),
        (
            "pi.trust.kind.prompts",
            crate::resources::prompt_templates::md_files(&pi.join("prompts")).len(),
        ),
        (
            "pi.trust.kind.themes",
            crate::i18n::packs::files_with_extension(&pi.join("themes"), "json").len(),
        ),
    ];
    for (key, count) in counted {
        if count > 0 {
            parts.push(crate::i18n::t(key, &[("count", count.into())]));
        }
    }
    if pi.join("settings.json").is_file() {
        parts.push(t!("pi.trust.kind.settings"));
    }
    if pi.join("SYSTEM.md").is_file() || pi.join("APPEND_SYSTEM.md").is_file() {
        parts.push(t!("pi.trust.kind.system_prompt"));
    }
    // Servers the `mcp` extension would start.
    if pi.join("mcp.json").is_file() {
        parts.push(t!("pi.trust.kind.mcp"));
    }
    parts.join(" · ")
}
