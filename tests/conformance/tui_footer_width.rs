//! The footer's two lines stay within the terminal width when the session name, the
//! model or the provider are written in double-width characters: the location line is
//! cut with `...`, the stats keep their start and the model side gives way.
//! orig-file: packages/coding-agent/test/footer-width.test.ts

use pi::ai::types::Usage;
use pi::tui::chrome::{FooterInfo, footer_lines};
use pi::ui_kit::theme::Theme;
use ratatui::text::Line;

fn plain(line: &Line) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// orig: FooterComponent width handling › keeps all lines within width for wide session names
#[test]
fn a_wide_session_name_is_cut_to_the_width() {
    let info = FooterInfo {
        cwd: "/srv/project".into(),
        git_branch: Some("main".into()),
        session_name: Some("한글".repeat(30)),
        model_id: "test-model".into(),
        provider: "test".into(),
        context_window: 200_000,
        context_tokens: 24_600,
        ..FooterInfo::default()
    };
    let lines = footer_lines(&info, &Theme::plain(), 93);
    for line in &lines {
        assert!(
            line.width() <= 93,
            "{} > 93: {:?}",
            line.width(),
            plain(line)
        );
    }
    let location = plain(&lines[0]);
    assert!(
        location.starts_with("/srv/project (main) • 한글"),
        "{location:?}"
    );
    assert!(location.ends_with("..."), "{location:?}");
    assert!(
        location.chars().count() < 93,
        "double-width characters count twice"
    );
    assert!(
        plain(&lines[1]).contains("12.3%/200k"),
        "{:?}",
        plain(&lines[1])
    );
}

/// orig: FooterComponent width handling › keeps stats line within width for wide model and provider names
#[test]
fn a_wide_model_and_provider_give_way_to_the_stats() {
    let mut usage = Usage {
        input: 12_345,
        output: 6_789,
        ..Usage::default()
    };
    usage.cost.total = 1.234;
    let info = FooterInfo {
        cwd: "/srv/project".into(),
        model_id: "模".repeat(30),
        provider: "공급자".into(),
        reasoning: true,
        thinking: "high".into(),
        several_providers: true,
        usage,
        context_window: 200_000,
        context_tokens: 24_600,
        ..FooterInfo::default()
    };
    let lines = footer_lines(&info, &Theme::plain(), 60);
    for line in &lines {
        assert!(
            line.width() <= 60,
            "{} > 60: {:?}",
            line.width(),
            plain(line)
        );
    }
    let stats = plain(&lines[1]);
    assert!(
        stats.starts_with("↑12k ↓6.8k $1.234 12.3%/200k"),
        "{stats:?}"
    );
    assert!(
        stats.contains('模'),
        "the model keeps what room is left: {stats:?}"
    );
    // Wide enough, the provider and the whole model show.
    let lines = footer_lines(&info, &Theme::plain(), 140);
    let stats = plain(&lines[1]);
    assert!(
        stats.contains(&format!("(공급자) {}", "模".repeat(30))),
        "{stats:?}"
    );
    assert!(lines[1].width() <= 140);
}
