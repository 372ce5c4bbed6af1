//! Watching extension files (setting `"extensions.watch": true`): a change
//! to a `.lua` file of a loaded extension, or a `.lua` file added to or
//! removed from an extension folder, produces one signal after the writes
//! settle, so the session can reload when it is idle.

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

/// Quiet time after the last change before a reload is signalled.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// The file system's change notifications could not be set up.
#[derive(Debug)]
pub struct WatchError {
    /// The watcher's own error.
    pub source: notify::Error,
}

impl std::fmt::Display for WatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::t!(
            "pi.ext.watch_failed",
            error = self.source.to_string()
        ))
    }
}

impl std::error::Error for WatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Watches the folders of the loaded extensions.
pub struct ExtensionWatcher {
    _watcher: RecommendedWatcher,
    changes: mpsc::UnboundedReceiver<()>,
}

/// The folder to watch for an extension entry file: the extension's own
/// folder for `init.lua`, else the folder holding the file.
fn watch_root(entry: &Path) -> Option<(PathBuf, RecursiveMode)> {
    let parent = entry.parent()?.to_path_buf();
    if entry.file_name().is_some_and(|f| f == "init.lua") {
        Some((parent, RecursiveMode::Recursive))
    } else {
        Some((parent, RecursiveMode::NonRecursive))
    }
}

impl ExtensionWatcher {
    /// Watch `entries` (extension entry files) and the extension `folders`
    /// (for files and folders added later; a folder that does not exist is
    /// skipped). Must be called inside a tokio runtime.
    pub fn start(entries: &[PathBuf], folders: &[PathBuf]) -> Result<Self, WatchError> {
        let (raw_tx, mut raw_rx) = mpsc::unbounded_channel::<()>();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let Ok(event) = event else { return };
                // A Lua file, or a folder made or removed (a folder extension's own
                // files may be written before the new folder is watched).
                let relevant = event.paths.iter().any(|p| {
                    p.extension().is_some_and(|e| e == "lua")
                        || (p.is_dir() && event.kind.is_create())
                        || (p.extension().is_none() && event.kind.is_remove())
                });
                if relevant && !event.kind.is_access() {
                    let _ = raw_tx.send(());
                }
            })
            .map_err(|source| WatchError { source })?;
        let mut roots: Vec<(PathBuf, RecursiveMode)> = folders
            .iter()
            .filter(|f| f.is_dir())
            .map(|f| (f.clone(), RecursiveMode::Recursive))
            .chain(entries.iter().filter_map(|e| watch_root(e)))
            .collect();
        roots.sort_by(|a, b| a.0.cmp(&b.0));
        roots.dedup_by(|a, b| a.0 == b.0);
        for (root, mode) in roots {
            if let Err(e) = watcher.watch(&root, mode) {
                let message = crate::t!(
                    "pi.ext.watch_path_failed",
                    path = root.display().to_string(),
                    error = e.to_string()
                );
                eprintln!("{}", crate::t!("pi.cli.warning", message = message));
            }
        }
        let (tx, changes) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while raw_rx.recv().await.is_some() {
                loop {
                    tokio::select! {
                        more = raw_rx.recv() => if more.is_none() { return },
                        _ = tokio::time::sleep(DEBOUNCE) => break,
                    }
                }
                if tx.send(()).is_err() {
                    return;
                }
            }
        });
        Ok(ExtensionWatcher {
            _watcher: watcher,
            changes,
        })
    }

    /// Wait for the next settled change.
    pub async fn changed(&mut self) {
        if self.changes.recv().await.is_none() {
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[tokio::test]
    async fn a_burst_of_saves_gives_one_signal_within_300_ms() {
        let dir = tempfile::tempdir().unwrap();
        let ext = dir.path().join("ext.lua");
        std::fs::write(&ext, "return function(pi) end").unwrap();
        let mut watcher = ExtensionWatcher::start(std::slice::from_ref(&ext), &[]).unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        let saved = Instant::now();
        for i in 0..5 {
            std::fs::write(&ext, format!("return function(pi) end -- {i}")).unwrap();
        }
        tokio::time::timeout(Duration::from_secs(2), watcher.changed())
            .await
            .expect("a change is signalled");
        // 300 ms of debounce plus scheduling slack on a loaded machine.
        assert!(
            saved.elapsed() < Duration::from_millis(1500),
            "{:?}",
            saved.elapsed()
        );
        let again = tokio::time::timeout(Duration::from_millis(300), watcher.changed()).await;
        assert!(again.is_err(), "one burst, one signal");
        std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
        let other = tokio::time::timeout(Duration::from_millis(300), watcher.changed()).await;
        assert!(other.is_err(), "non-Lua files are ignored");
    }

    #[tokio::test]
    async fn a_file_added_to_an_extension_folder_is_signalled() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("extensions");
        std::fs::create_dir_all(&folder).unwrap();
        let missing = dir.path().join("not-there");
        let mut watcher = ExtensionWatcher::start(&[], &[folder.clone(), missing]).unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        std::fs::create_dir_all(folder.join("tool")).unwrap();
        std::fs::write(folder.join("tool/init.lua"), "return function(pi) end").unwrap();
        tokio::time::timeout(Duration::from_secs(3), watcher.changed())
            .await
            .expect("a new folder extension is signalled");
        std::fs::remove_file(folder.join("tool/init.lua")).unwrap();
        tokio::time::timeout(Duration::from_secs(3), watcher.changed())
            .await
            .expect("a removed extension is signalled");
    }
}
