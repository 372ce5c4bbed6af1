//! `pi test --watch`: run the tests, then again after every saved `.lua` file under the
//! paths (writes settle for a moment first), until interrupted.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};

use super::{TestOptions, run_once};

/// Quiet time after the last change before the tests run again.
const SETTLE: Duration = Duration::from_millis(200);

/// Run, watch, run again; returns only when watching fails.
pub fn run_watching(options: &TestOptions, runtime: &Arc<tokio::runtime::Runtime>) -> i32 {
    let (tx, rx) = mpsc::channel::<()>();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        let lua = event
            .paths
            .iter()
            .any(|p| p.extension().is_some_and(|e| e == "lua"));
        if lua && !event.kind.is_access() {
            let _ = tx.send(());
        }
    });
    let mut watcher = match watcher {
        Ok(watcher) => watcher,
        Err(e) => {
            eprintln!(
                "{}",
                crate::t!("pi.test.watch_failed", error = e.to_string())
            );
            return 1;
        }
    };
    for path in &options.paths {
        if let Err(e) = watcher.watch(path, RecursiveMode::Recursive) {
            eprintln!(
                "{}",
                crate::t!("pi.test.watch_failed", error = e.to_string())
            );
            return 1;
        }
    }
    loop {
        run_once(options, runtime, &mut std::io::stdout());
        println!("{}", crate::t!("pi.test.watching"));
        if rx.recv().is_err() {
            return 1;
        }
        while rx.recv_timeout(SETTLE).is_ok() {}
    }
}
