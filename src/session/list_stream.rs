//! Listing the sessions of every folder without waiting for all of them: the files are
//! read on threads of their own, the most recently written first, and each summary is
//! delivered as soon as it is read. `/resume`'s global scope shows the first sessions
//! while the rest are still being read.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use super::list::{SessionInfo, read_session_info};
use super::search::session_files;

/// Summaries of every stored session, arriving newest file first; dropping it stops
/// the reading.
#[derive(Debug)]
pub struct SessionStream {
    arrivals: Receiver<SessionInfo>,
    stop: Arc<AtomicBool>,
    done: bool,
}

impl SessionStream {
    /// Start reading the sessions in every folder under `sessions_root`; only those
    /// `keep` accepts are delivered.
    pub fn start(sessions_root: PathBuf, keep: fn(&SessionInfo) -> bool) -> Self {
        let (send, arrivals) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let spawned = std::thread::Builder::new()
            .name("session-list".into())
            .spawn(move || {
                let files = session_files(&sessions_root);
                let next = AtomicUsize::new(0);
                let workers = std::thread::available_parallelism()
                    .map_or(1, usize::from)
                    .min(files.len().max(1));
                let work = || {
                    let send = send.clone();
                    while !stopped.load(Ordering::Relaxed) {
                        let Some((path, _)) = files.get(next.fetch_add(1, Ordering::Relaxed))
                        else {
                            return;
                        };
                        if let Some(info) = read_session_info(path).filter(keep)
                            && send.send(info).is_err()
                        {
                            return;
                        }
                    }
                };
                std::thread::scope(|scope| {
                    for _ in 1..workers {
                        scope.spawn(work);
                    }
                    work();
                });
            });
        SessionStream {
            arrivals,
            // Nothing will arrive when the thread could not start.
            done: spawned.is_err(),
            stop,
        }
    }

    /// A stream that delivers `sessions`, already listed, at the first look.
    pub fn ready(sessions: Vec<SessionInfo>) -> Self {
        let (send, arrivals) = channel();
        for info in sessions {
            let _ = send.send(info);
        }
        SessionStream {
            arrivals,
            stop: Arc::new(AtomicBool::new(false)),
            done: false,
        }
    }

    /// A stream fed by hand through the returned sender; it ends when the sender is
    /// dropped.
    #[cfg(test)]
    pub(crate) fn fed() -> (std::sync::mpsc::Sender<SessionInfo>, Self) {
        let (send, arrivals) = channel();
        let stream = SessionStream {
            arrivals,
            stop: Arc::new(AtomicBool::new(false)),
            done: false,
        };
        (send, stream)
    }

    /// The sessions read since the last call, in the order they were read.
    pub fn take(&mut self) -> Vec<SessionInfo> {
        let mut out = Vec::new();
        while !self.done {
            match self.arrivals.try_recv() {
                Ok(info) => out.push(info),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.done = true,
            }
        }
        out
    }

    /// True once every file has been read and taken.
    pub fn is_done(&self) -> bool {
        self.done
    }
}

impl Drop for SessionStream {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Put `arrived` into `sessions`, keeping the list newest first (by activity, as
/// [`super::list::list_all_sessions`] orders it).
pub fn merge_newest_first(sessions: &mut Vec<SessionInfo>, arrived: Vec<SessionInfo>) {
    for info in arrived {
        let at = sessions.partition_point(|s| s.modified >= info.modified);
        sessions.insert(at, info);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::time::{Duration, Instant};

    fn write_session(dir: &Path, id: &str, text: &str, minute: u32) {
        std::fs::create_dir_all(dir).unwrap();
        let header = format!(
            r#"{{"type":"session","version":3,"id":"{id}","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p/{id}"}}"#
        );
        let ms = 1_735_689_600_000_i64 + i64::from(minute) * 60_000;
        let entry = format!(
            r#"{{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{{"role":"user","content":"{text}","timestamp":{ms}}}}}"#
        );
        std::fs::write(
            dir.join(format!("{id}.jsonl")),
            format!("{header}\n{entry}\n"),
        )
        .unwrap();
    }

    fn drain(stream: &mut SessionStream) -> Vec<SessionInfo> {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut all = Vec::new();
        while !stream.is_done() {
            assert!(Instant::now() < deadline, "the stream never finished");
            merge_newest_first(&mut all, stream.take());
            std::thread::sleep(Duration::from_millis(1));
        }
        all
    }

    #[test]
    fn every_folders_sessions_arrive_and_merge_newest_first() {
        let root = tempfile::tempdir().unwrap();
        write_session(&root.path().join("--a--"), "s1", "oldest", 1);
        write_session(&root.path().join("--b--"), "s2", "newest", 3);
        write_session(&root.path().join("--b--"), "s3", "middle", 2);
        write_session(&root.path().join("--c--"), "s4", "skipped", 4);
        // Not a session: skipped.
        std::fs::write(root.path().join("--a--").join("junk.jsonl"), "not json\n").unwrap();
        let mut stream =
            SessionStream::start(root.path().to_path_buf(), |s| s.first_message != "skipped");
        let all = drain(&mut stream);
        let firsts: Vec<&str> = all.iter().map(|s| s.first_message.as_str()).collect();
        assert_eq!(firsts, ["newest", "middle", "oldest"]);
        assert_eq!(all[0].cwd, "/p/s2");
        assert!(stream.take().is_empty(), "nothing more after the end");
    }

    #[test]
    fn a_missing_root_ends_with_nothing() {
        let root = tempfile::tempdir().unwrap();
        let mut stream = SessionStream::start(root.path().join("none"), |_| true);
        assert!(drain(&mut stream).is_empty());
    }

    #[test]
    fn dropping_the_stream_stops_the_reading() {
        let root = tempfile::tempdir().unwrap();
        for i in 0..200 {
            write_session(&root.path().join("--f--"), &format!("s{i}"), "x", i);
        }
        let stream = SessionStream::start(root.path().to_path_buf(), |_| true);
        let stop = Arc::clone(&stream.stop);
        drop(stream);
        assert!(stop.load(Ordering::Relaxed));
        // A fresh stream over the same folder still reads them all.
        let mut again = SessionStream::start(root.path().to_path_buf(), |_| true);
        assert_eq!(drain(&mut again).len(), 200);
    }
}
