//! The stdin buffer: raw terminal bytes in, whole sequences out — characters one by one,
//! escape sequences (CSI, SS3, SGR and X10 mouse reports, Kitty keys) only once complete
//! however the reads cut them, an unfinished tail handed out after its timeout, and a
//! bracketed paste as one paste.
//! orig-file: packages/tui/test/stdin-buffer.test.ts

use std::time::{Duration, Instant};

use pi::ui_kit::keys::{StdinBuffer, StdinEvent};

/// The timeout the original's cases use.
const TIMEOUT: Duration = Duration::from_millis(10);
/// Longer than [`TIMEOUT`], as the original's cases wait.
const AFTER_TIMEOUT: Duration = Duration::from_millis(15);

/// A buffer and everything it has handed out so far.
struct Fed {
    buffer: StdinBuffer,
    data: Vec<String>,
    pastes: Vec<String>,
}

impl Fed {
    fn new() -> Fed {
        Fed {
            buffer: StdinBuffer::new(TIMEOUT),
            data: Vec::new(),
            pastes: Vec::new(),
        }
    }

    fn take(&mut self, events: Vec<StdinEvent>) {
        for event in events {
            match event {
                StdinEvent::Data(d) => self.data.push(d),
                StdinEvent::Paste(p) => self.pastes.push(p),
            }
        }
    }

    fn process(&mut self, input: &str) {
        let events = self.buffer.process(input.as_bytes());
        self.take(events);
    }

    /// Let time pass, then hand out what has timed out by now.
    fn wait(&mut self, time: Duration) {
        std::thread::sleep(time);
        let events = self.buffer.expire(Instant::now());
        self.take(events);
    }

    fn pending(&self) -> String {
        self.buffer.pending()
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Feed `input` in one read and expect these sequences at once.
fn passes_through(input: &str, expected: &[&str]) {
    let mut fed = Fed::new();
    fed.process(input);
    assert_eq!(fed.data, strings(expected));
    assert_eq!(fed.pending(), "");
}

/// orig: StdinBuffer › Regular Characters › should pass through regular characters immediately
#[test]
fn a_character_passes_at_once() {
    passes_through("a", &["a"]);
}

/// orig: StdinBuffer › Regular Characters › should pass through multiple regular characters
#[test]
fn characters_pass_one_by_one() {
    passes_through("abc", &["a", "b", "c"]);
}

/// orig: StdinBuffer › Regular Characters › should handle unicode characters
#[test]
fn unicode_characters_pass_whole() {
    passes_through("hello 世界", &["h", "e", "l", "l", "o", " ", "世", "界"]);
}

/// A character cut between two reads comes out whole once its last byte arrives.
#[test]
fn a_character_split_across_reads_comes_out_whole() {
    let mut fed = Fed::new();
    let bytes = "世".as_bytes();
    let events = fed.buffer.process(&bytes[..2]);
    fed.take(events);
    assert!(fed.data.is_empty());
    let events = fed.buffer.process(&bytes[2..]);
    fed.take(events);
    assert_eq!(fed.data, strings(&["世"]));
}

/// orig: StdinBuffer › Complete Escape Sequences › should pass through complete mouse SGR sequences
#[test]
fn a_whole_sgr_mouse_report_passes() {
    passes_through("\x1b[<35;20;5m", &["\x1b[<35;20;5m"]);
}

/// orig: StdinBuffer › Complete Escape Sequences › should pass through complete arrow key sequences
#[test]
fn an_arrow_key_passes() {
    passes_through("\x1b[A", &["\x1b[A"]);
}

/// orig: StdinBuffer › Complete Escape Sequences › should pass through complete function key sequences
#[test]
fn a_function_key_passes() {
    passes_through("\x1b[11~", &["\x1b[11~"]);
}

/// orig: StdinBuffer › Complete Escape Sequences › should pass through meta key sequences
#[test]
fn a_meta_key_passes() {
    passes_through("\x1ba", &["\x1ba"]);
}

/// orig: StdinBuffer › Complete Escape Sequences › should pass through SS3 sequences
#[test]
fn an_ss3_key_passes() {
    passes_through("\x1bOA", &["\x1bOA"]);
}

/// orig: StdinBuffer › Partial Escape Sequences › should buffer incomplete mouse SGR sequence
#[test]
fn an_unfinished_mouse_report_is_held_until_complete() {
    let mut fed = Fed::new();
    fed.process("\x1b");
    assert!(fed.data.is_empty());
    assert_eq!(fed.pending(), "\x1b");
    fed.process("[<35");
    assert!(fed.data.is_empty());
    assert_eq!(fed.pending(), "\x1b[<35");
    fed.process(";20;5m");
    assert_eq!(fed.data, strings(&["\x1b[<35;20;5m"]));
    assert_eq!(fed.pending(), "");
}

/// orig: StdinBuffer › Partial Escape Sequences › should buffer incomplete CSI sequence
#[test]
fn an_unfinished_csi_sequence_is_held_until_complete() {
    let mut fed = Fed::new();
    fed.process("\x1b[");
    assert!(fed.data.is_empty());
    fed.process("1;");
    assert!(fed.data.is_empty());
    fed.process("5H");
    assert_eq!(fed.data, strings(&["\x1b[1;5H"]));
}

/// orig: StdinBuffer › Partial Escape Sequences › should buffer split across many chunks
#[test]
fn a_sequence_cut_into_many_reads_comes_out_once() {
    let mut fed = Fed::new();
    for chunk in ["\x1b", "[", "<", "3", "5", ";", "2", "0", ";", "5", "m"] {
        fed.process(chunk);
    }
    assert_eq!(fed.data, strings(&["\x1b[<35;20;5m"]));
}

/// orig: StdinBuffer › Partial Escape Sequences › should flush incomplete sequence after timeout
#[test]
fn an_unfinished_sequence_comes_out_after_the_timeout() {
    let mut fed = Fed::new();
    fed.process("\x1b[<35");
    fed.wait(Duration::ZERO);
    assert!(fed.data.is_empty(), "not before the timeout");
    fed.wait(AFTER_TIMEOUT);
    assert_eq!(fed.data, strings(&["\x1b[<35"]));
}

/// orig: StdinBuffer › Mixed Content › should handle characters followed by escape sequence
#[test]
fn characters_then_a_sequence() {
    passes_through("abc\x1b[A", &["a", "b", "c", "\x1b[A"]);
}

/// orig: StdinBuffer › Mixed Content › should handle escape sequence followed by characters
#[test]
fn a_sequence_then_characters() {
    passes_through("\x1b[Aabc", &["\x1b[A", "a", "b", "c"]);
}

/// orig: StdinBuffer › Mixed Content › should handle multiple complete sequences
#[test]
fn several_sequences_in_one_read() {
    passes_through("\x1b[A\x1b[B\x1b[C", &["\x1b[A", "\x1b[B", "\x1b[C"]);
}

/// orig: StdinBuffer › Mixed Content › should handle partial sequence with preceding characters
#[test]
fn characters_pass_while_the_unfinished_sequence_after_them_waits() {
    let mut fed = Fed::new();
    fed.process("abc\x1b[<35");
    assert_eq!(fed.data, strings(&["a", "b", "c"]));
    assert_eq!(fed.pending(), "\x1b[<35");
    fed.process(";20;5m");
    assert_eq!(fed.data, strings(&["a", "b", "c", "\x1b[<35;20;5m"]));
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle Kitty CSI u press events
#[test]
fn a_kitty_press_passes() {
    passes_through("\x1b[97u", &["\x1b[97u"]);
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle Kitty CSI u release events
#[test]
fn a_kitty_release_passes() {
    passes_through("\x1b[97;1:3u", &["\x1b[97;1:3u"]);
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle batched Kitty press and release
#[test]
fn a_batched_kitty_press_and_release_come_apart() {
    passes_through("\x1b[97u\x1b[97;1:3u", &["\x1b[97u", "\x1b[97;1:3u"]);
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle multiple batched Kitty events
#[test]
fn many_batched_kitty_events_come_apart() {
    passes_through(
        "\x1b[97u\x1b[97;1:3u\x1b[98u\x1b[98;1:3u",
        &["\x1b[97u", "\x1b[97;1:3u", "\x1b[98u", "\x1b[98;1:3u"],
    );
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle Kitty arrow keys with event type
#[test]
fn a_kitty_arrow_with_event_type_passes() {
    passes_through("\x1b[1;1:1A", &["\x1b[1;1:1A"]);
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle Kitty functional keys with event type
#[test]
fn a_kitty_functional_key_with_event_type_passes() {
    passes_through("\x1b[3;1:3~", &["\x1b[3;1:3~"]);
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle plain characters mixed with Kitty sequences
#[test]
fn a_character_then_a_kitty_release() {
    passes_through("a\x1b[97;1:3u", &["a", "\x1b[97;1:3u"]);
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle Kitty sequence followed by plain characters
#[test]
fn a_kitty_press_then_a_character() {
    // A different character after the press is a key of its own.
    passes_through("\x1b[97ub", &["\x1b[97u", "b"]);
    passes_through("\x1b[97;1:3ua", &["\x1b[97;1:3u", "a"]);
    // The same character right after an unmodified press is the terminal's echo of it
    // (0.73.1 drops it, once).
    passes_through("\x1b[97ua", &["\x1b[97u"]);
    passes_through("\x1b[97uaa", &["\x1b[97u", "a"]);
}

/// orig: StdinBuffer › Kitty Keyboard Protocol › should handle rapid typing simulation with Kitty protocol
#[test]
fn rapid_kitty_typing_comes_apart() {
    passes_through(
        "\x1b[104u\x1b[104;1:3u\x1b[105u\x1b[105;1:3u",
        &["\x1b[104u", "\x1b[104;1:3u", "\x1b[105u", "\x1b[105;1:3u"],
    );
}

/// orig: StdinBuffer › Mouse Events › should handle mouse press event
#[test]
fn a_mouse_press_passes() {
    passes_through("\x1b[<0;10;5M", &["\x1b[<0;10;5M"]);
}

/// orig: StdinBuffer › Mouse Events › should handle mouse release event
#[test]
fn a_mouse_release_passes() {
    passes_through("\x1b[<0;10;5m", &["\x1b[<0;10;5m"]);
}

/// orig: StdinBuffer › Mouse Events › should handle mouse move event
#[test]
fn a_mouse_move_passes() {
    passes_through("\x1b[<35;20;5m", &["\x1b[<35;20;5m"]);
}

/// orig: StdinBuffer › Mouse Events › should handle split mouse events
#[test]
fn a_split_mouse_report_comes_out_whole() {
    let mut fed = Fed::new();
    for chunk in ["\x1b[<3", "5;1", "5;", "10m"] {
        fed.process(chunk);
    }
    assert_eq!(fed.data, strings(&["\x1b[<35;15;10m"]));
}

/// orig: StdinBuffer › Mouse Events › should handle multiple mouse events
#[test]
fn several_mouse_reports_come_apart() {
    passes_through(
        "\x1b[<35;1;1m\x1b[<35;2;2m\x1b[<35;3;3m",
        &["\x1b[<35;1;1m", "\x1b[<35;2;2m", "\x1b[<35;3;3m"],
    );
}

/// orig: StdinBuffer › Mouse Events › should handle old-style mouse sequence (ESC[M + 3 bytes)
#[test]
fn an_x10_mouse_report_is_six_bytes() {
    passes_through("\x1b[M abc", &["\x1b[M ab", "c"]);
}

/// orig: StdinBuffer › Mouse Events › should buffer incomplete old-style mouse sequence
#[test]
fn an_unfinished_x10_mouse_report_is_held() {
    let mut fed = Fed::new();
    fed.process("\x1b[M");
    assert_eq!(fed.pending(), "\x1b[M");
    fed.process(" a");
    assert_eq!(fed.pending(), "\x1b[M a");
    fed.process("b");
    assert_eq!(fed.data, strings(&["\x1b[M ab"]));
}

/// orig: StdinBuffer › Edge Cases › should handle empty input
#[test]
fn an_empty_read_hands_out_an_empty_sequence() {
    passes_through("", &[""]);
}

/// orig: StdinBuffer › Edge Cases › should handle lone escape character with timeout
#[test]
fn a_lone_escape_comes_out_after_the_timeout() {
    let mut fed = Fed::new();
    fed.process("\x1b");
    fed.wait(Duration::ZERO);
    assert!(fed.data.is_empty());
    fed.wait(AFTER_TIMEOUT);
    assert_eq!(fed.data, strings(&["\x1b"]));
}

/// orig: StdinBuffer › Edge Cases › should handle lone escape character with explicit flush
#[test]
fn a_lone_escape_comes_out_on_flush() {
    let mut fed = Fed::new();
    fed.process("\x1b");
    assert!(fed.data.is_empty());
    assert_eq!(fed.buffer.flush(), strings(&["\x1b"]));
}

/// orig: StdinBuffer › Edge Cases › should handle buffer input
#[test]
fn raw_bytes_are_read() {
    let mut fed = Fed::new();
    let events = fed.buffer.process(&[0x1b, b'[', b'A']);
    fed.take(events);
    assert_eq!(fed.data, strings(&["\x1b[A"]));
}

/// A lone byte with the high bit set is Meta with the key (bit 8 set by the terminal).
#[test]
fn a_lone_high_byte_is_meta_with_the_key() {
    let mut fed = Fed::new();
    let events = fed.buffer.process(&[0x80 | b'a']);
    fed.take(events);
    assert_eq!(fed.data, strings(&["\x1ba"]));
}

/// orig: StdinBuffer › Edge Cases › should handle very long sequences
#[test]
fn a_very_long_sequence_passes_whole() {
    let long = format!("\x1b[{}H", "1;".repeat(50));
    passes_through(&long, &[&long]);
}

/// orig: StdinBuffer › Flush › should flush incomplete sequences
#[test]
fn flush_hands_out_the_unfinished_tail() {
    let mut fed = Fed::new();
    fed.process("\x1b[<35");
    assert_eq!(fed.buffer.flush(), strings(&["\x1b[<35"]));
    assert_eq!(fed.pending(), "");
}

/// orig: StdinBuffer › Flush › should return empty array if nothing to flush
#[test]
fn flush_of_nothing_is_empty() {
    let mut fed = Fed::new();
    assert!(fed.buffer.flush().is_empty());
    fed.process("a");
    assert!(fed.buffer.flush().is_empty());
}

/// orig: StdinBuffer › Flush › should emit flushed data via timeout
#[test]
fn the_timeout_hands_out_the_tail() {
    let mut fed = Fed::new();
    fed.process("\x1b[<35");
    assert!(fed.data.is_empty());
    assert!(fed.buffer.deadline().is_some());
    fed.wait(AFTER_TIMEOUT);
    assert_eq!(fed.data, strings(&["\x1b[<35"]));
    assert!(fed.buffer.deadline().is_none());
}

/// orig: StdinBuffer › Clear › should clear buffered content without emitting
#[test]
fn clear_forgets_without_handing_out() {
    let mut fed = Fed::new();
    fed.process("\x1b[<35");
    assert_eq!(fed.pending(), "\x1b[<35");
    fed.buffer.clear();
    assert_eq!(fed.pending(), "");
    assert!(fed.data.is_empty());
}

/// orig: StdinBuffer › Bracketed Paste › should emit paste event for complete bracketed paste
#[test]
fn a_whole_paste_is_one_paste() {
    let mut fed = Fed::new();
    fed.process("\x1b[200~hello world\x1b[201~");
    assert_eq!(fed.pastes, strings(&["hello world"]));
    assert!(fed.data.is_empty());
}

/// orig: StdinBuffer › Bracketed Paste › should handle paste arriving in chunks
#[test]
fn a_paste_in_chunks_is_one_paste() {
    let mut fed = Fed::new();
    fed.process("\x1b[200~");
    assert!(fed.pastes.is_empty());
    fed.process("hello ");
    assert!(fed.pastes.is_empty());
    fed.process("world\x1b[201~");
    assert_eq!(fed.pastes, strings(&["hello world"]));
    assert!(fed.data.is_empty());
}

/// orig: StdinBuffer › Bracketed Paste › should handle paste with input before and after
#[test]
fn keys_before_and_after_a_paste_stay_keys() {
    let mut fed = Fed::new();
    fed.process("a");
    fed.process("\x1b[200~pasted\x1b[201~");
    fed.process("b");
    assert_eq!(fed.data, strings(&["a", "b"]));
    assert_eq!(fed.pastes, strings(&["pasted"]));
}

/// orig: StdinBuffer › Bracketed Paste › should handle paste with newlines
#[test]
fn a_paste_keeps_its_newlines() {
    let mut fed = Fed::new();
    fed.process("\x1b[200~line1\nline2\nline3\x1b[201~");
    assert_eq!(fed.pastes, strings(&["line1\nline2\nline3"]));
    assert!(fed.data.is_empty());
}

/// orig: StdinBuffer › Bracketed Paste › should handle paste with unicode
#[test]
fn a_paste_keeps_its_unicode() {
    let mut fed = Fed::new();
    fed.process("\x1b[200~Hello 世界 🎉\x1b[201~");
    assert_eq!(fed.pastes, strings(&["Hello 世界 🎉"]));
    assert!(fed.data.is_empty());
}

/// orig: StdinBuffer › Destroy › should clear buffer on destroy
#[test]
fn dropping_the_input_clears_the_buffer() {
    let mut fed = Fed::new();
    fed.process("\x1b[<35");
    assert_eq!(fed.pending(), "\x1b[<35");
    fed.buffer.clear();
    assert_eq!(fed.pending(), "");
}

/// orig: StdinBuffer › Destroy › should clear pending timeouts on destroy
#[test]
fn clearing_cancels_the_timeout() {
    let mut fed = Fed::new();
    fed.process("\x1b[<35");
    fed.buffer.clear();
    assert!(fed.buffer.deadline().is_none());
    fed.wait(AFTER_TIMEOUT);
    assert!(fed.data.is_empty());
}
