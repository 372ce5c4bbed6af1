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

const SEED_THEMES: [&str; 11] = [
    "synthwave",
    "catppuccin-mocha",
    "dracula",
    "tokyo-night",
    "cyberpunk",
    "nord",
    "gruvbox",
    "rose-pine",
    "everforest",
    "ocean-breeze",
    "midnight-ocean",
];

#[test]
fn the_eleven_seed_themes_ship_with_all_51_tokens_beside_pis_own() {
    use pi::ui_kit::theme::{REQUIRED_TOKENS, Theme, builtin_theme_names};
    use ratatui::style::Color;
    let names: Vec<&str> = builtin_theme_names().collect();
    for own in [
        "dark",
        "light",
        "ember",
        "glacier",
        "moss",
        "nightshade",
        "paper",
    ] {
        assert!(names.contains(&own), "{own} is kept");
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("themes");
    for name in SEED_THEMES {
        assert!(names.contains(&name), "{name} is built in");
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["name"], name);
        assert!(
            json["$schema"].is_string() && json["vars"].is_object() && json["export"].is_object()
        );
        let colors = json["colors"].as_object().unwrap();
        assert_eq!(colors.len(), 51, "{name}");
        for token in REQUIRED_TOKENS {
            assert!(colors.contains_key(token), "{name}: {token}");
        }
        let theme = Theme::builtin(name).unwrap();
        assert!(
            REQUIRED_TOKENS.iter().all(|t| theme.color(t).is_some()),
            "{name}"
        );
    }
    // The seed's signature colours.
    let rgb = |name: &str, token: &str| Theme::builtin(name).unwrap().color(token).unwrap();
    assert_eq!(rgb("synthwave", "accent"), Color::Rgb(0x36, 0xf9, 0xf6));
    assert_eq!(
        rgb("synthwave", "thinkingText"),
        Color::Rgb(0x4a, 0x9e, 0x6a)
    );
    assert_eq!(rgb("dracula", "accent"), Color::Rgb(0xbd, 0x93, 0xf9));
    assert_eq!(rgb("gruvbox", "toolTitle"), Color::Rgb(0xfd, 0x95, 0x3f));
    // midnight-ocean uses 256-colour numbers and an export block of its own.
    assert_eq!(rgb("midnight-ocean", "dim"), Color::Indexed(240));
    assert_eq!(rgb("midnight-ocean", "borderMuted"), Color::Indexed(236));
    let mo: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("midnight-ocean.json")).unwrap())
            .unwrap();
    assert_eq!(
        mo["export"],
        json!({"pageBg": "#0a192f", "cardBg": "#112240", "infoBg": "#0077be"})
    );
}

#[tokio::test]
async fn every_playground_extension_opens_in_the_seeds_theme_with_its_title() {
    let expected = [
        ("agent-chain", "midnight-ocean"),
        ("agent-team", "dracula"),
        ("cross-agent", "ocean-breeze"),
        ("damage-control", "gruvbox"),
        ("minimal", "synthwave"),
        ("pi-pi", "rose-pine"),
        ("pure-focus", "everforest"),
        ("purpose-gate", "tokyo-night"),
        ("session-replay", "catppuccin-mocha"),
        ("subagent-widget", "cyberpunk"),
        ("system-select", "catppuccin-mocha"),
        ("theme-cycler", "synthwave"),
        ("tilldone", "everforest"),
        ("tool-counter", "synthwave"),
        ("tool-counter-widget", "synthwave"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, theme) in expected {
        let ui = FakeUi::new(vec![]);
        let file = format!("{name}.lua");
        let (h, _) = load(
            &[file.as_str()],
            SharedView::new(dir.path()),
            Some(ui.clone()),
        )
        .await;
        let out = h
            .emit("session_start", json!({"type": "session_start"}))
            .await;
        assert!(out.errors.is_empty(), "{name}: {:?}", out.errors);
        let themes: Vec<_> = ui
            .calls("setTheme")
            .iter()
            .map(|c| c["name"].clone())
            .collect();
        assert_eq!(themes, [json!(theme)], "{name}");
        let titles: Vec<_> = ui
            .calls("setTitle")
            .iter()
            .map(|c| c["title"].clone())
            .collect();
        assert_eq!(titles, [json!(format!("π - {name}"))], "{name}");
    }
}

#[tokio::test]
async fn extensions_read_and_write_toml_yaml_and_use_look_ahead_regexes() {
    use crate::support::lua_agent;
    use pi::lua::{ExtensionAction, ExtensionHandle, HostConfig};
    let dir = tempfile::tempdir().unwrap();
    let ext = lua_agent::write_extension(
        dir.path(),
        "formats.lua",
        r#"return function(pi)
  pi.registerCommand("formats", { handler = function()
    local out = {}
    local data = pi.toml.decode('# a comment\ntitle = "pi"\n[owner]\nname = "Ada"\nlangs = ["lua", "rust"]\n')
    out[#out + 1] = data.title .. "/" .. data.owner.name .. "/" .. data.owner.langs[2]
    local text = pi.toml.encode({ name = "x", n = 3 })
    out[#out + 1] = tostring(pi.toml.decode(text).n)
    local bad, why = pi.toml.decode("a = 1\nb = \n")
    out[#out + 1] = tostring(bad) .. " " .. why
    local y = pi.yaml.decode("b: 1\na: [x, y]\n")
    out[#out + 1] = table.concat(pi.yaml.keys(y), ",") .. " " .. y.a[2]
    local _, ywhy = pi.yaml.decode("a: [\n")
    out[#out + 1] = ywhy
    local fm, body = pi.yaml.frontmatter("---\nname: x\ntools: [a, b]\n---\nBody\n")
    out[#out + 1] = fm.name .. " " .. fm.tools[2] .. " " .. body
    local re = pi.regex.new([[\bgit\s+push\s+.*--force(?!-with-lease)]])
    out[#out + 1] = tostring(re.test("git push --force")) .. " " .. tostring(re.test("git push --force-with-lease"))
    local s, e, m = re.find("x; git push -v --force")
    out[#out + 1] = s .. "-" .. e .. " " .. m
    local caps = pi.regex.new([[(?<verb>\w+)\s+(\d+)]]).captures("take 42")
    out[#out + 1] = caps.verb .. " " .. caps[2]
    local none, rwhy = pi.regex.new("(open")
    out[#out + 1] = tostring(none) .. " " .. rwhy
    out[#out + 1] = tostring(pi.regex.new("ABC", { ignoreCase = true }).test("xabcx"))
    pi.sendUserMessage(table.concat(out, "\n"))
  end })
end"#,
    );
    let view = SharedView::new(dir.path());
    let handle = ExtensionHandle::start(HostConfig::new(vec![ext], dir.path()), view.clone());
    assert!(handle.load().await.errors.is_empty());
    handle.run_command("formats", "").await.unwrap();
    let text = view
        .take_actions()
        .into_iter()
        .find_map(|a| match a {
            ExtensionAction::SendUserMessage { content, .. } => content.as_str().map(String::from),
            _ => None,
        })
        .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "pi/Ada/rust");
    assert_eq!(lines[1], "3");
    assert!(lines[2].starts_with("nil TOML: line 2, column"), "{text}");
    assert_eq!(lines[3], "b,a y");
    assert!(lines[4].starts_with("YAML: line "), "{text}");
    assert_eq!(lines[5], "x b Body");
    assert_eq!(lines[6], "true false");
    assert_eq!(lines[7], "4-22 git push -v --force");
    assert_eq!(lines[8], "take 42");
    assert!(lines[9].starts_with("nil bad regex (open"), "{text}");
    assert_eq!(lines[10], "true");
}
