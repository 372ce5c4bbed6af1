use super::*;
use crate::ui_kit::text::plain_lines as plain;

fn options(width: usize) -> RenderOptions {
    RenderOptions {
        width,
        tools_expanded: false,
        thinking_expanded: false,
        expand_key: "ctrl+o".into(),
        hidden_thinking_label: None,
        images: Default::default(),
    }
}

#[test]
fn streaming_text_commits_markdown_at_line_boundaries() {
    let item = Item::Assistant {
        text: "**bold** done\n**half".into(),
        thinking: "secret plan".into(),
        streaming: true,
        error: None,
        aborted: false,
    };
    let out = plain(&render_item(&item, &options(40), &Theme::plain()));
    assert_eq!(out, vec!["", " Thinking...", "", " bold done", " **half"]);
}

#[test]
fn streaming_markdown_keeps_settled_paragraphs_and_matches_a_whole_render() {
    let theme = Theme::plain();
    let mut memo = MarkdownMemo::default();
    let mut source = String::new();
    let mut parts = Vec::new();
    for i in 0..40 {
        parts.push(format!(
            "Paragraph {i} with **bold** words that wrap around.\n\n"
        ));
    }
    parts.push("```\nfn a() {}\n\nfn b() {}\n```\n\n".into());
    parts.push("- one\n- two\n\nlast line\n".into());
    for part in &parts {
        source.push_str(part);
        memo.render(&source, 30, &theme);
    }
    let text = |lines: Vec<Line<'static>>| -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    };
    assert_eq!(
        text(memo.render(&source, 30, &theme)),
        text(render_markdown(&source, 30, &theme))
    );
    // Only the growing paragraph is left to render again.
    assert_eq!(memo.rest, "last line\n");
    assert_eq!(settled_paragraphs("```\na\n\nb"), None);
    assert_eq!(settled_paragraphs("a\n\nb"), Some(3));
}

#[test]
fn a_long_transcript_lays_out_only_the_tail_it_shows() {
    let mut t = Transcript::default();
    for i in 0..500 {
        t.push(Item::User {
            text: format!("question {i}"),
        });
    }
    let mut cache = RenderCache::default();
    let (have, whole) = cache.update_tail(&t, &options(30), &Theme::plain(), 10);
    assert!(!whole);
    assert!((10..20).contains(&have), "{have}");
    let rendered = cache
        .entries
        .iter()
        .filter(|(rev, _)| rev.is_some())
        .count();
    assert!(rendered <= 5, "{rendered} items laid out");
    let shown: Vec<String> = cache
        .window(have, 3)
        .iter()
        .map(|l| l.to_string())
        .collect();
    assert!(
        shown.iter().any(|l| l.contains("question 499")),
        "{shown:?}"
    );
    let (all, whole) = cache.update_tail(&t, &options(30), &Theme::plain(), usize::MAX);
    assert!(whole);
    assert_eq!(all, cache.update(&t, &options(30), &Theme::plain()));
}

#[test]
fn cache_rerenders_only_changed_items() {
    let mut t = Transcript::new();
    t.push(Item::User { text: "hi".into() });
    let mut cache = RenderCache::default();
    let first = cache.lines(&t, &options(30), &Theme::plain());
    t.notice("note", NoticeKind::Error);
    let second = cache.lines(&t, &options(30), &Theme::plain());
    assert_eq!(&second[..first.len()], &first[..]);
    assert_eq!(plain(&second).last().unwrap(), " note");
    let total = cache.update(&t, &options(30), &Theme::plain());
    assert_eq!(total, second.len());
    assert_eq!(
        cache.window(total - 1, 2),
        second[total - 3..total - 1].to_vec()
    );
}
