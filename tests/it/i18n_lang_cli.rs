//! `pi lang doctor` and `pi lang debug` from the command line: the shipped packs meet the
//! i18n_score bar (exit 0), every rubric item names a test that exists, and a broken user
//! locale folder is reported.

use std::path::Path;
use std::process::{Command, Output};

/// Run `pi <args>` with its agent directory at `agent` and English from the environment.
fn pi(agent: &Path, args: &[&str], locale: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pi"))
        .args(args)
        .current_dir(agent)
        .env("PI_CODING_AGENT_DIR", agent)
        .env("PI_OFFLINE", "1")
        .env("PI_LOCALE", locale)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .output()
        .expect("run pi")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The number in "i18n_score 97.5/100".
fn score(text: &str) -> f64 {
    let at = text.rfind("i18n_score ").expect("a score line");
    let rest = &text[at + "i18n_score ".len()..];
    rest.split('/')
        .next()
        .unwrap()
        .trim()
        .parse()
        .expect("a number")
}

/// Whether the test named `path::to::tests::name` or `tests/file.rs::name` exists.
fn test_exists(root: &Path, name: &str) -> bool {
    let (place, function) = name.rsplit_once("::").unwrap();
    let file = if place.starts_with("tests/") {
        root.join(place)
    } else {
        let module = place.trim_end_matches("::tests").replace("::", "/");
        root.join("src").join(format!("{module}.rs"))
    };
    std::fs::read_to_string(&file).is_ok_and(|text| text.contains(&format!("fn {function}(")))
}

#[test]
fn doctor_passes_the_bar_and_every_rubric_item_names_a_real_test() {
    let agent = tempfile::tempdir().unwrap();
    let out = pi(agent.path(), &["lang", "doctor"], "en");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(score(&text) >= 95.0, "{text}");
    for locale in ["en", "zh-TW", "zh-CN", "ja"] {
        assert!(
            text.contains(&format!("pi {locale}: ")),
            "{locale} is checked: {text}"
        );
    }
    for category in [
        "Coverage",
        "Correctness",
        "Developer experience",
        "Performance",
    ] {
        assert!(text.contains(category), "{category}: {text}");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tests: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("test: "))
        .collect();
    assert_eq!(tests.len(), 11, "one test per rubric item: {text}");
    for name in tests {
        assert!(
            test_exists(root, name),
            "rubric names a missing test: {name}"
        );
    }
}

#[test]
fn the_doctor_speaks_the_current_locale() {
    let agent = tempfile::tempdir().unwrap();
    let text = stdout(&pi(agent.path(), &["lang", "doctor"], "zh-TW"));
    assert!(text.contains("語系診斷"), "{text}");
    assert!(text.contains("涵蓋率"), "{text}");
}

#[test]
fn a_broken_user_locale_folder_is_reported() {
    let agent = tempfile::tempdir().unwrap();
    let locales = agent.path().join("locales");
    std::fs::create_dir_all(&locales).unwrap();
    // A renamed placeholder in an override of a shipped key, and a file that is no JSON.
    std::fs::write(
        locales.join("zh-TW.json"),
        r#"{"version":1,"namespace":"pi","locale":"zh-TW",
            "messages":{"lang.switched":"語言：{名稱}"}}"#,
    )
    .unwrap();
    std::fs::write(locales.join("fr.json"), "{\n  \"version\": 1,\n  oops\n}").unwrap();
    let out = pi(agent.path(), &["lang", "doctor"], "en");
    let text = stdout(&out);
    assert!(
        text.contains("placeholders differ in lang.switched"),
        "the mismatch is named: {text}"
    );
    assert!(
        text.contains("fr.json:3"),
        "the broken file and line: {text}"
    );
    let points = score(&text);
    assert!(points < 100.0, "{text}");
    assert_eq!(out.status.code() == Some(0), points >= 95.0, "{text}");
}

#[test]
fn debug_names_the_locale_source_and_bundles() {
    let agent = tempfile::tempdir().unwrap();
    let out = pi(agent.path(), &["lang", "debug"], "ja");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("日本語 (ja)"), "{text}");
    assert!(text.contains("PI_LOCALE"), "{text}");
    assert!(text.contains("builtin:zh-TW.json"), "{text}");
}

#[test]
fn unknown_words_print_the_usage_with_exit_code_two() {
    let agent = tempfile::tempdir().unwrap();
    let out = pi(agent.path(), &["lang", "no", "such", "thing"], "en");
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("doctor"));
}

#[test]
fn a_toml_locale_pack_loads_like_a_json_one_and_a_broken_one_names_its_line() {
    let agent = tempfile::tempdir().unwrap();
    let locales = agent.path().join("locales");
    std::fs::create_dir_all(&locales).unwrap();
    std::fs::write(
        locales.join("zh-TW.toml"),
        "# Corrections for the shipped Traditional Chinese pack.\nversion = 1\nnamespace = \"pi\"\nlocale = \"zh-TW\"\n\n[messages]\n# shown as the title of the doctor's report\n\"lang.doctor.title\" = \"語系健檢（自訂）\"\n",
    )
    .unwrap();
    let out = pi(agent.path(), &["lang", "doctor"], "zh-TW");
    let text = stdout(&out);
    assert!(
        text.contains("語系健檢（自訂）"),
        "the TOML pack's text is used: {text}"
    );

    std::fs::write(locales.join("fr.toml"), "version = 1\nlocale = \n").unwrap();
    let text = stdout(&pi(agent.path(), &["lang", "debug"], "en"));
    assert!(
        text.contains("fr.toml:2:"),
        "the broken file and line: {text}"
    );
    assert!(text.contains("not valid TOML"), "{text}");
}

#[test]
fn pi_lang_takes_every_subcommand_of_slash_lang_and_a_language_is_saved() {
    let agent = tempfile::tempdir().unwrap();
    let list = stdout(&pi(agent.path(), &["lang"], "en"));
    assert!(
        list.contains("繁體中文 (zh-TW)") && list.contains("● English (en)"),
        "{list}"
    );
    let out = pi(agent.path(), &["lang", "ja"], "en");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("言語：日本語 (ja)"),
        "switched at once: {text}"
    );
    let settings = std::fs::read_to_string(agent.path().join("settings.json")).unwrap();
    assert!(settings.contains("\"locale\": \"ja\""), "{settings}");
    for words in [
        &["lang", "probe"][..],
        &["lang", "hacks"],
        &["lang", "setup"],
    ] {
        let out = pi(agent.path(), words, "en");
        assert_eq!(out.status.code(), Some(0), "{words:?}: {}", stdout(&out));
    }
    let out = pi(agent.path(), &["lang", "klingon-ish"], "en");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn slash_lang_works_in_print_mode_and_debug_names_the_new_source_at_once() {
    let agent = tempfile::tempdir().unwrap();
    let out = pi(
        agent.path(),
        &["--offline", "--no-session", "-p", "/lang ja", "/lang debug"],
        "en",
    );
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("言語：日本語 (ja)"), "{text}");
    assert!(
        text.contains("決定元：設定（locale）"),
        "the switch, not PI_LOCALE: {text}"
    );
    assert!(!text.contains("PI_LOCALE"), "{text}");
    let settings = std::fs::read_to_string(agent.path().join("settings.json")).unwrap();
    assert!(settings.contains("\"locale\": \"ja\""), "{settings}");
}

#[test]
fn slash_lang_between_print_mode_prompts_is_answered_by_pi_not_the_model() {
    use crate::support::pi_cli::PiSandbox;
    use crate::support::{MockReply, MockServer};
    let server = MockServer::start();
    server.push(MockReply::openai_text("你好！"));
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.env.push(("PI_LOCALE".into(), "en".into()));
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-p", "/lang zh-TW", "hello"],
        None,
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("語言：繁體中文 (zh-TW)"), "{text}");
    assert!(text.ends_with("你好！\n"), "{text}");
    assert_eq!(
        server.request_count(),
        1,
        "only the real prompt reached the model"
    );
    assert!(!String::from_utf8_lossy(&server.requests()[0].body).contains("/lang"));
}
