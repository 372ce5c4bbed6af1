//! `pi doctor`: checks the installation and says, one line each, what is fine, what may
//! bite (warn) and what is broken (error): the terminal, the programs pi runs, which
//! providers have credentials (never their values), the configuration files, the language
//! packs and every extension's load. `--json` prints the same as JSON; the exit code is 1
//! when any check is an error.

use crate::t;

use std::path::Path;

use serde_json::{Value, json};

use crate::app::doctor_checks as checks;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Works.
    Ok,
    /// Works, but something may bite.
    Warn,
    /// Broken.
    Error,
}

impl Status {
    /// The word shown in the first column (and in JSON).
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Error => "error",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Ok, warn or error.
    pub status: Status,
    /// What was checked (`terminal`, `program`, `config`, ...).
    pub area: &'static str,
    /// What was found, in the user's language.
    pub message: String,
}

impl Finding {
    /// A finding of `status` in `area`.
    pub fn new(status: Status, area: &'static str, message: String) -> Finding {
        Finding {
            status,
            area,
            message,
        }
    }
}

/// Whether the command line is `pi doctor`.
pub fn is_doctor_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|w| w == "doctor")
}

/// Run `pi doctor [--json] [--profile]`; returns the exit code.
pub async fn run(argv: &[String]) -> i32 {
    let json = argv.iter().skip(1).any(|a| a == "--json");
    let profile = argv.iter().skip(1).any(|a| a == "--profile");
    if let Some(unknown) = argv
        .iter()
        .skip(1)
        .find(|a| *a != "--json" && *a != "--profile")
    {
        eprintln!("{}", t!("pi.doctor.usage", arg = unknown.as_str()));
        return 2;
    }
    let agent_dir = crate::config::paths::agent_dir();
    let cwd = std::env::current_dir().unwrap_or_else(|_| agent_dir.clone());
    if profile {
        use crate::app::doctor_profile as p;
        let measured = p::measure(&agent_dir, &cwd).await;
        if json {
            println!("{}", p::to_json(&measured, &agent_dir, &cwd));
        } else {
            print!("{}", p::render(&measured, &agent_dir, &cwd));
        }
        return i32::from(p::failed(&measured));
    }
    let findings = check_all(&agent_dir, &cwd).await;
    if json {
        println!("{}", to_json(&findings));
    } else {
        print!("{}", render(&findings, &agent_dir));
    }
    i32::from(findings.iter().any(|f| f.status == Status::Error))
}

/// Every check, in the order they are shown.
pub async fn check_all(agent_dir: &Path, cwd: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    findings.extend(checks::terminal());
    findings.extend(checks::programs());
    let (settings, settings_findings) = checks::settings(agent_dir, cwd);
    findings.extend(settings_findings);
    findings.extend(checks::models_and_credentials(agent_dir));
    findings.extend(checks::keybindings(agent_dir));
    findings.extend(checks::themes(agent_dir, cwd));
    findings.extend(checks::locales(agent_dir));
    findings.extend(checks::extensions(&settings, agent_dir, cwd).await);
    findings
}

/// The report as text: a title, one aligned line per finding, a closing count.
pub fn render(findings: &[Finding], agent_dir: &Path) -> String {
    let mut out = t!(
        "pi.doctor.title",
        version = crate::VERSION,
        dir = agent_dir.display().to_string()
    );
    out.push('\n');
    let area_width = findings.iter().map(|f| f.area.len()).max().unwrap_or(0);
    for f in findings {
        let status = crate::t!(&format!("pi.doctor.status.{}", f.status.word()));
        let mut lines = f.message.lines().filter(|l| !l.trim().is_empty());
        out.push_str(&format!(
            "{status:<6} {:<area_width$}  {}\n",
            f.area,
            lines.next().unwrap_or_default()
        ));
        for more in lines {
            out.push_str(&format!("{:<6} {:<area_width$}  {more}\n", "", ""));
        }
    }
    let count = |s: Status| findings.iter().filter(|f| f.status == s).count();
    out.push_str(&t!(
        "pi.doctor.summary",
        warnings = count(Status::Warn),
        errors = count(Status::Error)
    ));
    out.push('\n');
    out
}

/// The report as JSON: `{"ok": bool, "findings": [{status, area, message}]}`.
pub fn to_json(findings: &[Finding]) -> Value {
    json!({
        "ok": !findings.iter().any(|f| f.status == Status::Error),
        "findings": findings
            .iter()
            .map(|f| json!({"status": f.status.word(), "area": f.area, "message": f.message}))
            .collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_aligns_its_columns_and_counts_warnings_and_errors() {
        let findings = vec![
            Finding::new(Status::Ok, "program", "git found".into()),
            Finding::new(Status::Warn, "credentials", "none\nsecond line".into()),
            Finding::new(Status::Error, "config", "models.json: broken".into()),
        ];
        let text = render(&findings, Path::new("/a"));
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[1].starts_with("ok     program      git found"),
            "{text}"
        );
        assert!(lines[2].starts_with("warn   credentials  none"), "{text}");
        assert!(lines[3].ends_with("  second line"), "{text}");
        assert!(
            lines[4].starts_with("error  config       models.json"),
            "{text}"
        );
        assert!(
            lines[5].contains("1") && lines[5].contains("errors"),
            "{text}"
        );
        let value = to_json(&findings);
        assert_eq!(value["ok"], false);
        assert_eq!(value["findings"][2]["status"], "error");
    }
}
