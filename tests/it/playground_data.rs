//! The playground's own data, shipped as files: the agent definitions, teams and
//! chains the orchestration extensions use, the seed themes each extension opens
//! in, and the TOML support extensions and locale packs get.

use crate::support::fake_ui;
use crate::support::playground;

use fake_ui::FakeUi;
use pi::lua::SharedView;
use playground::*;
use serde_json::json;

fn agents_dir() -> std::path::PathBuf {
    playground("agents")
}

fn statuses(ui: &FakeUi, key: &str) -> Vec<String> {
    ui.calls("setStatus")
        .iter()
        .filter(|s| s["statusKey"] == key)
        .map(|s| s["statusText"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn eighteen_agent_files_five_teams_and_five_chains_ship_as_files() {
    let md = |dir: std::path::PathBuf| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().to_string_lossy().into_owned();
                name.strip_suffix(".md").map(String::from)
            })
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        md(agents_dir()),
        [
            "bowser",
            "builder",
            "documenter",
            "plan-reviewer",
            "planner",
            "red-team",
            "reviewer",
            "scout"
        ]
    );
    let experts = md(agents_dir().join("pi-pi"));
    assert_eq!(experts.len(), 10, "{experts:?}");
    assert!(experts.contains(&"pi-orchestrator".to_string()));
    for name in [
        "agent",
        "cli",
        "config",
        "ext",
        "keybinding",
        "prompt",
        "skill",
        "theme",
        "tui",
    ] {
        assert!(experts.contains(&format!("{name}-expert")), "{name}");
    }
    // Every file's frontmatter is YAML with a name and a description.
    for dir in [agents_dir(), agents_dir().join("pi-pi")] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                let doc =
                    pi::resources::frontmatter::parse(&std::fs::read_to_string(&path).unwrap())
                        .unwrap();
                assert!(
                    doc.fields.contains_key("name") && doc.fields.contains_key("description"),
                    "{path:?}"
                );
                assert!(!doc.body.is_empty(), "{path:?}");
            }
        }
    }
    let teams: serde_json::Value =
        serde_norway::from_str(&std::fs::read_to_string(agents_dir().join("teams.yaml")).unwrap())
            .unwrap();
    let names: Vec<&String> = teams.as_object().unwrap().keys().collect();
    assert_eq!(names, ["full", "plan-build", "info", "frontend", "pi-pi"]);
    let chains: serde_json::Value = serde_norway::from_str(
        &std::fs::read_to_string(agents_dir().join("agent-chain.yaml")).unwrap(),
    )
    .unwrap();
    let names: Vec<&String> = chains.as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        [
            "plan-build-review",
            "plan-build",
            "scout-flow",
            "plan-review-plan",
            "full-review"
        ]
    );
}

#[tokio::test]
async fn agent_team_opens_the_first_bundled_team_as_a_card_grid_with_progress_bars() {
    let dir = tempfile::tempdir().unwrap();
    let ui = FakeUi::new(vec![json!({"value": "info — Scout, Documenter, Reviewer"})]);
    let (h, store) = load(
        &["agent-team.lua"],
        SharedView::new(dir.path()),
        Some(ui.clone()),
    )
    .await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    assert_eq!(
        statuses(&ui, "agent-team").last().unwrap(),
        "Team: full (6)"
    );
    let lines = widget(&store, "agent-team").await;
    assert_eq!(lines[0], "Team full · 6 agents");
    assert_eq!(
        lines.len(),
        1 + 2 * 6,
        "two rows of three cards: {lines:#?}"
    );
    // Three cards side by side, each framed, named, with a state and a bar.
    assert_eq!(lines[1].matches('┌').count(), 3, "{lines:#?}");
    assert!(
        lines[2].contains("Scout") && lines[2].contains("Planner") && lines[2].contains("Builder")
    );
    assert_eq!(lines[3].matches("○ idle").count(), 3, "{lines:#?}");
    assert_eq!(lines[4].matches("[-----] 0%").count(), 3, "{lines:#?}");
    assert!(
        lines[8].contains("Reviewer")
            && lines[8].contains("Documenter")
            && lines[8].contains("Red Team")
    );
    assert!(lines.iter().all(|l| l.chars().count() <= 80));

    h.run_command("agents-team", "").await.unwrap();
    let options = ui.calls("select")[0]["options"].as_array().unwrap().len();
    assert_eq!(options, 5, "the five bundled teams");
    let lines = until(&store, "the info team", |s| {
        s.widgets
            .get("agent-team")
            .map(|w| plain(&w.1[0]))
            .filter(|l| l.contains("info"))
    })
    .await;
    assert_eq!(lines, "Team info · 3 agents");
    let grid = widget(&store, "agent-team").await;
    assert_eq!(grid.len(), 1 + 6, "three members fit one row");
}

#[tokio::test]
async fn agent_chain_and_pi_pi_use_the_bundled_chains_and_experts() {
    let dir = tempfile::tempdir().unwrap();
    let ui = FakeUi::new(vec![]);
    let (h, _) = load(
        &["agent-chain.lua"],
        SharedView::new(dir.path()),
        Some(ui.clone()),
    )
    .await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    assert_eq!(
        statuses(&ui, "agent-chain").last().unwrap(),
        "Chain: plan-build-review (3 steps)"
    );
    h.run_command("chain-list", "").await.unwrap();
    let list = ui.calls("notify").last().unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    for chain in [
        "plan-build-review ●",
        "plan-build —",
        "scout-flow",
        "plan-review-plan",
        "full-review",
    ] {
        assert!(list.contains(chain), "{chain} in {list}");
    }
    let out = h
        .emit(
            "before_agent_start",
            json!({"type": "before_agent_start", "systemPrompt": "base"}),
        )
        .await;
    let prompt = out.event["systemPrompt"].as_str().unwrap();
    assert!(
        prompt.contains("1. planner: Turns a request into a concrete"),
        "{prompt}"
    );
    assert!(
        prompt.contains("You are a reviewer") || prompt.contains("You are a code reviewer"),
        "{prompt}"
    );

    let ui = FakeUi::new(vec![]);
    let (h, _) = load(
        &["pi-pi.lua"],
        SharedView::new(dir.path()),
        Some(ui.clone()),
    )
    .await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    assert_eq!(statuses(&ui, "pi-pi").last().unwrap(), "Pi Pi (9 experts)");
    let out = h
        .emit(
            "before_agent_start",
            json!({"type": "before_agent_start", "systemPrompt": "base"}),
        )
        .await;
    let prompt = out.event["systemPrompt"].as_str().unwrap();
    assert!(
        prompt.contains("with the help of\n9 experts: agent-expert, cli-expert"),
        "{prompt}"
    );
    assert!(prompt.contains("- `theme-expert`: Themes"), "{prompt}");
    assert!(
        !prompt.contains("{{"),
        "every placeholder is filled: {prompt}"
    );
}
