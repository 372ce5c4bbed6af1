//! Start-up's project trust step: decide whether this folder's `.pi` resources load, asking
//! once in the terminal when pi runs interactively.

use crate::t;

use std::io::{BufRead, IsTerminal, Write};
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
    let mut store = TrustStore::load(agent_dir);
    let mut ask = || ask_on_terminal(cwd);
    let can_ask = interactive && std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let outcome = decide(
        cwd,
        &mut store,
        flag,
        always_trust,
        can_ask.then_some(&mut ask as &mut dyn FnMut() -> Option<bool>),
    );
    if let Some(problem) = store.unreadable() {
        eprintln!("{}", t!("pi.trust.unreadable", error = problem));
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

/// Ask once, before the terminal UI starts; `None` when the answer is empty or unreadable.
fn ask_on_terminal(cwd: &Path) -> Option<bool> {
    let mut out = std::io::stdout();
    let _ = write!(
        out,
        "{}",
        t!("pi.trust.prompt", path = cwd.display().to_string())
    );
    let _ = out.flush();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).ok()?;
    match line.trim().to_lowercase().as_str() {
        "y" | "yes" => Some(true),
        "n" | "no" => Some(false),
        _ => None,
    }
}
