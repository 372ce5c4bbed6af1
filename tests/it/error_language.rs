//! Everyday failures speak the user's language: each case below runs the real `pi` binary
//! under zh-TW, zh-CN and ja and fails when its output holds an English sentence (a run of
//! three or more plain English words outside quotes, paths, identifiers, provider and
//! environment-variable names and the user's own input). Each case also checks that the
//! output still names what went wrong (the file, key, flag, provider or model).

use serde_json::json;

use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};

/// The shipped locales other than English.
const LOCALES: [&str; 3] = ["zh-TW", "zh-CN", "ja"];

/// The first run of three or more English words in `text`, if any.
///
/// Quoted spans (`"…"`, `'…'`, `` `…` ``) are dropped first (they hold identifiers, paths
/// and the user's input). A word is letters only, optionally ending in `,.;:!?)` and
/// starting with `(`, at least two letters long, not all upper case (environment
/// variables, acronyms), and not the program's name. Anything else (a path, a flag, a number, non-ASCII text) breaks
/// the run.
pub fn english_sentence(text: &str) -> Option<String> {
    let mut marked = String::with_capacity(text.len());
    for c in drop_quoted(text).chars() {
        match c.is_ascii() {
            true => marked.push(c),
            false => marked.push_str(" | "),
        }
    }
    let mut run: Vec<&str> = Vec::new();
    for token in marked.split_whitespace() {
        if is_word(token) {
            run.push(token);
            // A comma ends a list item: `text, json, rpc` is a list of names.
            if !token.ends_with(',') {
                continue;
            }
            if run.len() >= 3 {
                return Some(run.join(" "));
            }
            run.clear();
            continue;
        }
        if run.len() >= 3 {
            return Some(run.join(" "));
        }
        run.clear();
    }
    (run.len() >= 3).then(|| run.join(" "))
}

fn is_word(token: &str) -> bool {
    let core = token
        .trim_start_matches('(')
        .trim_end_matches([',', '.', ';', ':', '!', '?', ')']);
    // `pi` is the program's name: `pi new extension <name>` is a command line.
    core != "pi"
        && core.len() >= 2
        && core.chars().all(|c| c.is_ascii_alphabetic())
        && core.chars().any(|c| c.is_ascii_lowercase())
}

/// `text` with quoted spans replaced by a marker that breaks a run of words.
fn drop_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<char> = None;
    for c in text.chars() {
        match open {
            Some(q) if c == q => open = None,
            Some(_) => {}
            None if matches!(c, '"' | '`' | '“' | '「' | '『') => {
                open = Some(match c {
                    '“' => '”',
                    '「' => '」',
                    '『' => '』',
                    other => other,
                });
                out.push_str(" | ");
            }
            None => out.push(c),
        }
    }
    out
}

/// One failure: how to set it up and run it, and the facts its output must name.
struct Case {
    name: &'static str,
    run: fn(&str) -> String,
    names: &'static [&'static str],
}

/// Run `pi` in `sandbox` under `locale`; stdout and stderr together.
fn run_in(sandbox: &mut PiSandbox, locale: &str, args: &[&str], stdin: Option<&str>) -> String {
    sandbox.env.push(("PI_LOCALE".into(), locale.into()));
    let out = sandbox.run(args, stdin);
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn mock_sandbox(server: &MockServer) -> PiSandbox {
    PiSandbox::with_mock(server, "anthropic-messages")
}

fn no_models(locale: &str) -> String {
    run_in(&mut PiSandbox::new(), locale, &["-p", "hi"], None)
}

fn unknown_model(locale: &str) -> String {
    let server = MockServer::start();
    let mut sandbox = mock_sandbox(&server);
    run_in(
        &mut sandbox,
        locale,
        &["--model", "nosuch-model", "-p", "hi"],
        None,
    )
}

fn unknown_provider(locale: &str) -> String {
    let server = MockServer::start();
    let mut sandbox = mock_sandbox(&server);
    run_in(
        &mut sandbox,
        locale,
        &["--provider", "nosuch", "--model", "mock-model", "-p", "hi"],
        None,
    )
}

fn unknown_flag(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let args = ["--provider", "demo", "--modle", "x", "-p", "hi"];
    run_in(&mut sandbox, locale, &args, None)
}

fn invalid_mode(locale: &str) -> String {
    run_in(&mut PiSandbox::new(), locale, &["--mode", "fancy"], None)
}

fn missing_value(locale: &str) -> String {
    run_in(&mut PiSandbox::new(), locale, &["--model"], None)
}

fn help(locale: &str) -> String {
    run_in(&mut PiSandbox::new(), locale, &["--help"], None)
}

fn invalid_thinking(locale: &str) -> String {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("好"));
    let mut sandbox = mock_sandbox(&server);
    let args = ["--thinking", "extreme", "-p", "hi"];
    run_in(&mut sandbox, locale, &args, None)
}

fn unauthorized(locale: &str) -> String {
    let server = MockServer::start();
    for _ in 0..4 {
        server.push(MockReply::anthropic_error(
            401,
            "authentication_error",
            "bad key",
        ));
    }
    let mut sandbox = mock_sandbox(&server);
    run_in(&mut sandbox, locale, &["-p", "hi"], None)
}

fn missing_extension(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let path = sandbox.root.path().join("absent.lua");
    let path = path.to_string_lossy().to_string();
    let args = ["--provider", "demo", "-e", &path, "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn failing_extension(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let path = sandbox.root.path().join("broken.lua");
    std::fs::write(&path, "error('kaputt')\n").unwrap();
    let path = path.to_string_lossy().to_string();
    let args = ["--provider", "demo", "-e", &path, "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn extension_syntax_error(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let path = sandbox.root.path().join("unclosed.lua");
    // The factory's `function` is never closed.
    std::fs::write(
        &path,
        "return function(pi)\n  pi.on('input', function() end)\n",
    )
    .unwrap();
    let path = path.to_string_lossy().to_string();
    let args = ["--provider", "demo", "-e", &path, "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn refused_capability(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let path = sandbox.root.path().join("notes.lua");
    let source = "return {\n  capabilities = { fs = { read = { '.' } } },\n  \
                  setup = function(pi) return os.getenv('HOME') end,\n}\n";
    std::fs::write(&path, source).unwrap();
    let path = path.to_string_lossy().to_string();
    let args = ["--provider", "demo", "-e", &path, "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn unknown_extension_command(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let path = sandbox.root.path().join("greet.lua");
    let source = "return function(pi)\n  pi.registerCommand('greet', {\n    \
                  handler = function() error('no audience') end,\n  })\nend\n";
    std::fs::write(&path, source).unwrap();
    let path = path.to_string_lossy().to_string();
    let args = ["--provider", "demo", "-e", &path, "-p", "/greet"];
    run_in(&mut sandbox, locale, &args, None)
}

fn settings_trailing_comma(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file("settings.json", "{\n  \"theme\": \"dark\",\n}\n");
    let args = ["--provider", "demo", "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn settings_wrong_type(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file("settings.json", "{\"quietStartup\": \"yes\"}");
    let args = ["--provider", "demo", "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn models_json_broken(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file("models.json", "{\"providers\": {\"x\" 1}}");
    let args = ["--provider", "demo", "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn auth_json_trailing_comma(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "auth.json",
        "{\"groq\": {\"type\": \"api_key\", \"key\": \"k\"},}",
    );
    let args = ["--provider", "demo", "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn models_json_without_base_url(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let text = "{\"providers\": {\"local\": {\"models\": [{\"id\": \"m\"}]}}}";
    sandbox.write_agent_file("models.json", text);
    let args = ["--provider", "demo", "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn no_api_key(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let args = [
        "--provider",
        "anthropic",
        "--model",
        "claude-sonnet-4-5",
        "-p",
        "hi",
    ];
    run_in(&mut sandbox, locale, &args, None)
}

fn install_missing_path(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    run_in(&mut sandbox, locale, &["install", "/nowhere/pkg"], None)
}

fn broken_trust_file(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    std::fs::create_dir_all(sandbox.project.join(".pi")).unwrap();
    std::fs::write(sandbox.project.join(".pi/settings.json"), "{}").unwrap();
    sandbox.write_agent_file(
        "trust.json",
        "{\n  \"/elsewhere\": {\"trusted\": true},\n}\n",
    );
    let args = ["--provider", "demo", "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn remove_unknown_package(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    run_in(&mut sandbox, locale, &["remove", "npm:absent-pkg"], None)
}

fn unknown_session_id(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let args = ["--provider", "demo", "--session", "0badc0de", "-p", "hi"];
    run_in(&mut sandbox, locale, &args, None)
}

fn many_unknown_settings(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let keys: Vec<String> = (1..=7).map(|n| format!("\"bogusKey{n}\": {n}")).collect();
    sandbox.write_agent_file("settings.json", &format!("{{{}}}", keys.join(", ")));
    let args = ["--provider", "demo", "-p", "markdown"];
    run_in(&mut sandbox, locale, &args, None)
}

fn missing_file_argument(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let args = ["--provider", "demo", "-p", "@absent.txt"];
    run_in(&mut sandbox, locale, &args, None)
}

fn demo(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    std::fs::write(sandbox.project.join("README.md"), "# x\n").unwrap();
    let mut text = String::new();
    for prompt in ["hello", "markdown", "what is this"] {
        text.push_str(&run_in(
            &mut sandbox,
            locale,
            &["--provider", "demo", "-p", prompt],
            None,
        ));
    }
    text
}

fn rpc_errors(locale: &str) -> String {
    let mut sandbox = PiSandbox::new();
    let input = [
        json!({"type": "frobnicate"}),
        json!({"type": "set_model", "provider": "nosuch", "modelId": "m1"}),
        json!({"type": "set_thinking_level", "level": "extreme"}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect::<String>();
    let args = ["--provider", "demo", "--mode", "rpc"];
    let out = run_in(&mut sandbox, locale, &args, Some(&input));
    // Only the error messages are prose; the rest of each line is protocol.
    let mut messages = String::new();
    for line in out.lines().filter(|l| l.starts_with('{')) {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        if value["type"] == "response" && value["success"] == false {
            let code = value["code"]
                .as_str()
                .unwrap_or("a response without a code");
            let error = value["error"].as_str().unwrap_or_default();
            messages.push_str(&format!("{code} {error}\n"));
        }
    }
    messages
}

/// The everyday failures, each with the facts its output must still name.
const CASES: &[Case] = &[
    Case {
        name: "no models configured",
        run: no_models,
        names: &["models.json", "ANTHROPIC_API_KEY"],
    },
    Case {
        name: "unknown model",
        run: unknown_model,
        names: &["nosuch-model"],
    },
    Case {
        name: "unknown provider",
        run: unknown_provider,
        names: &["nosuch"],
    },
    Case {
        name: "unknown flag",
        run: unknown_flag,
        names: &["--modle", "--model"],
    },
    Case {
        name: "invalid mode value",
        run: invalid_mode,
        names: &["fancy", "--mode", "rpc"],
    },
    Case {
        name: "missing flag value",
        run: missing_value,
        names: &["--model"],
    },
    Case {
        name: "--help",
        run: help,
        names: &["--model", "--provider"],
    },
    Case {
        name: "invalid thinking level",
        run: invalid_thinking,
        names: &["extreme", "xhigh"],
    },
    Case {
        name: "401 from the provider",
        run: unauthorized,
        names: &["401", "mock", "/login"],
    },
    Case {
        name: "missing extension",
        run: missing_extension,
        names: &["absent.lua"],
    },
    Case {
        name: "failing extension",
        run: failing_extension,
        names: &["broken.lua:1", "kaputt"],
    },
    Case {
        name: "extension with a syntax error",
        run: extension_syntax_error,
        names: &["unclosed.lua:3", "'end'", "'function'", "<eof>"],
    },
    Case {
        name: "capability refused to an extension",
        run: refused_capability,
        names: &["notes", "env", "HOME", "env = { \"HOME\" }"],
    },
    Case {
        name: "failing extension command",
        run: unknown_extension_command,
        names: &["/greet", "greet.lua", "no audience"],
    },
    Case {
        name: "settings trailing comma",
        run: settings_trailing_comma,
        names: &["settings.json", "3"],
    },
    Case {
        name: "settings wrong type",
        run: settings_wrong_type,
        names: &["settings.json", "quietStartup"],
    },
    Case {
        name: "broken models.json",
        run: models_json_broken,
        names: &["models.json"],
    },
    Case {
        name: "auth.json with a trailing comma",
        run: auth_json_trailing_comma,
        names: &["auth.json", "1"],
    },
    Case {
        name: "models.json provider without baseUrl",
        run: models_json_without_base_url,
        names: &["models.json", "local", "baseUrl"],
    },
    Case {
        name: "no API key for the chosen provider",
        run: no_api_key,
        names: &["anthropic", "ANTHROPIC_API_KEY", "/login", "models.json"],
    },
    Case {
        name: "pi install of a missing path",
        run: install_missing_path,
        names: &["/nowhere/pkg"],
    },
    Case {
        name: "trust.json with a trailing comma",
        run: broken_trust_file,
        names: &["trust.json", "3"],
    },
    Case {
        name: "pi remove of a package not configured",
        run: remove_unknown_package,
        names: &["npm:absent-pkg", "pi list"],
    },
    Case {
        name: "--session with an unknown id",
        run: unknown_session_id,
        names: &["0badc0de"],
    },
    Case {
        name: "settings with many unknown keys",
        run: many_unknown_settings,
        names: &["settings.json", "7", "bogusKey1"],
    },
    Case {
        name: "missing @file",
        run: missing_file_argument,
        names: &["absent.txt"],
    },
    Case {
        name: "offline demo",
        run: demo,
        names: &["/login", "ANTHROPIC_API_KEY"],
    },
    Case {
        name: "RPC errors",
        run: rpc_errors,
        names: &["frobnicate", "nosuch", "extreme", "unknown_command"],
    },
];

#[test]
fn everyday_failures_speak_the_users_language() {
    let mut problems = Vec::new();
    for locale in LOCALES {
        for case in CASES {
            let output = (case.run)(locale);
            if let Some(sentence) = english_sentence(&output) {
                problems.push(format!(
                    "[{locale}] {}: English \"{sentence}\" in:\n{output}",
                    case.name
                ));
            }
            for fact in case.names {
                if !output.contains(fact) {
                    problems.push(format!(
                        "[{locale}] {}: does not name {fact:?}:\n{output}",
                        case.name
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n---\n"));
}

#[test]
fn an_unknown_flag_alone_is_answered_in_chinese_with_the_closest_flag() {
    let suggestion = pi::cli::error::closest_flag("--bogus", &[]).expect("a nearby flag");
    let output = run_in(&mut PiSandbox::new(), "zh-TW", &["--bogus"], None);
    assert_eq!(english_sentence(&output), None, "{output}");
    assert!(output.contains("--bogus"), "{output}");
    assert!(output.contains(&suggestion), "{suggestion} in {output}");
    assert!(output.contains("無法識別的選項"), "{output}");
    // The same command line under English is a sentence, with the same suggestion.
    let english = run_in(&mut PiSandbox::new(), "en", &["--bogus"], None);
    assert!(english_sentence(&english).is_some(), "{english}");
    assert!(english.contains(&suggestion), "{english}");
}

#[test]
fn english_output_of_the_same_failures_is_caught() {
    // The detector is not blind: under English, the same failures are sentences.
    let caught: Vec<&str> = CASES
        .iter()
        .filter(|c| english_sentence(&(c.run)("en")).is_some())
        .map(|c| c.name)
        .collect();
    assert!(caught.len() >= CASES.len() - 2, "only {caught:?}");
}

#[test]
fn the_detector_tells_a_sentence_from_names_and_paths() {
    assert_eq!(
        english_sentence("錯誤：Model not found. Use it").as_deref(),
        Some("Model not found. Use it")
    );
    assert!(english_sentence("錯誤：找不到模型 \"no such model here\"").is_none());
    assert!(english_sentence("設定 ANTHROPIC_API_KEY OPENAI_API_KEY GEMINI_API_KEY").is_none());
    assert!(english_sentence("/tmp/a b/settings.json：第 1 行").is_none());
    assert!(english_sentence("請改用 --model 或 --provider mock").is_none());
    assert!(english_sentence("Did you mean").is_some());
    assert!(english_sentence("two words").is_none());
    assert!(english_sentence("line one\nmore text here").is_some());
    assert!(english_sentence("可用的值：text, json, rpc").is_none());
    assert!(english_sentence("off、minimal、low、medium、high").is_none());
    assert!(english_sentence("Possible values: text, json, rpc").is_some());
}
