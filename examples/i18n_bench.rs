//! Times the translation layer: `t()` for a cached key (plain and with a placeholder and a
//! plural), switching locale, switching locale and redrawing a full screen, and parsing every
//! shipped locale pack.
//!
//! Run with `cargo run --release --example i18n_bench`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant;

use pi::agent::agent_loop::AgentQueues;
use pi::agent::events::{AgentEvent, ToolResultPayload};
use pi::ai::types::{AssistantMessage, ContentBlock, Message};
use pi::i18n::{self, Arg};
use pi::tui::app::App;
use pi::tui::app::session_task::UiEvent;
use pi::tui::chrome::FooterInfo;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

fn median_ns(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    samples[samples.len() / 2]
}

/// Median nanoseconds per call of `f`, over 51 batches of `batch` calls.
fn per_call(batch: u32, mut f: impl FnMut()) -> f64 {
    let samples = (0..51)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(batch)
        })
        .collect();
    median_ns(samples)
}

/// An app whose transcript holds 20 answers and 60 tool rows (bash, read, edit).
fn busy_app() -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        model_id: "claude-sonnet-4-5".into(),
        provider: "anthropic".into(),
        reasoning: true,
        thinking: "off".into(),
        context_window: 200_000,
        ..FooterInfo::default()
    };
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    );
    let mut event = |e| app.handle_ui_event(UiEvent::Agent(Box::new(e)));
    for turn in 0..20 {
        let mut answer = AssistantMessage::empty("anthropic-messages", "anthropic", "m");
        answer.content.push(ContentBlock::text(format!(
            "Step {turn}: **read** the file, then `cargo test`.\n\n- one\n- two"
        )));
        event(AgentEvent::MessageEnd {
            message: Message::Assistant(answer),
        });
        for (i, (tool, args)) in [
            ("bash", json!({"command": "cargo test"})),
            ("read", json!({"path": "src/main.rs"})),
            ("edit", json!({"path": "src/lib.rs"})),
        ]
        .into_iter()
        .enumerate()
        {
            let id = format!("call_{turn}_{i}");
            event(AgentEvent::ToolExecutionStart {
                tool_call_id: id.clone(),
                tool_name: tool.into(),
                args,
            });
            event(AgentEvent::ToolExecutionEnd {
                tool_call_id: id,
                tool_name: tool.into(),
                result: ToolResultPayload {
                    content: vec![ContentBlock::text("line 1\nline 2\nline 3")],
                    details: Some(json!({"exitCode": 0})),
                },
                is_error: false,
            });
        }
    }
    app
}

/// Median microseconds to switch locale and redraw a 120x40 screen of `busy_app`.
fn switch_and_redraw_us() -> f64 {
    let mut app = busy_app();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| pi::tui::view::draw(f, &mut app)).unwrap();
    let mut tags = ["zh-TW", "en"].iter().cycle();
    let samples = (0..51)
        .map(|_| {
            let start = Instant::now();
            i18n::set_locale(tags.next().unwrap());
            terminal.draw(|f| pi::tui::view::draw(f, &mut app)).unwrap();
            start.elapsed().as_nanos() as f64 / 1000.0
        })
        .collect();
    i18n::set_locale("en");
    median_ns(samples)
}

fn main() {
    let key = "pi.lang.title";
    let plain = per_call(20_000, || {
        black_box(i18n::t(black_box(key), &[]));
    });
    let with_args = per_call(20_000, || {
        black_box(i18n::t(
            black_box("pi.lang.current"),
            &[("name", Arg::from("English")), ("tag", Arg::from("en"))],
        ));
    });
    let missing = per_call(20_000, || {
        black_box(i18n::t(black_box("pi.no.such.key"), &[]));
    });
    let load = per_call(20, || {
        black_box(i18n::builtin_registry("zh-TW"));
    });
    let switch = per_call(200, || {
        i18n::set_locale(black_box("zh-TW"));
        i18n::set_locale(black_box("en"));
    }) / 2.0;
    let redraw = switch_and_redraw_us();
    println!("t() cached key:            {plain:>10.0} ns (target <= 150 ns)");
    println!("t() with two placeholders: {with_args:>10.0} ns");
    println!("t() unknown key:           {missing:>10.0} ns");
    println!("switch locale:             {:>10.1} us", switch / 1000.0);
    println!(
        "switch locale + redraw:    {:>10.2} ms (target <= 16 ms)",
        redraw / 1000.0
    );
    println!(
        "load all shipped locales:  {:>10.2} ms (target <= 3 ms)",
        load / 1e6
    );
}
