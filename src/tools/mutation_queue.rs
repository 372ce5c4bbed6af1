//! Serialises mutations of the same file: edits and writes to one file run
//! one after another (in arrival order), different files run concurrently.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};
use tokio_util::sync::CancellationToken;

use crate::agent::tool::ToolError;

use super::args::{check_aborted, unless_aborted};

type QueueMap = HashMap<PathBuf, Arc<AsyncMutex<()>>>;

static QUEUES: LazyLock<Mutex<QueueMap>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// The key of a file: its canonical path when it exists, else the path itself.
fn queue_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Exclusive access to one file until dropped.
pub struct FileMutationGuard {
    key: PathBuf,
    lock: Option<OwnedMutexGuard<()>>,
    queue: Arc<AsyncMutex<()>>,
}

impl Drop for FileMutationGuard {
    fn drop(&mut self) {
        self.lock.take();
        let mut queues = QUEUES.lock().unwrap_or_else(|e| e.into_inner());
        // Only the map and this guard hold the queue: nobody else is waiting.
        if Arc::strong_count(&self.queue) == 2 {
            queues.remove(&self.key);
        }
    }
}

/// Wait until no other mutation of `path` is running, then hold the file.
pub async fn lock_file(path: &Path) -> FileMutationGuard {
    let key = queue_key(path);
    let queue = {
        let mut queues = QUEUES.lock().unwrap_or_else(|e| e.into_inner());
        queues.entry(key.clone()).or_default().clone()
    };
    let lock = queue.clone().lock_owned().await;
    FileMutationGuard {
        key,
        lock: Some(lock),
        queue,
    }
}

/// [`lock_file`] for a tool: an "Operation aborted" error when `signal` has
/// fired or fires while waiting.
pub async fn lock_file_unless_aborted(
    path: &Path,
    signal: &CancellationToken,
) -> Result<FileMutationGuard, ToolError> {
    check_aborted(signal)?;
    unless_aborted(signal, lock_file(path)).await
}

/// Run `operation` while holding the mutation lock of `path`.
pub async fn with_file_mutation_queue<T>(path: &Path, operation: impl Future<Output = T>) -> T {
    let _guard = lock_file(path).await;
    operation.await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn same_file_runs_one_at_a_time() {
        let active = Arc::new(AtomicUsize::new(0));
        let max_seen = Arc::new(AtomicUsize::new(0));
        let path = PathBuf::from("/tmp/pi-mutation-queue-test-same");
        let tasks: Vec<_> = (0..4)
            .map(|_| {
                let (active, max_seen, path) = (active.clone(), max_seen.clone(), path.clone());
                tokio::spawn(async move {
                    with_file_mutation_queue(&path, async {
                        let now = active.fetch_add(1, Ordering::SeqCst) + 1;
                        max_seen.fetch_max(now, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        active.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(max_seen.load(Ordering::SeqCst), 1);
        assert!(!QUEUES.lock().unwrap().contains_key(&path));
    }

    #[tokio::test]
    async fn different_files_run_concurrently() {
        let first = lock_file(Path::new("/tmp/pi-mutation-queue-test-a")).await;
        let second = tokio::time::timeout(
            Duration::from_secs(1),
            lock_file(Path::new("/tmp/pi-mutation-queue-test-b")),
        )
        .await;
        assert!(second.is_ok());
        drop(first);
    }
}
