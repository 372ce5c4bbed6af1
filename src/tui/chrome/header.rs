//! The start-up header: logo, key hints, and what was loaded (context files, skills,
//! prompt templates, extensions). Collapsed it shows one line of hints and short lists;
//! expanded (Ctrl+O) every key and each resource's path, grouped by where it came from.

use crate::t;

use std::path::Path;

use ratatui::text::{Line, Span};

use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{tilde_path, truncate, width, wrap_line};
use crate::ui_kit::theme::Theme;

/// The application name in the header.
pub const APP_NAME: &str = "pi";

/// Where a loaded resource came from, as the expanded listing groups it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ResourceGroup {
    /// The project's `.pi` folder or its settings.
    Project,
    /// The agent folder (`~/.pi/agent`) or the user's settings.
    User,
    /// Named on the command line or installed for this run only.
    Path,
}

impl ResourceGroup {
    /// The group of a resource with pi's `source` (`auto`, `local`, `cli`, a package
    /// source) and `scope` (`user`, `project`, `temporary`).
    pub fn of(source: &str, scope: &str) -> Self {
        match (source, scope) {
            ("cli", _) | (_, "temporary") => ResourceGroup::Path,
            (_, "user") => ResourceGroup::User,
            (_, "project") => ResourceGroup::Project,
            _ => ResourceGroup::Path,
        }
    }

    fn label(self) -> String {
        match self {
            ResourceGroup::Project => t!("pi.tui.header.scope_project"),
            ResourceGroup::User => t!("pi.tui.header.scope_user"),
            ResourceGroup::Path => t!("pi.tui.header.scope_path"),
        }
    }
}

/// One loaded resource as the header names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedItem {
    /// Its name in the collapsed list (`deploy`, `/review`, `todo.lua`).
    pub label: String,
    /// Its line in the expanded list: a path (a prompt shows its `/name`).
    pub detail: String,
    /// Where it came from.
    pub group: ResourceGroup,
    /// The package (`npm:…`, `git:…`) it belongs to; `detail` is then relative to it.
    pub package: Option<String>,
}

impl LoadedItem {
    /// A resource from `path`, found with pi's `source` and `scope`; a package's
    /// resource is shown relative to the package's `root`.
    pub fn new(label: String, path: &Path, source: &str, scope: &str, root: Option<&Path>) -> Self {
        let package =
            (source.starts_with("npm:") || source.starts_with("git:")).then(|| source.to_string());
        let detail = match (&package, root.and_then(|r| path.strip_prefix(r).ok())) {
            (Some(_), Some(relative)) if !relative.as_os_str().is_empty() => {
                relative.display().to_string()
            }
            _ => tilde_path(path),
        };
        LoadedItem {
            label,
            detail,
            group: ResourceGroup::of(source, scope),
            package,
        }
    }
}

/// What was loaded at start-up, listed under the header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadedResources {
    /// Context files (`AGENTS.md`, `CLAUDE.md`): (short form, full path), in load order.
    pub context: Vec<(String, String)>,
    /// Skills.
    pub skills: Vec<LoadedItem>,
    /// Prompt templates (label `/name`).
    pub prompts: Vec<LoadedItem>,
    /// Extension entry files.
    pub extensions: Vec<LoadedItem>,
}

impl LoadedResources {
    /// The context files as listed: inside `cwd` relative to it, elsewhere as a
    /// `~` path.
    pub fn context_entries(paths: &[std::path::PathBuf], cwd: &Path) -> Vec<(String, String)> {
        paths
            .iter()
            .map(|path| {
                let short = match path.strip_prefix(cwd) {
                    Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
                    Ok(rel) => rel.display().to_string(),
                    Err(_) => tilde_path(path),
                };
                (short, tilde_path(path))
            })
            .collect()
    }
}

/// How an extension entry file is named in the collapsed list: its file name, with its
/// folder for a folder extension's `init.lua`/`index.lua`.
pub fn extension_label(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    match (path.file_stem().and_then(|s| s.to_str()), path.parent()) {
        (Some("init" | "index"), Some(dir)) => match dir.file_name() {
            Some(folder) => format!("{}/{name}", folder.to_string_lossy()),
            None => name,
        },
        _ => name,
    }
}

/// What the header shows.
pub struct HeaderOptions<'a> {
    /// `quietStartup`: no header at all.
    pub quiet: bool,
    /// Ctrl+O: every key and every resource's path.
    pub expanded: bool,
    /// The key list of the expanded header.
    pub key_help: Vec<Line<'static>>,
    /// What was loaded.
    pub resources: &'a LoadedResources,
}

/// The header's lines at `max` columns.
pub fn header_lines(
    kb: &Keybindings,
    theme: &Theme,
    max: usize,
    options: HeaderOptions<'_>,
) -> Vec<Line<'static>> {
    if options.quiet {
        return Vec::new();
    }
    let logo = Line::from(vec![
        Span::raw(" "),
        Span::styled(APP_NAME, theme.bold("accent")),
        Span::styled(format!(" v{}", env!("CARGO_PKG_VERSION")), theme.fg("dim")),
    ]);
    let mut lines = vec![Line::default(), logo];
    let expand_key = kb.keys_text("app.tools.expand");
    if options.expanded {
        lines.extend(options.key_help);
    } else {
        lines.push(hint_line(kb, theme, max));
        if !expand_key.is_empty() {
            let press = t!("pi.tui.header.press_for_more", key = expand_key);
            lines.extend(dim_lines(&press, theme, max));
        }
    }
    lines.push(Line::default());
    lines.extend(dim_lines(&t!("pi.tui.header.onboarding"), theme, max));
    lines.push(Line::default());
    resource_lines(&mut lines, options.resources, options.expanded, theme, max);
    lines
}

/// The compact key hints, as many as fit.
fn hint_line(kb: &Keybindings, theme: &Theme, max: usize) -> Line<'static> {
    let hints = [
        (kb.keys_text("app.interrupt"), t!("pi.tui.header.interrupt")),
        (
            format!("{}/{}", kb.keys_text("app.clear"), kb.keys_text("app.exit")),
            t!("pi.tui.header.clear_exit"),
        ),
        ("/".to_string(), t!("pi.tui.header.commands")),
        ("!".to_string(), t!("pi.tui.header.bash")),
        (kb.keys_text("app.tools.expand"), t!("pi.tui.header.more")),
    ];
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    for (key, what) in hints.iter().filter(|(key, _)| !key.is_empty()) {
        let sep = if used == 1 { "" } else { " · " };
        let piece = width(sep) + width(key) + 1 + width(what.as_str());
        if used + piece > max {
            break;
        }
        used += piece;
        spans.push(Span::styled(sep, theme.fg("muted")));
        spans.push(Span::styled(key.clone(), theme.fg("dim")));
        spans.push(Span::styled(format!(" {what}"), theme.fg("muted")));
    }
    Line::from(spans)
}

/// `text` dimmed, one column in, wrapped to `max`.
fn dim_lines(text: &str, theme: &Theme, max: usize) -> Vec<Line<'static>> {
    wrap_line(text, max.saturating_sub(1))
        .into_iter()
        .map(|row| Line::from(vec![Span::raw(" "), Span::styled(row, theme.fg("dim"))]))
        .collect()
}

/// The loaded-resource sections, each followed by a blank line; empty ones are left out.
fn resource_lines(
    lines: &mut Vec<Line<'static>>,
    resources: &LoadedResources,
    expanded: bool,
    theme: &Theme,
    max: usize,
) {
    let heading = |lines: &mut Vec<Line<'static>>, key: &str| {
        let title = format!("[{}]", crate::i18n::t(key, &[]));
        lines.push(Line::from(Span::styled(title, theme.fg("mdHeading"))));
    };
    let indented = |text: &str, depth: usize, style| {
        let pad = "  ".repeat(depth);
        let shown = truncate(text, max.saturating_sub(pad.len()), "…");
        Line::from(Span::styled(format!("{pad}{shown}"), style))
    };
    if !resources.context.is_empty() {
        heading(lines, "pi.tui.header.context");
        if expanded {
            for (_, full) in &resources.context {
                lines.push(indented(full, 1, theme.fg("dim")));
            }
        } else {
            let short: Vec<&str> = resources.context.iter().map(|(s, _)| s.as_str()).collect();
            lines.push(indented(&short.join(", "), 1, theme.fg("dim")));
        }
        lines.push(Line::default());
    }
    let sections = [
        ("pi.tui.header.skills", &resources.skills),
        ("pi.tui.header.prompts", &resources.prompts),
        ("pi.tui.header.extensions", &resources.extensions),
    ];
    for (key, items) in sections.into_iter().filter(|(_, items)| !items.is_empty()) {
        heading(lines, key);
        if expanded {
            for group in [
                ResourceGroup::Project,
                ResourceGroup::User,
                ResourceGroup::Path,
            ] {
                grouped_lines(lines, items, group, theme, &indented);
            }
        } else {
            let mut labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
            labels.sort_by_key(|l| l.to_lowercase());
            lines.push(indented(&labels.join(", "), 1, theme.fg("dim")));
        }
        lines.push(Line::default());
    }
}

/// One group of an expanded section: its name, its own files, then each package
/// with its files.
fn grouped_lines(
    lines: &mut Vec<Line<'static>>,
    items: &[LoadedItem],
    group: ResourceGroup,
    theme: &Theme,
    indented: &dyn Fn(&str, usize, ratatui::style::Style) -> Line<'static>,
) {
    let mut members: Vec<&LoadedItem> = items.iter().filter(|i| i.group == group).collect();
    if members.is_empty() {
        return;
    }
    members.sort_by(|a, b| (&a.package, &a.detail).cmp(&(&b.package, &b.detail)));
    lines.push(indented(&group.label(), 1, theme.fg("accent")));
    let mut package: Option<&str> = None;
    for item in members {
        match item.package.as_deref() {
            None => lines.push(indented(&item.detail, 2, theme.fg("dim"))),
            Some(source) => {
                if package != Some(source) {
                    lines.push(indented(source, 2, theme.fg("mdLink")));
                    package = Some(source);
                }
                lines.push(indented(&item.detail, 3, theme.fg("dim")));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui_kit::text::plain_lines as plain;
    use std::path::PathBuf;

    fn item(label: &str, path: &str, source: &str, scope: &str) -> LoadedItem {
        LoadedItem::new(
            label.into(),
            Path::new(path),
            source,
            scope,
            Some(Path::new("/pkg")),
        )
    }

    fn resources() -> LoadedResources {
        LoadedResources {
            context: LoadedResources::context_entries(
                &[
                    PathBuf::from("/agent/AGENTS.md"),
                    PathBuf::from("/proj/AGENTS.md"),
                ],
                Path::new("/proj"),
            ),
            skills: vec![
                item("zeta", "/agent/skills/zeta/SKILL.md", "auto", "user"),
                item(
                    "deploy",
                    "/proj/.pi/skills/deploy/SKILL.md",
                    "auto",
                    "project",
                ),
                item(
                    "lint",
                    "/pkg/skills/lint/SKILL.md",
                    "npm:@acme/tools",
                    "user",
                ),
            ],
            prompts: vec![item("/review", "/review", "cli", "temporary")],
            extensions: vec![item(
                &extension_label(Path::new("/x/i18n-hello/init.lua")),
                "/x/i18n-hello/init.lua",
                "auto",
                "project",
            )],
        }
    }

    fn text(expanded: bool, resources: &LoadedResources) -> String {
        let kb = Keybindings::default();
        let options = HeaderOptions {
            quiet: false,
            expanded,
            key_help: vec![Line::from(" KEYS")],
            resources,
        };
        plain(&header_lines(&kb, &Theme::plain(), 120, options)).join("\n")
    }

    #[test]
    fn the_collapsed_header_lists_short_names_and_says_how_to_see_more() {
        let text = text(false, &resources());
        assert!(text.contains("! bash · ctrl+o more"), "{text}");
        assert!(text.contains("ctrl+o shows every key"), "{text}");
        assert!(!text.contains("KEYS"), "{text}");
        assert!(
            text.contains("[Context]\n  /agent/AGENTS.md, AGENTS.md\n\n"),
            "{text}"
        );
        assert!(
            text.contains("[Skills]\n  deploy, lint, zeta\n\n"),
            "{text}"
        );
        assert!(text.contains("[Prompts]\n  /review\n"), "{text}");
        assert!(
            text.contains("[Extensions]\n  i18n-hello/init.lua\n"),
            "{text}"
        );
    }

    #[test]
    fn the_expanded_header_lists_keys_and_paths_by_origin() {
        let text = text(true, &resources());
        assert!(text.contains(" pi v") && text.contains("KEYS"), "{text}");
        assert!(!text.contains("ctrl+o more"), "{text}");
        assert!(
            text.contains("[Context]\n  /agent/AGENTS.md\n  /proj/AGENTS.md\n"),
            "{text}"
        );
        let skills = "[Skills]\n  project\n    /proj/.pi/skills/deploy/SKILL.md\n  user\n    \
                      /agent/skills/zeta/SKILL.md\n    npm:@acme/tools\n      skills/lint/SKILL.md\n";
        assert!(text.contains(skills), "{text}");
        assert!(text.contains("[Prompts]\n  path\n    /review\n"), "{text}");
    }

    #[test]
    fn empty_sections_are_left_out_and_quiet_start_up_shows_nothing() {
        let bare = text(false, &LoadedResources::default());
        assert!(!bare.contains('['), "{bare}");
        let kb = Keybindings::default();
        let quiet = HeaderOptions {
            quiet: true,
            expanded: false,
            key_help: Vec::new(),
            resources: &LoadedResources::default(),
        };
        assert!(header_lines(&kb, &Theme::plain(), 100, quiet).is_empty());
    }

    #[test]
    fn resources_are_grouped_by_source_and_scope() {
        assert_eq!(ResourceGroup::of("cli", "user"), ResourceGroup::Path);
        assert_eq!(ResourceGroup::of("auto", "temporary"), ResourceGroup::Path);
        assert_eq!(ResourceGroup::of("local", "user"), ResourceGroup::User);
        assert_eq!(
            ResourceGroup::of("git:github.com/a/b", "project"),
            ResourceGroup::Project
        );
    }
}
