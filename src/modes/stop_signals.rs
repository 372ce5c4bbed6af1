//! SIGINT, SIGTERM and SIGHUP: each one stops the run the way Ctrl+C does, so
//! the partial answer is saved before pi exits.

use tokio::signal::unix::{Signal, SignalKind, signal};

/// The three signals that ask pi to stop, listened to from creation on.
pub struct StopSignals {
    listeners: Vec<(i32, Signal)>,
}

impl StopSignals {
    /// Start listening (from now on these signals no longer end pi at once).
    pub fn new() -> Self {
        let kinds = [
            (libc::SIGINT, SignalKind::interrupt()),
            (libc::SIGTERM, SignalKind::terminate()),
            (libc::SIGHUP, SignalKind::hangup()),
        ];
        StopSignals {
            listeners: kinds
                .into_iter()
                .filter_map(|(number, kind)| Some((number, signal(kind).ok()?)))
                .collect(),
        }
    }

    /// Wait for the next of them; returns its number.
    pub async fn recv(&mut self) -> i32 {
        if self.listeners.is_empty() {
            return std::future::pending().await;
        }
        let waits = self.listeners.iter_mut().map(|(number, listener)| {
            let number = *number;
            Box::pin(async move {
                if listener.recv().await.is_none() {
                    std::future::pending::<()>().await;
                }
                number
            })
        });
        futures::future::select_all(waits).await.0
    }
}

impl Default for StopSignals {
    fn default() -> Self {
        Self::new()
    }
}
