//! What happens when pi's own output fails: a closed pipe (`pi -p ... | head -c1`),
//! a full disk or a file-size limit on a redirected stdout. pi ends with a clear
//! message on stderr and exit code 1, never a panic and never an unexplained
//! signal death.

use std::io::Write;

/// Exit code after stdout could not be written.
pub const OUTPUT_FAILED_EXIT: i32 = 1;

/// Install the guards, first thing in `main`: SIGXFSZ (a file-size limit such
/// as `ulimit -f`) no longer kills pi — the write fails with an error that is
/// reported like any other — and a failed `println!` anywhere ends pi with
/// [`stdout_failed`]'s message instead of a panic report.
pub fn install() {
    // SAFETY: setting a signal's disposition to "ignore" has no handler code
    // and cannot race with anything that relies on SIGXFSZ.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if let Some(error) = text.strip_prefix("failed printing to stdout: ") {
            report_and_exit(error);
        }
        if text.starts_with("failed printing to stderr") {
            std::process::exit(OUTPUT_FAILED_EXIT);
        }
        default_hook(info);
    }));
}

/// End pi after a failed write to stdout: the reason on stderr, exit code 1.
pub fn stdout_failed(error: &std::io::Error) -> ! {
    report_and_exit(&error.to_string())
}

fn report_and_exit(error: &str) -> ! {
    let message = crate::t!("pi.cli.stdout_failed", error = error);
    let _ = writeln!(std::io::stderr(), "{message}");
    std::process::exit(OUTPUT_FAILED_EXIT);
}
