//! `pi test [PATH…] [--update] [--watch]`: run the Lua tests of extensions. Each test file
//! runs in its own Lua state with `describe`/`it`/`expect`; each test gets a headless pi
//! session with the extension under test, a scripted model and a simulated user.
//! `docs/testing.md` describes the API.

mod discover;
pub mod error;
mod harness;
mod lua_api;
mod recorder;
pub mod scaffold;
mod screen;
mod watch;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use crate::t;

use error::TestRunError;
use lua_api::FileContext;

const PRELUDE: &str = include_str!("prelude.lua");

/// Whether the command line asks for `pi test ...`.
pub fn is_test_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|word| word == "test")
}

/// What `pi test` was asked for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TestOptions {
    /// Files and folders to search (default `.`).
    pub paths: Vec<PathBuf>,
    /// Accept changed snapshots.
    pub update: bool,
    /// Run again whenever a file under the paths changes.
    pub watch: bool,
}

/// Read the words after `test`; an unknown flag is the error.
pub fn parse(argv: &[String]) -> Result<TestOptions, TestRunError> {
    let mut options = TestOptions::default();
    for word in argv {
        match word.as_str() {
            "--update" | "-u" => options.update = true,
            "--watch" | "-w" => options.watch = true,
            flag if flag.starts_with('-') => {
                return Err(TestRunError::Usage {
                    flag: flag.to_string(),
                });
            }
            path => options.paths.push(PathBuf::from(path)),
        }
    }
    if options.paths.is_empty() {
        options.paths.push(PathBuf::from("."));
    }
    Ok(options)
}

/// The counts of one run.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Tests that passed.
    pub passed: usize,
    /// Tests that failed (a file that could not run counts as one).
    pub failed: usize,
    /// Test files run.
    pub files: usize,
    /// Distinct extensions the tests loaded.
    pub extensions: usize,
}

/// Run `pi test` (the words after `test`) and return the exit code: 0 when every test
/// passed, 1 otherwise, 2 for a wrong command line.
pub fn run(argv: &[String]) -> i32 {
    let options = match parse(argv) {
        Ok(options) => options,
        Err(usage) => {
            eprintln!("{usage}");
            return 2;
        }
    };
    crate::lua::ui::record_call_sites(true);
    let options = TestOptions {
        paths: options
            .paths
            .iter()
            .map(|p| start_folder().join(p))
            .collect(),
        ..options
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => Arc::new(runtime),
        Err(e) => {
            eprintln!("{}", t!("pi.cli.runtime_failed", error = e.to_string()));
            return 1;
        }
    };
    if options.watch {
        return watch::run_watching(&options, &runtime);
    }
    let summary = run_once(&options, &runtime, &mut std::io::stdout());
    i32::from(summary.failed > 0 || summary.passed == 0)
}

/// Run every test file once, writing the report to `out`.
pub fn run_once(
    options: &TestOptions,
    runtime: &Arc<tokio::runtime::Runtime>,
    out: &mut dyn std::io::Write,
) -> Summary {
    let files = discover::test_files(&options.paths);
    let mut summary = Summary::default();
    if files.is_empty() {
        let _ = writeln!(out, "{}", t!("pi.test.none_found"));
        return summary;
    }
    let mut covered = BTreeSet::new();
    for file in &files {
        summary.files += 1;
        let _ = writeln!(out, "{}", display(file));
        match run_file(file, options.update, runtime, out) {
            Ok((passed, failed, extensions)) => {
                summary.passed += passed;
                summary.failed += failed;
                covered.extend(extensions);
            }
            Err(error) => {
                summary.failed += 1;
                let _ = writeln!(out, "  ✗ {}", indent(&error.to_string(), "    "));
            }
        }
    }
    summary.extensions = covered.len();
    let _ = writeln!(
        out,
        "\n{}",
        t!(
            "pi.test.summary",
            passed = summary.passed,
            failed = summary.failed,
            extensions = t!("pi.test.summary.extensions", count = summary.extensions),
            files = t!("pi.test.summary.files", count = summary.files)
        )
    );
    summary
}

/// The folder `pi test` was started in (each test runs in its own working folder).
pub(crate) fn start_folder() -> &'static Path {
    static START: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    START.get_or_init(|| std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")))
}

/// A path as the user would write it: relative to the folder `pi test` started in.
fn display(path: &Path) -> String {
    let path = path.strip_prefix(start_folder()).unwrap_or(path);
    path.strip_prefix(".").unwrap_or(path).display().to_string()
}

fn indent(text: &str, prefix: &str) -> String {
    text.trim_end().replace('\n', &format!("\n{prefix}"))
}

/// `site` (`/abs/file.lua:12`) with its path shortened as [`display`] does.
fn short_site(site: &str) -> String {
    match site.rsplit_once(':') {
        Some((file, line)) => format!("{}:{line}", display(Path::new(file))),
        None => site.to_string(),
    }
}

/// Run one test file: `(passed, failed, extensions loaded)`, or why it could not run.
fn run_file(
    file: &Path,
    update: bool,
    runtime: &Arc<tokio::runtime::Runtime>,
    out: &mut dyn std::io::Write,
) -> Result<(usize, usize, Vec<PathBuf>), TestRunError> {
    let file = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let source = std::fs::read_to_string(&file).map_err(|error| TestRunError::Unreadable {
        path: file.clone(),
        error,
    })?;
    let ctx = Rc::new(FileContext {
        test: file.clone(),
        extensions: RefCell::new(discover::extension_under_test(&file).into_iter().collect()),
        chose: RefCell::new(false),
        world: RefCell::new(None),
        update,
        written: RefCell::new(Vec::new()),
        runtime: runtime.clone(),
    });
    // The test's own code, trusted like the extension it tests: all of Lua's libraries,
    // `debug` included (failures name the test's line with it).
    let lua = unsafe { mlua::Lua::unsafe_new() };
    let setup = || -> mlua::Result<()> {
        lua_api::install(&lua, ctx.clone())?;
        lua.globals()
            .set("__TEST_SOURCE", format!("@{}", file.display()))?;
        lua.load(PRELUDE).set_name("=pi.test").exec()?;
        lua.load(&source)
            .set_name(format!("@{}", file.display()))
            .exec()
    };
    setup()?;
    let covered = RefCell::new(BTreeSet::new());
    let (passed, failed) = (RefCell::new(0usize), RefCell::new(0usize));
    let out = RefCell::new(out);
    let c = ctx.clone();
    let begin = lua.create_function(move |_, ()| {
        let world = harness::TestWorld::new(c.extensions.borrow().clone())
            .map_err(mlua::Error::external)?;
        *c.world.borrow_mut() = Some(world);
        Ok(())
    })?;
    let c = ctx.clone();
    lua.scope(|scope| {
        let finish = scope.create_function(|_, ()| {
            let Some(mut world) = c.world.borrow_mut().take() else {
                return Ok(Vec::new());
            };
            let problems = world.ui.problems();
            if world.session.is_some() {
                covered.borrow_mut().extend(world.extensions.clone());
            }
            c.runtime.block_on(world.finish());
            Ok(problems)
        })?;
        let report = scope.create_function(
            |_, (name, _line, failure): (String, u32, Option<mlua::Table>)| {
                let mut out = out.borrow_mut();
                match failure {
                    None => {
                        *passed.borrow_mut() += 1;
                        let _ = writeln!(out, "  ✓ {name}");
                    }
                    Some(failure) => {
                        *failed.borrow_mut() += 1;
                        let _ = writeln!(out, "  ✗ {name}");
                        write_failure(&mut **out, &ctx.test, &failure);
                    }
                }
                Ok(())
            },
        )?;
        let run: mlua::Function = lua.globals().get("__pi_run_tests")?;
        run.call::<usize>((begin.clone(), finish, report))
    })?;
    for path in ctx.written.borrow().iter() {
        let _ = writeln!(
            out.borrow_mut(),
            "  {}",
            t!("pi.test.snapshot_written", path = display(path))
        );
    }
    let (passed, failed) = (*passed.borrow(), *failed.borrow());
    Ok((passed, failed, covered.into_inner().into_iter().collect()))
}

/// The lines under a failed test: where in the test, where in the extension, what.
fn write_failure(out: &mut dyn std::io::Write, test: &Path, failure: &mlua::Table) {
    let message: String = failure.get("message").unwrap_or_default();
    let line: Option<u32> = failure.get("line").ok().flatten();
    let from: Option<String> = failure.get("from").ok().flatten();
    if let Some(line) = line {
        let _ = writeln!(
            out,
            "    {}",
            t!(
                "pi.test.failed_at",
                site = format!("{}:{line}", display(test))
            )
        );
    }
    if let Some(from) = from {
        let _ = writeln!(
            out,
            "    {}",
            t!("pi.test.failed_from", site = short_site(&from))
        );
    }
    let _ = writeln!(out, "    {}", indent(&message, "    "));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_takes_paths_update_and_watch_and_refuses_other_flags() {
        assert!(is_test_command(&["test".into()]));
        assert!(!is_test_command(&["-p".into(), "test".into()]));
        let options = parse(&["extensions".into(), "--update".into()]).unwrap();
        assert_eq!(options.paths, vec![PathBuf::from("extensions")]);
        assert!(options.update && !options.watch);
        assert_eq!(parse(&[]).unwrap().paths, vec![PathBuf::from(".")]);
        assert!(matches!(
            parse(&["--bogus".into()]),
            Err(TestRunError::Usage { flag }) if flag == "--bogus"
        ));
    }
}
