//! Reading terminal events from standard input: raw bytes through the [`StdinBuffer`] and
//! the decoder, and a resize event for each SIGWINCH.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crossterm::event::Event;

use super::events::events_of;
use super::parse::DecodeContext;
use super::stdin_buffer::StdinBuffer;

/// Reads terminal events from standard input (see the module documentation).
pub struct TerminalReader {
    fd: RawFd,
    buffer: StdinBuffer,
    queue: VecDeque<Event>,
    kitty_active: fn() -> bool,
}

/// The read end of the pipe SIGWINCH writes to, set up once per process.
fn resize_signals() -> Option<&'static UnixStream> {
    static PIPE: OnceLock<Option<UnixStream>> = OnceLock::new();
    PIPE.get_or_init(|| {
        let (read, write) = UnixStream::pair().ok()?;
        read.set_nonblocking(true).ok()?;
        write.set_nonblocking(true).ok()?;
        signal_hook::low_level::pipe::register(signal_hook::consts::SIGWINCH, write).ok()?;
        Some(read)
    })
    .as_ref()
}

impl TerminalReader {
    /// A reader of standard input; `kitty_active` tells whether the Kitty keyboard
    /// protocol is on at the moment a sequence is decoded.
    pub fn new(kitty_active: fn() -> bool) -> TerminalReader {
        TerminalReader::from_fd(io::stdin().as_raw_fd(), kitty_active)
    }

    /// A reader of another descriptor (the caller keeps it open while reading).
    pub fn from_fd(fd: RawFd, kitty_active: fn() -> bool) -> TerminalReader {
        TerminalReader {
            fd,
            buffer: StdinBuffer::default(),
            queue: VecDeque::new(),
            kitty_active,
        }
    }

    /// Forget input held back (an unfinished sequence); used before another program
    /// takes the terminal.
    pub fn reset(&mut self) {
        self.buffer.clear();
    }

    /// The next event, waiting at most `timeout`: `Ok(None)` when none came. An error when
    /// standard input is closed or cannot be read.
    pub fn read(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        let until = Instant::now() + timeout;
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Ok(Some(event));
            }
            let now = Instant::now();
            let due = self.buffer.expire(now);
            self.take(due);
            if !self.queue.is_empty() {
                continue;
            }
            if now >= until {
                return Ok(None);
            }
            let wake = self.buffer.deadline().map_or(until, |d| d.min(until));
            self.wait(wake.saturating_duration_since(now))?;
        }
    }

    fn take(&mut self, input: Vec<super::StdinEvent>) {
        let ctx = DecodeContext::from_environment((self.kitty_active)());
        for item in input {
            self.queue.extend(events_of(item, ctx));
        }
    }

    /// Wait for input or a resize for at most `wait`, and take what came.
    fn wait(&mut self, wait: Duration) -> io::Result<()> {
        let signals = resize_signals();
        let mut fds = vec![libc::pollfd {
            fd: self.fd,
            events: libc::POLLIN,
            revents: 0,
        }];
        if let Some(pipe) = signals {
            fds.push(libc::pollfd {
                fd: pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            });
        }
        let millis = wait.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        // SAFETY: `fds` is a valid array of pollfd for the duration of the call.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            return match error.kind() {
                io::ErrorKind::Interrupted => Ok(()),
                _ => Err(error),
            };
        }
        if let (Some(mut pipe), Some(fd)) = (signals, fds.get(1))
            && fd.revents & libc::POLLIN != 0
        {
            let mut drain = [0u8; 64];
            while matches!(pipe.read(&mut drain), Ok(n) if n > 0) {}
            if let Ok((columns, rows)) = crossterm::terminal::size() {
                self.queue.push_back(Event::Resize(columns, rows));
            }
        }
        let stdin = fds[0].revents;
        if stdin & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0 {
            let mut bytes = [0u8; 4096];
            // SAFETY: reading into a stack buffer of the given length.
            let n = unsafe { libc::read(self.fd, bytes.as_mut_ptr().cast(), bytes.len()) };
            if n < 0 {
                let error = io::Error::last_os_error();
                return match error.kind() {
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock => Ok(()),
                    _ => Err(error),
                };
            }
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            let mut input = self.buffer.process(&bytes[..n as usize]);
            // A read that ends in a lone ESC with nothing more waiting is the Escape key
            // (a key pressed after it comes in a read of its own, not as Alt with it).
            if self.buffer.pending() == "\x1b" && !self.input_waiting() {
                input.extend(self.buffer.flush().into_iter().map(super::StdinEvent::Data));
            }
            self.take(input);
        }
        Ok(())
    }

    /// More input can be read at once.
    fn input_waiting(&self) -> bool {
        let mut fd = libc::pollfd {
            fd: self.fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        unsafe { libc::poll(&mut fd, 1, 0) > 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn legacy() -> bool {
        false
    }

    fn pipe() -> (RawFd, RawFd) {
        let mut fds = [0; 2];
        // SAFETY: a two-element array for the pipe's ends.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        (fds[0], fds[1])
    }

    fn write(fd: RawFd, bytes: &[u8]) {
        // SAFETY: writing a valid buffer of the given length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        assert_eq!(n, bytes.len() as isize);
    }

    #[test]
    fn bytes_become_events_and_a_lone_escape_waits_for_its_timeout() {
        let (read, write_end) = pipe();
        let mut reader = TerminalReader::from_fd(read, legacy);
        write(write_end, b"\x1b[27;2;13~a\x1b[200~x\ny\x1b[201~");
        let wait = Duration::from_millis(500);
        let key = |code, modifiers| Some(Event::Key(KeyEvent::new(code, modifiers)));
        assert_eq!(
            reader.read(wait).unwrap(),
            key(KeyCode::Enter, KeyModifiers::SHIFT)
        );
        assert_eq!(
            reader.read(wait).unwrap(),
            key(KeyCode::Char('a'), KeyModifiers::NONE)
        );
        assert_eq!(
            reader.read(wait).unwrap(),
            Some(Event::Paste("x\ny".into()))
        );
        // Nothing more: the read gives up after its wait.
        assert_eq!(reader.read(Duration::from_millis(20)).unwrap(), None);
        // A lone ESC is Escape once its short timeout has passed.
        write(write_end, b"\x1b");
        let started = Instant::now();
        assert_eq!(
            reader.read(wait).unwrap(),
            key(KeyCode::Esc, KeyModifiers::NONE)
        );
        assert!(started.elapsed() < Duration::from_millis(400));
        // Held input is dropped by a reset (before another program reads the terminal).
        reader.buffer = StdinBuffer::new(Duration::from_secs(60));
        write(write_end, b"\x1b[");
        assert_eq!(reader.read(Duration::from_millis(50)).unwrap(), None);
        assert_eq!(reader.buffer.pending(), "\x1b[");
        reader.reset();
        assert_eq!(reader.buffer.pending(), "");
        write(write_end, b"b");
        assert_eq!(
            reader.read(wait).unwrap(),
            key(KeyCode::Char('b'), KeyModifiers::NONE)
        );
        // SAFETY: closing the write end; the reader then sees the end of input.
        unsafe { libc::close(write_end) };
        assert!(reader.read(wait).is_err());
        // SAFETY: closing the read end opened above.
        unsafe { libc::close(read) };
    }
}
