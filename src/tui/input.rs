//! Terminal input read on a dedicated thread, which can be paused so that an
//! external editor or the shell (after Ctrl+Z) gets every keystroke. The bytes are
//! decoded by pi's own reader ([`crate::ui_kit::keys::reader`]).

use crate::sync::LockExt;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::ui_kit::keys::reader::TerminalReader;
use crossterm::event::Event;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// How long one poll waits before checking for a pause request.
const POLL: Duration = Duration::from_millis(100);

#[derive(Default)]
struct Control {
    /// Requested state.
    paused: bool,
    /// The thread is parked (not reading).
    parked: bool,
    /// The receiver is gone.
    stopped: bool,
}

/// The input thread's handle.
pub struct Input {
    /// Terminal events in arrival order.
    pub events: UnboundedReceiver<Event>,
    control: Arc<(Mutex<Control>, Condvar)>,
}

impl Input {
    /// Start reading terminal events; text typed before the UI was ready
    /// comes first, as a paste into the editor (never sent on its own).
    pub fn start() -> Input {
        let (tx, events) = unbounded_channel();
        let typed = crate::tui::background::take_typed_ahead();
        if !typed.is_empty() {
            let _ = tx.send(Event::Paste(typed));
        }
        let control = Arc::new((Mutex::new(Control::default()), Condvar::new()));
        let thread_control = control.clone();
        std::thread::spawn(move || read_loop(tx, thread_control));
        Input { events, control }
    }

    /// Stop reading and wait until the thread no longer touches the terminal.
    pub fn pause(&self) {
        let (lock, wake) = &*self.control;
        let mut c = lock.locked();
        c.paused = true;
        while !c.parked && !c.stopped {
            c = crate::sync::wait(wake, c);
        }
    }

    /// Read again after [`Input::pause`].
    pub fn resume(&self) {
        let (lock, wake) = &*self.control;
        lock.locked().paused = false;
        wake.notify_all();
    }
}

impl Drop for Input {
    fn drop(&mut self) {
        let (lock, wake) = &*self.control;
        lock.locked().stopped = true;
        wake.notify_all();
    }
}

fn read_loop(tx: UnboundedSender<Event>, control: Arc<(Mutex<Control>, Condvar)>) {
    let (lock, wake) = &*control;
    let mut reader = TerminalReader::new(crate::tui::terminal::keyboard_enhanced);
    loop {
        {
            let mut c = lock.locked();
            if c.paused {
                reader.reset();
            }
            while c.paused && !c.stopped {
                c.parked = true;
                wake.notify_all();
                c = crate::sync::wait(wake, c);
            }
            c.parked = false;
            if c.stopped {
                c.parked = true;
                wake.notify_all();
                return;
            }
        }
        match reader.read(POLL) {
            Ok(Some(event)) => {
                if tx.send(event).is_err() {
                    return;
                }
            }
            Ok(None) => {}
            Err(_) => return,
        }
    }
}
