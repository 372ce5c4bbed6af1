//! The one-line text input (an extension's `ctx.ui.input` dialog): Enter submits what is
//! typed (a trailing backslash included), wide text stays inside the width, and the
//! Emacs kill ring and undo behave as in the prompt editor. Keys arrive as the bytes a
//! terminal sends.
//! orig-file: packages/tui/test/input.test.ts

use std::time::Instant;

use crate::editor_input::decode;
use pi::tui::chrome::dialog::{DialogKind, DialogOutcome, ExtDialog};
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::text::width;
use pi::ui_kit::theme::Theme;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

const UNDO: &str = "\x1b[45;5u";
const CTRL_A: &str = "\x01";
const CTRL_E: &str = "\x05";
const CTRL_W: &str = "\x17";
const CTRL_Y: &str = "\x19";
const CTRL_U: &str = "\x15";
const CTRL_K: &str = "\x0b";
const ALT_Y: &str = "\x1by";
const ALT_D: &str = "\x1bd";
const RIGHT: &str = "\x1b[C";

/// An input dialog and the channel its answer arrives on.
struct Input {
    dialog: ExtDialog,
    answer: oneshot::Receiver<Value>,
}

impl Input {
    fn new() -> Input {
        let (tx, answer) = oneshot::channel();
        let request = json!({"method": "input", "title": "Name"});
        let dialog = ExtDialog::from_request(&request, CancellationToken::new(), tx).unwrap();
        Input { dialog, answer }
    }

    /// One key's bytes, or a bracketed paste.
    fn key(&mut self, bytes: &str) -> DialogOutcome {
        if let Some(body) = bytes.strip_prefix("\x1b[200~") {
            self.dialog.paste(body.strip_suffix("\x1b[201~").unwrap());
            return DialogOutcome::Open;
        }
        self.dialog
            .handle_key(&decode(bytes), &Keybindings::default())
    }

    fn keys(&mut self, keys: &[&str]) {
        for k in keys {
            self.key(k);
        }
    }

    fn typed(&mut self, text: &str) {
        for c in text.chars() {
            self.key(c.encode_utf8(&mut [0; 4]));
        }
    }

    fn value(&self) -> String {
        match &self.dialog.kind {
            DialogKind::Input { editor, .. } => editor.text(),
            other => panic!("{other:?}"),
        }
    }

    fn set_value(&mut self, text: &str) {
        match &mut self.dialog.kind {
            DialogKind::Input { editor, .. } => editor.set_text(text),
            other => panic!("{other:?}"),
        }
    }

    /// Ctrl+A, then `n` steps right.
    fn home_then_right(&mut self, n: usize) {
        self.key(CTRL_A);
        for _ in 0..n {
            self.key(RIGHT);
        }
    }

    /// Kill `words` one after another, each typed in afresh and killed with Ctrl+W.
    fn kill_each(&mut self, words: &[&str]) {
        for w in words {
            self.set_value(w);
            self.keys(&[CTRL_E, CTRL_W]);
        }
    }

    /// The lines drawn at `width` and the cursor's (column, row).
    fn render(&self, width: usize) -> (Vec<String>, (usize, usize)) {
        let (lines, cursor) = self.dialog.lines(
            &Theme::plain(),
            &Keybindings::default(),
            width,
            Instant::now(),
        );
        let text = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        (text, cursor.unwrap())
    }
}

/// orig: Input component › submits value including backslash on Enter
#[test]
fn enter_submits_a_trailing_backslash() {
    let mut input = Input::new();
    input.typed("hello\\");
    assert_eq!(input.key("\r"), DialogOutcome::Done);
    assert_eq!(
        input.answer.try_recv().unwrap(),
        json!({"value": "hello\\"})
    );
    // The prompt editor, by contrast, turns backslash-Enter into a new line.
    let mut editor = pi::tui::editor::Editor::new();
    crate::editor_input::type_text(&mut editor, "hello\\");
    crate::editor_input::feed(&mut editor, "\r");
    assert_eq!(editor.text(), "hello\n");
}

/// orig: Input component › inserts backslash as regular character
#[test]
fn a_backslash_is_typed_as_itself() {
    let mut input = Input::new();
    input.typed("\\x");
    assert_eq!(input.value(), "\\x");
    // New-line keys add no line to a one-line input, nor does pasted text.
    input.keys(&["\x1b[13;2u", "\x1b\r"]);
    input.key("\x1b[200~a\nb\x1b[201~");
    assert_eq!(input.value(), "\\xab");
}

/// orig: Input component › render › does not overflow with wide CJK and fullwidth text
#[test]
fn wide_text_stays_inside_the_width() {
    let width_ = 93;
    let texts = [
        "가나다라마바사아자차카타파하 한글 텍스트가 터미널 너비를 초과하면 크래시가 발생합니다 이것은 재현용 테스트입니다",
        "これはテスト文章です。日本語のテキストが正しく表示されるかどうかを確認するためのサンプルテキストです。あいうえお",
        "这是一段测试文本，用于验证中文字符在终端中的显示宽度是否被正确计算，如果不正确就会导致用户界面崩溃的问题",
        "ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ０１２３４５６７８９ａｂｃｄｅｆｇｈｉｊｋｌｍ",
    ];
    for text in texts {
        for moves in [
            vec![CTRL_A],
            vec![CTRL_A; 1].into_iter().chain([RIGHT; 10]).collect(),
            vec![CTRL_E],
        ] {
            let mut input = Input::new();
            input.set_value(text);
            input.keys(&moves);
            let (lines, (col, _)) = input.render(width_);
            for line in &lines {
                assert!(width(line) <= width_, "{line:?}");
            }
            assert!(col < width_);
            let shown: String = lines
                .concat()
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            let want: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            assert!(
                shown.contains(&want),
                "all of {text:?} is shown: {lines:#?}"
            );
        }
    }
}

/// orig: Input component › render › keeps the cursor visible when horizontally scrolling wide text
#[test]
fn the_cursor_stays_on_screen_in_wide_text() {
    let mut input = Input::new();
    input.set_value("가나다라마바사아자차카타파하");
    input.home_then_right(5);
    let (lines, (col, row)) = input.render(20);
    assert!(lines.iter().all(|l| width(l) <= 20), "{lines:#?}");
    assert!(col < 20);
    // The cursor sits right after the fifth character, on a drawn row.
    let line = &lines[row];
    assert!(line.contains("가나다라마"), "{lines:#?} at row {row}");
    assert_eq!(col, 1 + 2 * 5, "{lines:#?}");
}

/// orig: Input component › Kill ring › Ctrl+W saves deleted text to kill ring and Ctrl+Y yanks it
#[test]
fn ctrl_w_then_ctrl_y() {
    let mut input = Input::new();
    input.set_value("foo bar baz");
    input.keys(&[CTRL_E, CTRL_W]);
    assert_eq!(input.value(), "foo bar ");
    input.keys(&[CTRL_A, CTRL_Y]);
    assert_eq!(input.value(), "bazfoo bar ");
}

/// orig: Input component › Kill ring › Ctrl+U saves deleted text to kill ring
#[test]
fn ctrl_u_is_killed() {
    let mut input = Input::new();
    input.set_value("hello world");
    input.home_then_right(6);
    input.key(CTRL_U);
    assert_eq!(input.value(), "world");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "hello world");
}

/// orig: Input component › Kill ring › Ctrl+K saves deleted text to kill ring
#[test]
fn ctrl_k_is_killed() {
    let mut input = Input::new();
    input.set_value("hello world");
    input.keys(&[CTRL_A, CTRL_K]);
    assert_eq!(input.value(), "");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "hello world");
}

/// orig: Input component › Kill ring › Ctrl+Y does nothing when kill ring is empty
#[test]
fn ctrl_y_with_nothing_killed() {
    let mut input = Input::new();
    input.set_value("test");
    input.keys(&[CTRL_E, CTRL_Y]);
    assert_eq!(input.value(), "test");
}

/// orig: Input component › Kill ring › Alt+Y cycles through kill ring after Ctrl+Y
#[test]
fn alt_y_cycles() {
    let mut input = Input::new();
    input.kill_each(&["first", "second", "third"]);
    assert_eq!(input.value(), "");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "third");
    for want in ["second", "first", "third"] {
        input.key(ALT_Y);
        assert_eq!(input.value(), want);
    }
}

/// orig: Input component › Kill ring › Alt+Y does nothing if not preceded by yank
#[test]
fn alt_y_needs_a_yank_first() {
    let mut input = Input::new();
    input.kill_each(&["test"]);
    input.set_value("other");
    input.keys(&[CTRL_E, "x"]);
    assert_eq!(input.value(), "otherx");
    input.key(ALT_Y);
    assert_eq!(input.value(), "otherx");
}

/// orig: Input component › Kill ring › Alt+Y does nothing if kill ring has one entry
#[test]
fn alt_y_with_one_entry() {
    let mut input = Input::new();
    input.kill_each(&["only"]);
    input.key(CTRL_Y);
    assert_eq!(input.value(), "only");
    input.key(ALT_Y);
    assert_eq!(input.value(), "only");
}

/// orig: Input component › Kill ring › consecutive Ctrl+W accumulates into one kill ring entry
#[test]
fn consecutive_kills_make_one_entry() {
    let mut input = Input::new();
    input.set_value("one two three");
    input.keys(&[CTRL_E, CTRL_W, CTRL_W, CTRL_W]);
    assert_eq!(input.value(), "");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "one two three");
}

/// orig: Input component › Kill ring › non-delete actions break kill accumulation
#[test]
fn typing_between_kills_makes_two_entries() {
    let mut input = Input::new();
    input.set_value("foo bar baz");
    input.keys(&[CTRL_E, CTRL_W]);
    assert_eq!(input.value(), "foo bar ");
    input.key("x");
    assert_eq!(input.value(), "foo bar x");
    input.key(CTRL_W);
    assert_eq!(input.value(), "foo bar ");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "foo bar x");
    input.key(ALT_Y);
    assert_eq!(input.value(), "foo bar baz");
}

/// orig: Input component › Kill ring › non-yank actions break Alt+Y chain
#[test]
fn typing_after_a_yank_ends_the_chain() {
    let mut input = Input::new();
    input.kill_each(&["first", "second"]);
    input.set_value("");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "second");
    input.key("x");
    assert_eq!(input.value(), "secondx");
    input.key(ALT_Y);
    assert_eq!(input.value(), "secondx");
}

/// orig: Input component › Kill ring › kill ring rotation persists after cycling
#[test]
fn the_ring_stays_rotated() {
    let mut input = Input::new();
    input.kill_each(&["first", "second", "third"]);
    input.set_value("");
    input.keys(&[CTRL_Y, ALT_Y]);
    assert_eq!(input.value(), "second");
    input.key("x");
    input.set_value("");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "second");
}

/// orig: Input component › Kill ring › backward deletions prepend, forward deletions append during accumulation
#[test]
fn a_forward_kill_is_yanked_back_in_place() {
    let mut input = Input::new();
    input.set_value("prefix|suffix");
    input.home_then_right(6);
    input.key(CTRL_K);
    assert_eq!(input.value(), "prefix");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "prefix|suffix");
}

/// orig: Input component › Kill ring › Alt+D deletes word forward and saves to kill ring
#[test]
fn alt_d_kills_words_forward() {
    let mut input = Input::new();
    input.set_value("hello world test");
    input.keys(&[CTRL_A, ALT_D]);
    assert_eq!(input.value(), " world test");
    input.key(ALT_D);
    assert_eq!(input.value(), " test");
    input.key(CTRL_Y);
    assert_eq!(input.value(), "hello world test");
}

/// orig: Input component › Kill ring › handles yank in middle of text
#[test]
fn yank_in_the_middle() {
    let mut input = Input::new();
    input.kill_each(&["word"]);
    input.set_value("hello world");
    input.home_then_right(6);
    input.key(CTRL_Y);
    assert_eq!(input.value(), "hello wordworld");
}

/// orig: Input component › Kill ring › handles yank-pop in middle of text
#[test]
fn yank_pop_in_the_middle() {
    let mut input = Input::new();
    input.kill_each(&["FIRST", "SECOND"]);
    input.set_value("hello world");
    input.home_then_right(6);
    input.key(CTRL_Y);
    assert_eq!(input.value(), "hello SECONDworld");
    input.key(ALT_Y);
    assert_eq!(input.value(), "hello FIRSTworld");
}

/// orig: Input component › Undo › does nothing when undo stack is empty
#[test]
fn undo_with_nothing_done() {
    let mut input = Input::new();
    input.key(UNDO);
    assert_eq!(input.value(), "");
    input.typed("a");
    input.key(UNDO);
    assert_eq!(input.value(), "");
}

/// orig: Input component › Undo › coalesces consecutive word characters into one undo unit
#[test]
fn a_word_is_undone_at_once() {
    let mut input = Input::new();
    input.typed("hello world");
    assert_eq!(input.value(), "hello world");
    input.key(UNDO);
    assert_eq!(input.value(), "hello");
    input.key(UNDO);
    assert_eq!(input.value(), "");
}

/// orig: Input component › Undo › undoes spaces one at a time
#[test]
fn spaces_are_undone_one_by_one() {
    let mut input = Input::new();
    input.typed("hello  ");
    for want in ["hello ", "hello", ""] {
        input.key(UNDO);
        assert_eq!(input.value(), want);
    }
}

/// orig: Input component › Undo › undoes backspace
#[test]
fn undo_backspace() {
    let mut input = Input::new();
    input.typed("hello");
    input.key("\x7f");
    assert_eq!(input.value(), "hell");
    input.key(UNDO);
    assert_eq!(input.value(), "hello");
}

/// orig: Input component › Undo › undoes forward delete
#[test]
fn undo_forward_delete() {
    let mut input = Input::new();
    input.typed("hello");
    input.home_then_right(1);
    input.key("\x1b[3~");
    assert_eq!(input.value(), "hllo");
    input.key(UNDO);
    assert_eq!(input.value(), "hello");
}

/// orig: Input component › Undo › undoes Ctrl+W (delete word backward)
#[test]
fn undo_ctrl_w() {
    let mut input = Input::new();
    input.typed("hello world");
    input.key(CTRL_W);
    assert_eq!(input.value(), "hello ");
    input.key(UNDO);
    assert_eq!(input.value(), "hello world");
}

/// orig: Input component › Undo › undoes Ctrl+K (delete to line end)
#[test]
fn undo_ctrl_k() {
    let mut input = Input::new();
    input.typed("hello world");
    input.home_then_right(6);
    input.key(CTRL_K);
    assert_eq!(input.value(), "hello ");
    input.key(UNDO);
    assert_eq!(input.value(), "hello world");
}

/// orig: Input component › Undo › undoes Ctrl+U (delete to line start)
#[test]
fn undo_ctrl_u() {
    let mut input = Input::new();
    input.typed("hello world");
    input.home_then_right(6);
    input.key(CTRL_U);
    assert_eq!(input.value(), "world");
    input.key(UNDO);
    assert_eq!(input.value(), "hello world");
}

/// orig: Input component › Undo › undoes yank
#[test]
fn undo_yank() {
    let mut input = Input::new();
    input.typed("hello ");
    input.keys(&[CTRL_W, CTRL_Y]);
    assert_eq!(input.value(), "hello ");
    input.key(UNDO);
    assert_eq!(input.value(), "");
}

/// orig: Input component › Undo › undoes paste atomically
#[test]
fn undo_paste() {
    let mut input = Input::new();
    input.set_value("hello world");
    input.home_then_right(5);
    input.key("\x1b[200~beep boop\x1b[201~");
    assert_eq!(input.value(), "hellobeep boop world");
    input.key(UNDO);
    assert_eq!(input.value(), "hello world");
}

/// orig: Input component › Undo › undoes Alt+D (delete word forward)
#[test]
fn undo_alt_d() {
    let mut input = Input::new();
    input.set_value("hello world");
    input.keys(&[CTRL_A, ALT_D]);
    assert_eq!(input.value(), " world");
    input.key(UNDO);
    assert_eq!(input.value(), "hello world");
}

/// orig: Input component › Undo › cursor movement starts new undo unit
#[test]
fn a_move_starts_a_new_undo_unit() {
    let mut input = Input::new();
    input.typed("abc");
    input.keys(&[CTRL_A, CTRL_E]);
    input.typed("de");
    assert_eq!(input.value(), "abcde");
    input.key(UNDO);
    assert_eq!(input.value(), "abc");
    input.key(UNDO);
    assert_eq!(input.value(), "");
}
