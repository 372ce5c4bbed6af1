//! `pi config`: a full-screen list of every resource (extension, skill, prompt template,
//! theme) of the installed packages, global and project, with a check box each. Space
//! enables or disables the resource under the cursor and saves it at once in the settings
//! file that configures the package; Esc, q or Enter leaves. When stdin or stdout is not a
//! terminal the list is printed instead.

use std::io::IsTerminal;
use std::path::Path;

use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::config::paths::agent_dir;
use crate::packages::entries::{ResourceKind, Scope, dedupe};
use crate::packages::error::PackageError;
use crate::packages::manager::PackageManager;
use crate::packages::ops::scope_packages;
use crate::packages::toggle::{ResourceRow, resource_rows, set_enabled};
use crate::t;

/// Why `pi config` could not show or change the list.
#[derive(Debug)]
pub enum ConfigCommandError {
    /// The package settings could not be read.
    Packages(PackageError),
    /// The terminal could not be set up, drawn on or read from.
    Terminal(std::io::Error),
}

impl From<PackageError> for ConfigCommandError {
    fn from(e: PackageError) -> ConfigCommandError {
        ConfigCommandError::Packages(e)
    }
}

impl From<std::io::Error> for ConfigCommandError {
    fn from(e: std::io::Error) -> ConfigCommandError {
        ConfigCommandError::Terminal(e)
    }
}

impl std::fmt::Display for ConfigCommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigCommandError::Packages(e) => e.fmt(f),
            ConfigCommandError::Terminal(e) => f.write_str(&t!(
                "pi.error.config.terminal_failed",
                reason = crate::i18n::config_words::io_reason(e)
            )),
        }
    }
}

impl std::error::Error for ConfigCommandError {}

/// Whether the command line is `pi config`.
pub fn is_config_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|w| w == "config")
}

/// Run `pi config`; returns the exit code.
pub fn run() -> i32 {
    let agent = agent_dir();
    let Ok(cwd) = std::env::current_dir() else {
        eprintln!("{}", t!("pi.config.no_cwd"));
        return 1;
    };
    let rows = match rows(&agent, &cwd) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if rows.is_empty() {
        println!("{}", t!("pi.config.none"));
        return 0;
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        for row in &rows {
            println!("{}", row_text(row));
        }
        return 0;
    }
    match interactive(&agent, &cwd, rows) {
        Ok(()) => 0,
        Err(e) => {
            crate::tui::terminal::restore();
            eprintln!("{e}");
            1
        }
    }
}

fn rows(agent: &Path, cwd: &Path) -> Result<Vec<ResourceRow>, PackageError> {
    let global = scope_packages(agent, cwd, Scope::Global)?;
    let project = scope_packages(agent, cwd, Scope::Project)?;
    let packages = dedupe(project, global);
    let manager = PackageManager::new(agent, cwd, None);
    Ok(resource_rows(&manager, &packages))
}

fn kind_name(kind: ResourceKind) -> String {
    t!(&format!("pi.config.kind.{}", kind.key()))
}

fn row_text(row: &ResourceRow) -> String {
    let mark = if row.enabled { "[x]" } else { "[ ]" };
    let scope = match row.scope {
        Scope::Project => t!("pi.config.scope.project"),
        _ => t!("pi.config.scope.global"),
    };
    format!(
        "{mark} {:<16} {}  {}  ({scope})",
        kind_name(row.kind),
        row.relative,
        row.source
    )
}

fn interactive(
    agent: &Path,
    cwd: &Path,
    mut rows: Vec<ResourceRow>,
) -> Result<(), ConfigCommandError> {
    // A full-screen list of its own: the alternate screen, left as it was on exit.
    crate::tui::terminal::enter(true)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let mut reader =
        crate::ui_kit::keys::reader::TerminalReader::new(crate::tui::terminal::keyboard_enhanced);
    let mut at = 0usize;
    let mut status: Option<String> = None;
    loop {
        terminal.draw(|frame| {
            let area = frame.area();
            let mut lines = vec![
                Line::styled(
                    t!("pi.config.title"),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Line::raw(t!("pi.config.help")),
                Line::raw(""),
            ];
            let room = (area.height as usize).saturating_sub(5).max(1);
            let first = at.saturating_sub(room.saturating_sub(1));
            for (i, row) in rows.iter().enumerate().skip(first).take(room) {
                let cursor = if i == at { "> " } else { "  " };
                let style = if i == at {
                    Style::new().add_modifier(Modifier::REVERSED)
                } else {
                    Style::new()
                };
                lines.push(Line::styled(format!("{cursor}{}", row_text(row)), style));
            }
            if let Some(s) = &status {
                lines.push(Line::raw(""));
                lines.push(Line::raw(s.clone()));
            }
            frame.render_widget(Paragraph::new(lines), area);
        })?;
        let Some(Event::Key(key)) = reader.read(std::time::Duration::from_millis(250))? else {
            continue;
        };
        if key.kind == KeyEventKind::Release {
            continue;
        }
        let ctrl_c =
            key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
        match key.code {
            _ if ctrl_c => break,
            KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q') => break,
            KeyCode::Up | KeyCode::Char('k') => at = at.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => at = (at + 1).min(rows.len() - 1),
            KeyCode::Char(' ') => {
                let row = &mut rows[at];
                let enabled = !row.enabled;
                status = Some(match set_enabled(agent, cwd, row, enabled) {
                    Ok(()) => {
                        row.enabled = enabled;
                        let key = if enabled {
                            "pi.config.enabled"
                        } else {
                            "pi.config.disabled"
                        };
                        t!(key, path = &row.relative)
                    }
                    Err(e) => t!("pi.config.save_failed", error = e.to_string()),
                });
            }
            _ => {}
        }
    }
    crate::tui::terminal::restore();
    Ok(())
}
