//! Screen chrome: the header (logo and key hints), the footer (cwd, branch,
//! session, tokens, cost, context, model) and the working indicator.

pub mod dialog;
pub mod extension;
pub mod extension_ui;
pub mod header;
pub mod lua_surfaces;
pub mod select_list;

pub use header::{APP_NAME, LoadedItem, LoadedResources, ResourceGroup, extension_label};

#[cfg(test)]
mod lua_surfaces_tests;

use crate::t;

use std::path::{Path, PathBuf};
use std::time::Duration;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::ai::types::Usage;
use crate::ui_kit::text::{tilde_path, truncate, width};
use crate::ui_kit::theme::Theme;

/// What the footer shows.
#[derive(Debug, Clone, Default)]
pub struct FooterInfo {
    /// Working directory.
    pub cwd: PathBuf,
    /// Current git branch.
    pub git_branch: Option<String>,
    /// Session name (`/name`).
    pub session_name: Option<String>,
    /// Summed usage of the session.
    pub usage: Usage,
    /// Tokens in the current context.
    pub context_tokens: u64,
    /// The model's context window.
    pub context_window: u64,
    /// Model id.
    pub model_id: String,
    /// Model provider.
    pub provider: String,
    /// The model supports thinking levels.
    pub reasoning: bool,
    /// Current thinking level.
    pub thinking: String,
    /// More than one provider is configured (the provider is shown).
    pub several_providers: bool,
    /// Automatic compaction is on: ` (auto)` follows the context use.
    pub auto_compact: bool,
    /// The sandbox mode, when it is not `full` (shown after the location).
    pub sandbox: Option<String>,
}

/// Compact token count: 999, 1.2k, 45k, 1.2M.
pub fn format_tokens(count: u64) -> String {
    match count {
        c if c < 1000 => c.to_string(),
        c if c < 10_000 => format!("{:.1}k", c as f64 / 1000.0),
        c if c < 1_000_000 => format!("{}k", (c as f64 / 1000.0).round()),
        c if c < 10_000_000 => format!("{:.1}M", c as f64 / 1e6),
        c => format!("{}M", (c as f64 / 1e6).round()),
    }
}

/// The two footer lines, never wider than `max`.
pub fn footer_lines(info: &FooterInfo, theme: &Theme, max: usize) -> Vec<Line<'static>> {
    let dim = theme.fg("dim");
    let mut location = tilde_path(&info.cwd);
    if let Some(branch) = &info.git_branch {
        location = format!("{location} ({branch})");
    }
    if let Some(name) = &info.session_name {
        location = format!("{location} • {name}");
    }
    if let Some(mode) = &info.sandbox {
        location = format!(
            "{location} • {}",
            t!("pi.sandbox.footer", mode = mode.as_str())
        );
    }
    let location = truncate(&crate::ui_kit::text::sanitize(&location), max, "...");

    let u = &info.usage;
    let mut stats = Vec::new();
    if u.input > 0 {
        stats.push(format!("↑{}", format_tokens(u.input)));
    }
    if u.output > 0 {
        stats.push(format!("↓{}", format_tokens(u.output)));
    }
    if u.cache_read > 0 {
        stats.push(format!("R{}", format_tokens(u.cache_read)));
    }
    if u.cache_write > 0 {
        stats.push(format!("W{}", format_tokens(u.cache_write)));
    }
    if u.cost.total > 0.0 {
        stats.push(format!("${:.3}", u.cost.total));
    }
    let percent = if info.context_window > 0 {
        info.context_tokens as f64 * 100.0 / info.context_window as f64
    } else {
        0.0
    };
    let mut context = format!("{percent:.1}%/{}", format_tokens(info.context_window));
    if info.auto_compact {
        context = format!("{context} {}", t!("pi.tui.footer.auto_compact"));
    }
    let context_style = if percent > 90.0 {
        theme.fg("error")
    } else if percent > 70.0 {
        theme.fg("warning")
    } else {
        dim
    };
    let left_plain = if stats.is_empty() {
        String::new()
    } else {
        format!("{} ", stats.join(" "))
    };
    let left_width = width(&left_plain) + width(&context);
    let mut left: Vec<Span<'static>> = if left_width > max {
        vec![Span::styled(
            truncate(&format!("{left_plain}{context}"), max, "..."),
            dim,
        )]
    } else {
        vec![
            Span::styled(left_plain, dim),
            Span::styled(context, context_style),
        ]
    };
    let left_width = left_width.min(max);

    let model = if info.model_id.is_empty() {
        t!("pi.tui.footer.no_model")
    } else {
        info.model_id.clone()
    };
    let plain_right = if !info.reasoning {
        model
    } else if info.thinking == "off" {
        t!("pi.tui.footer.thinking_off", model = model)
    } else {
        format!(
            "{model} • {}",
            crate::tui::panels::settings::value_label(&info.thinking)
        )
    };
    let mut right = plain_right.clone();
    if info.several_providers && !info.provider.is_empty() {
        right = format!("({}) {plain_right}", info.provider);
        if left_width + 2 + width(&right) > max {
            right = plain_right;
        }
    }
    let room = max.saturating_sub(left_width + 2);
    if room > 0 {
        let right = truncate(&right, room, "");
        let pad = max - left_width - width(&right);
        left.push(Span::styled(format!("{}{right}", " ".repeat(pad)), dim));
    }
    let mut lines = vec![Line::from(Span::styled(location, dim)), Line::from(left)];
    if info.provider == crate::ai::providers::demo::DEMO_PROVIDER {
        let note = t!("pi.tui.demo_note");
        lines.push(Line::from(Span::styled(
            truncate(&note, max, "…"),
            theme.fg("warning"),
        )));
    }
    let locale = crate::i18n::current_locale();
    if crate::i18n::languages::is_rtl(&locale) {
        let note = t!("pi.tui.footer.rtl_unsupported", tag = locale);
        lines.push(Line::from(Span::styled(
            truncate(&note, max, "…"),
            theme.fg("warning"),
        )));
    }
    lines
}

/// What the working line says while a reply is waited for: the countdown to a retry,
/// the connection being made, or the first byte awaited (after a second of it, so quick
/// answers do not flicker); `None` while nothing is waited for.
pub fn waiting_label(retry_in: Option<u64>, interrupt_key: &str) -> Option<String> {
    if let Some(seconds) = retry_in {
        return Some(t!(
            "pi.tui.working.retrying",
            seconds = seconds,
            key = interrupt_key
        ));
    }
    let progress = crate::ai::wait::progress()?;
    let seconds = progress.since.elapsed().as_secs();
    if seconds == 0 {
        return None;
    }
    let key = match progress.waiting {
        crate::ai::wait::Waiting::Connecting => "pi.tui.working.connecting",
        crate::ai::wait::Waiting::FirstByte => "pi.tui.working.first_byte",
    };
    Some(t!(
        key,
        host = progress.host,
        seconds = seconds,
        key = interrupt_key
    ))
}

/// The "Working..." line with a spinner and elapsed time, or `label` instead of the
/// default text.
pub fn working_line(
    elapsed: Duration,
    interrupt_key: &str,
    label: Option<String>,
    theme: &Theme,
    max: usize,
) -> Line<'static> {
    const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
    let frame = FRAMES[(elapsed.as_millis() / 80) as usize % FRAMES.len()];
    let text = label.unwrap_or_else(|| {
        t!(
            "pi.tui.working",
            seconds = elapsed.as_secs(),
            key = interrupt_key
        )
    });
    let text = truncate(&text, max.saturating_sub(3), "…");
    Line::from(vec![
        Span::raw(" "),
        Span::styled(frame, theme.fg("accent")),
        Span::raw(" "),
        Span::styled(text, theme.fg("muted")),
    ])
}

/// A horizontal rule for the editor border.
pub fn rule(max: usize, style: Style) -> Line<'static> {
    Line::from(Span::styled("─".repeat(max), style))
}

/// The current git branch of the repository containing `dir`, if any.
pub fn git_branch(dir: &Path) -> Option<String> {
    let mut current = Some(dir);
    while let Some(d) = current {
        let git = d.join(".git");
        let head_file = if git.is_dir() {
            git.join("HEAD")
        } else if git.is_file() {
            let pointer = std::fs::read_to_string(&git).ok()?;
            let target = pointer.strip_prefix("gitdir:")?.trim();
            d.join(target).join("HEAD")
        } else {
            current = d.parent();
            continue;
        };
        let head = std::fs::read_to_string(head_file).ok()?;
        let head = head.trim();
        return Some(match head.strip_prefix("ref: refs/heads/") {
            Some(branch) => branch.to_string(),
            None => "detached".to_string(),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui_kit::text::plain_lines as plain;

    #[test]
    fn token_formatting_matches_the_footer_style() {
        assert_eq!(format_tokens(999), "999");
        assert_eq!(format_tokens(1234), "1.2k");
        assert_eq!(format_tokens(45_600), "46k");
        assert_eq!(format_tokens(2_500_000), "2.5M");
    }

    #[test]
    fn footer_fits_every_width_down_to_twenty() {
        let mut info = FooterInfo {
            cwd: PathBuf::from("/very/long/path/to/some/deeply/nested/project/directory"),
            git_branch: Some("feature/footer".into()),
            session_name: Some("日本語のセッション名".into()),
            context_tokens: 5000,
            context_window: 200_000,
            model_id: "claude-sonnet-4-5".into(),
            provider: "anthropic".into(),
            reasoning: true,
            thinking: "medium".into(),
            ..FooterInfo::default()
        };
        info.usage.input = 1200;
        info.usage.output = 340;
        info.usage.cost.total = 0.0123;
        for w in 20..=100 {
            for line in footer_lines(&info, &Theme::plain(), w) {
                assert!(line.width() <= w, "{w}: {line:?}");
            }
        }
        let wide = plain(&footer_lines(&info, &Theme::plain(), 80));
        assert!(
            wide[1].starts_with("↑1.2k ↓340 $0.012 2.5%/200k"),
            "{}",
            wide[1]
        );
        assert!(wide[1].ends_with("claude-sonnet-4-5 • medium"));
        info.auto_compact = true;
        let wide = plain(&footer_lines(&info, &Theme::plain(), 80));
        assert!(wide[1].contains(" 2.5%/200k (auto) "), "{}", wide[1]);
    }

    #[test]
    fn a_confined_sandbox_mode_is_named_after_the_location() {
        let mut info = FooterInfo {
            cwd: PathBuf::from("/p"),
            ..FooterInfo::default()
        };
        let plain_footer = plain(&footer_lines(&info, &Theme::plain(), 80));
        assert!(!plain_footer[0].contains("sandbox"), "{}", plain_footer[0]);
        info.sandbox = Some("workspace-write".into());
        let shown = plain(&footer_lines(&info, &Theme::plain(), 80));
        assert_eq!(shown[0], "/p • sandbox: workspace-write");
    }

    #[test]
    fn the_demo_model_adds_a_line_on_adding_a_key() {
        let info = FooterInfo {
            model_id: "demo".into(),
            provider: crate::ai::providers::demo::DEMO_PROVIDER.into(),
            ..FooterInfo::default()
        };
        for w in 20..=140 {
            let lines = footer_lines(&info, &Theme::plain(), w);
            assert_eq!(lines.len(), 3);
            assert!(lines.iter().all(|l| l.width() <= w), "{w}");
        }
        let wide = plain(&footer_lines(&info, &Theme::plain(), 140));
        assert!(
            wide[2].contains("scripted") && wide[2].contains("/login"),
            "{}",
            wide[2]
        );
        let normal = FooterInfo {
            model_id: "m".into(),
            provider: "anthropic".into(),
            ..FooterInfo::default()
        };
        assert_eq!(footer_lines(&normal, &Theme::plain(), 80).len(), 2);
    }
}
