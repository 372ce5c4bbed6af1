//! Key decoding: which key a terminal's bytes stand for (`parse_key`) and whether they
//! are a given key (`matches_key`) — legacy control bytes and `ESC key` Alt forms,
//! SS3, rxvt and Linux-console sequences, xterm's modifyOtherKeys, and the Kitty
//! protocol with event types and the base-layout key of non-Latin layouts.
//! orig-file: packages/tui/test/keys.test.ts

use pi::ui_kit::keys::{DecodeContext, matches_key, parse_key};

/// No keyboard protocol (the original's `setKittyProtocolActive(false)`).
const LEGACY: DecodeContext = DecodeContext {
    kitty_active: false,
    windows_terminal: false,
};
/// The Kitty keyboard protocol is on.
const KITTY: DecodeContext = DecodeContext {
    kitty_active: true,
    windows_terminal: false,
};
/// Windows Terminal, without a keyboard protocol.
const WINDOWS_TERMINAL: DecodeContext = DecodeContext {
    kitty_active: false,
    windows_terminal: true,
};

fn parsed(data: &str, ctx: DecodeContext) -> Option<String> {
    parse_key(data, ctx)
}

fn some(id: &str) -> Option<String> {
    Some(id.to_string())
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should match Ctrl+c when pressing Ctrl+С (Cyrillic) with base layout key
#[test]
fn cyrillic_ctrl_c_with_its_base_key_is_ctrl_c() {
    assert!(matches_key("\x1b[1089::99;5u", "ctrl+c", KITTY));
    // Without the base-layout key it is Ctrl with a Cyrillic letter, not Ctrl+C.
    assert!(!matches_key("\x1b[1089;5u", "ctrl+c", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should match Ctrl+d when pressing Ctrl+В (Cyrillic) with base layout key
#[test]
fn cyrillic_ctrl_d_with_its_base_key_is_ctrl_d() {
    assert!(matches_key("\x1b[1074::100;5u", "ctrl+d", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should match Ctrl+z when pressing Ctrl+Я (Cyrillic) with base layout key
#[test]
fn cyrillic_ctrl_z_with_its_base_key_is_ctrl_z() {
    assert!(matches_key("\x1b[1103::122;5u", "ctrl+z", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should match Ctrl+Shift+p with base layout key
#[test]
fn cyrillic_ctrl_shift_p_with_its_base_key_is_ctrl_shift_p() {
    assert!(matches_key("\x1b[1079::112;6u", "ctrl+shift+p", KITTY));
    assert!(!matches_key("\x1b[1079::112;6u", "ctrl+p", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should still match direct codepoint when no base layout key
#[test]
fn latin_ctrl_c_without_a_base_key_is_ctrl_c() {
    assert!(matches_key("\x1b[99;5u", "ctrl+c", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should match digit bindings via Kitty CSI-u
#[test]
fn digits_in_csi_u_are_digit_keys() {
    assert!(matches_key("\x1b[49u", "1", KITTY));
    assert!(matches_key("\x1b[49;5u", "ctrl+1", KITTY));
    assert!(!matches_key("\x1b[49;5u", "ctrl+2", KITTY));
    assert_eq!(parsed("\x1b[49u", KITTY), some("1"));
    assert_eq!(parsed("\x1b[49;5u", KITTY), some("ctrl+1"));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should handle shifted key in format
#[test]
fn a_reported_shifted_key_keeps_the_key() {
    assert!(matches_key("\x1b[99:67:99;2u", "shift+c", KITTY));
    assert!(!matches_key("\x1b[99:67:99;2u", "c", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should handle event type in format
#[test]
fn a_release_with_the_base_key_is_still_the_key() {
    assert!(matches_key("\x1b[1089::99;5:3u", "ctrl+c", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should handle full format with shifted key, base key, and event type
#[test]
fn the_full_form_with_shifted_base_and_event_type() {
    assert!(matches_key("\x1b[1089:1057:99;6:2u", "ctrl+shift+c", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should prefer codepoint for Latin letters even when base layout differs
#[test]
fn a_latin_letter_wins_over_its_base_key() {
    // Dvorak: the K key sits where QWERTY has V.
    assert!(matches_key("\x1b[107::118;5u", "ctrl+k", KITTY));
    assert!(!matches_key("\x1b[107::118;5u", "ctrl+v", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should prefer codepoint for symbol keys even when base layout differs
#[test]
fn a_symbol_wins_over_its_base_key() {
    assert!(matches_key("\x1b[47::91;5u", "ctrl+/", KITTY));
    assert!(!matches_key("\x1b[47::91;5u", "ctrl+[", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should not match wrong key even with base layout
#[test]
fn the_base_key_does_not_match_another_key() {
    assert!(!matches_key("\x1b[1089::99;5u", "ctrl+d", KITTY));
}

/// orig: matchesKey › Kitty protocol with alternate keys (non-Latin layouts) › should not match wrong modifiers even with base layout
#[test]
fn the_base_key_does_not_match_other_modifiers() {
    assert!(!matches_key("\x1b[1089::99;5u", "ctrl+shift+c", KITTY));
    assert!(!matches_key("\x1b[1089::99;5u", "c", KITTY));
}

/// orig: matchesKey › modifyOtherKeys matching › should match xterm modifyOtherKeys Ctrl+c
#[test]
fn modify_other_keys_ctrl_c() {
    assert!(matches_key("\x1b[27;5;99~", "ctrl+c", LEGACY));
    assert_eq!(parsed("\x1b[27;5;99~", LEGACY), some("ctrl+c"));
}

/// orig: matchesKey › modifyOtherKeys matching › should match xterm modifyOtherKeys Ctrl+d
#[test]
fn modify_other_keys_ctrl_d() {
    assert!(matches_key("\x1b[27;5;100~", "ctrl+d", LEGACY));
    assert_eq!(parsed("\x1b[27;5;100~", LEGACY), some("ctrl+d"));
}

/// orig: matchesKey › modifyOtherKeys matching › should match xterm modifyOtherKeys Ctrl+z
#[test]
fn modify_other_keys_ctrl_z() {
    assert!(matches_key("\x1b[27;5;122~", "ctrl+z", LEGACY));
    assert_eq!(parsed("\x1b[27;5;122~", LEGACY), some("ctrl+z"));
}

/// orig: matchesKey › modifyOtherKeys matching › should match xterm modifyOtherKeys Enter variants
#[test]
fn modify_other_keys_enter_variants() {
    assert!(matches_key("\x1b[27;5;13~", "ctrl+enter", LEGACY));
    assert!(matches_key("\x1b[27;2;13~", "shift+enter", LEGACY));
    assert!(matches_key("\x1b[27;3;13~", "alt+enter", LEGACY));
    assert!(!matches_key("\x1b[27;2;13~", "enter", LEGACY));
    assert_eq!(parsed("\x1b[27;5;13~", LEGACY), some("ctrl+enter"));
    assert_eq!(parsed("\x1b[27;2;13~", LEGACY), some("shift+enter"));
    assert_eq!(parsed("\x1b[27;3;13~", LEGACY), some("alt+enter"));
}

/// orig: matchesKey › modifyOtherKeys matching › should match xterm modifyOtherKeys Tab variants
#[test]
fn modify_other_keys_tab_variants() {
    assert!(matches_key("\x1b[27;2;9~", "shift+tab", LEGACY));
    assert!(matches_key("\x1b[27;5;9~", "ctrl+tab", LEGACY));
    assert!(matches_key("\x1b[27;3;9~", "alt+tab", LEGACY));
    assert_eq!(parsed("\x1b[27;2;9~", LEGACY), some("shift+tab"));
    assert_eq!(parsed("\x1b[27;5;9~", LEGACY), some("ctrl+tab"));
    assert_eq!(parsed("\x1b[27;3;9~", LEGACY), some("alt+tab"));
}

/// orig: matchesKey › modifyOtherKeys matching › should match xterm modifyOtherKeys symbol combos
#[test]
fn modify_other_keys_symbols() {
    assert!(matches_key("\x1b[27;5;47~", "ctrl+/", LEGACY));
    assert_eq!(parsed("\x1b[27;5;47~", LEGACY), some("ctrl+/"));
}

/// orig: matchesKey › modifyOtherKeys matching › should match xterm modifyOtherKeys digit combos
#[test]
fn modify_other_keys_digits() {
    assert!(matches_key("\x1b[27;5;49~", "ctrl+1", LEGACY));
    assert!(matches_key("\x1b[27;2;49~", "shift+1", LEGACY));
    assert_eq!(parsed("\x1b[27;5;49~", LEGACY), some("ctrl+1"));
    assert_eq!(parsed("\x1b[27;2;49~", LEGACY), some("shift+1"));
}

/// orig: matchesKey › Legacy key matching › should match legacy Ctrl+c
#[test]
fn legacy_ctrl_c() {
    assert!(matches_key("\x03", "ctrl+c", LEGACY));
    assert!(!matches_key("\x03", "ctrl+d", LEGACY));
}

/// orig: matchesKey › Legacy key matching › should match legacy Ctrl+d
#[test]
fn legacy_ctrl_d() {
    assert!(matches_key("\x04", "ctrl+d", LEGACY));
}

/// orig: matchesKey › Legacy key matching › should match escape key
#[test]
fn escape_is_escape() {
    assert!(matches_key("\x1b", "escape", LEGACY));
    assert!(matches_key("\x1b", "esc", KITTY));
}

/// orig: matchesKey › Legacy key matching › should match legacy linefeed as enter
#[test]
fn a_line_feed_is_enter_without_the_kitty_protocol() {
    assert!(matches_key("\n", "enter", LEGACY));
    assert_eq!(parsed("\n", LEGACY), some("enter"));
}

/// orig: matchesKey › Legacy key matching › should treat linefeed as shift+enter when kitty active
#[test]
fn a_line_feed_is_shift_enter_with_the_kitty_protocol() {
    assert!(matches_key("\n", "shift+enter", KITTY));
    assert!(!matches_key("\n", "enter", KITTY));
    assert_eq!(parsed("\n", KITTY), some("shift+enter"));
}

/// orig: matchesKey › Legacy key matching › should parse ctrl+space
#[test]
fn nul_is_ctrl_space() {
    assert!(matches_key("\x00", "ctrl+space", LEGACY));
    assert_eq!(parsed("\x00", LEGACY), some("ctrl+space"));
}

/// orig: matchesKey › Legacy key matching › should match legacy Ctrl+symbol
#[test]
fn legacy_ctrl_symbols() {
    assert!(matches_key("\x1c", "ctrl+\\", LEGACY));
    assert_eq!(parsed("\x1c", LEGACY), some("ctrl+\\"));
    assert!(matches_key("\x1d", "ctrl+]", LEGACY));
    assert_eq!(parsed("\x1d", LEGACY), some("ctrl+]"));
    // 0x1f: Ctrl+_ and Ctrl+- share a key on US keyboards.
    assert!(matches_key("\x1f", "ctrl+_", LEGACY));
    assert!(matches_key("\x1f", "ctrl+-", LEGACY));
    assert_eq!(parsed("\x1f", LEGACY), some("ctrl+-"));
}

/// orig: matchesKey › Legacy key matching › should match legacy Ctrl+Alt+symbol
#[test]
fn legacy_ctrl_alt_symbols() {
    assert!(matches_key("\x1b\x1b", "ctrl+alt+[", LEGACY));
    assert_eq!(parsed("\x1b\x1b", LEGACY), some("ctrl+alt+["));
    assert!(matches_key("\x1b\x1c", "ctrl+alt+\\", LEGACY));
    assert_eq!(parsed("\x1b\x1c", LEGACY), some("ctrl+alt+\\"));
    assert!(matches_key("\x1b\x1d", "ctrl+alt+]", LEGACY));
    assert_eq!(parsed("\x1b\x1d", LEGACY), some("ctrl+alt+]"));
    assert!(matches_key("\x1b\x1f", "ctrl+alt+_", LEGACY));
    assert!(matches_key("\x1b\x1f", "ctrl+alt+-", LEGACY));
    assert_eq!(parsed("\x1b\x1f", LEGACY), some("ctrl+alt+-"));
}

/// orig: matchesKey › Legacy key matching › should distinguish backspace (0x7f) from ctrl+backspace (0x08)
#[test]
fn backspace_and_ctrl_backspace_are_told_apart() {
    for ctx in [LEGACY, WINDOWS_TERMINAL] {
        assert!(matches_key("\x7f", "backspace", ctx));
        assert!(!matches_key("\x7f", "ctrl+backspace", ctx));
        assert_eq!(parsed("\x7f", ctx), some("backspace"));
        // 0x08 is also Ctrl+H.
        assert!(matches_key("\x08", "ctrl+h", ctx));
    }
    // Windows Terminal sends Ctrl+Backspace as 0x08.
    assert!(matches_key("\x08", "ctrl+backspace", WINDOWS_TERMINAL));
    assert!(!matches_key("\x08", "backspace", WINDOWS_TERMINAL));
    assert_eq!(parsed("\x08", WINDOWS_TERMINAL), some("ctrl+backspace"));
    // Elsewhere 0x08 is what some terminals and tmux send for Backspace (0.73.1).
    assert!(matches_key("\x08", "backspace", LEGACY));
    assert!(!matches_key("\x08", "ctrl+backspace", LEGACY));
    assert_eq!(parsed("\x08", LEGACY), some("backspace"));
}

/// orig: matchesKey › Legacy key matching › should parse legacy alt-prefixed sequences when kitty inactive
#[test]
fn escape_prefixed_alt_keys_only_without_the_kitty_protocol() {
    let alt_forms = [
        ("\x1b ", "alt+space"),
        ("\x1b\x03", "ctrl+alt+c"),
        ("\x1bB", "alt+left"),
        ("\x1bF", "alt+right"),
        ("\x1ba", "alt+a"),
        ("\x1b1", "alt+1"),
        ("\x1by", "alt+y"),
    ];
    for (data, id) in alt_forms {
        assert!(matches_key(data, id, LEGACY), "{data:?}");
        assert_eq!(parsed(data, LEGACY), some(id), "{data:?}");
        // The Kitty protocol sends Alt as CSI-u, so these bytes are not Alt keys there.
        assert!(!matches_key(data, id, KITTY), "{data:?}");
        assert_eq!(parsed(data, KITTY), None, "{data:?}");
    }
    assert!(matches_key("\x1bz", "alt+z", LEGACY));
    assert_eq!(parsed("\x1bz", LEGACY), some("alt+z"));
    // Alt+Backspace is ESC with 0x08 either way.
    for ctx in [LEGACY, KITTY] {
        assert!(matches_key("\x1b\x08", "alt+backspace", ctx));
        assert_eq!(parsed("\x1b\x08", ctx), some("alt+backspace"));
    }
}

/// orig: matchesKey › Legacy key matching › should match arrow keys
#[test]
fn arrow_keys() {
    assert!(matches_key("\x1b[A", "up", LEGACY));
    assert!(matches_key("\x1b[B", "down", LEGACY));
    assert!(matches_key("\x1b[C", "right", LEGACY));
    assert!(matches_key("\x1b[D", "left", LEGACY));
    assert!(!matches_key("\x1b[A", "down", LEGACY));
}

/// orig: matchesKey › Legacy key matching › should match SS3 arrows and home/end
#[test]
fn ss3_arrows_home_and_end() {
    assert!(matches_key("\x1bOA", "up", LEGACY));
    assert!(matches_key("\x1bOB", "down", LEGACY));
    assert!(matches_key("\x1bOC", "right", LEGACY));
    assert!(matches_key("\x1bOD", "left", LEGACY));
    assert!(matches_key("\x1bOH", "home", LEGACY));
    assert!(matches_key("\x1bOF", "end", LEGACY));
}

/// orig: matchesKey › Legacy key matching › should match legacy function keys and clear
#[test]
fn legacy_function_keys_and_clear() {
    assert!(matches_key("\x1bOP", "f1", LEGACY));
    assert!(matches_key("\x1b[24~", "f12", LEGACY));
    assert!(matches_key("\x1b[E", "clear", LEGACY));
    assert!(!matches_key("\x1b[24~", "f11", LEGACY));
}

/// orig: matchesKey › Legacy key matching › should match alt+arrows
#[test]
fn alt_arrows() {
    assert!(matches_key("\x1bp", "alt+up", LEGACY));
    assert!(!matches_key("\x1bp", "up", LEGACY));
}

/// orig: matchesKey › Legacy key matching › should match rxvt modifier sequences
#[test]
fn rxvt_modifier_sequences() {
    assert!(matches_key("\x1b[a", "shift+up", LEGACY));
    assert!(matches_key("\x1bOa", "ctrl+up", LEGACY));
    assert!(matches_key("\x1b[2$", "shift+insert", LEGACY));
    assert!(matches_key("\x1b[2^", "ctrl+insert", LEGACY));
    assert!(matches_key("\x1b[7$", "shift+home", LEGACY));
    assert!(!matches_key("\x1b[7$", "home", LEGACY));
}

/// orig: parseKey › Kitty protocol with alternate keys › should return Latin key name when base layout key is present
#[test]
fn parse_gives_the_base_key_of_a_cyrillic_letter() {
    assert_eq!(parsed("\x1b[1089::99;5u", KITTY), some("ctrl+c"));
}

/// orig: parseKey › Kitty protocol with alternate keys › should prefer codepoint for Latin letters when base layout differs
#[test]
fn parse_prefers_the_latin_letter() {
    assert_eq!(parsed("\x1b[107::118;5u", KITTY), some("ctrl+k"));
}

/// orig: parseKey › Kitty protocol with alternate keys › should prefer codepoint for symbol keys when base layout differs
#[test]
fn parse_prefers_the_symbol() {
    assert_eq!(parsed("\x1b[47::91;5u", KITTY), some("ctrl+/"));
}

/// orig: parseKey › Kitty protocol with alternate keys › should return key name from codepoint when no base layout
#[test]
fn parse_names_the_codepoint_without_a_base_key() {
    assert_eq!(parsed("\x1b[99;5u", KITTY), some("ctrl+c"));
}

/// orig: parseKey › Kitty protocol with alternate keys › should ignore Kitty CSI-u with unsupported modifiers
#[test]
fn parse_ignores_modifiers_no_key_id_names() {
    // Super (8) is a key-id modifier since 0.73.1; Hyper (16) is not.
    assert_eq!(parsed("\x1b[99;9u", KITTY), some("super+c"));
    assert_eq!(parsed("\x1b[99;17u", KITTY), None);
    assert!(!matches_key("\x1b[99;17u", "c", KITTY));
}

/// orig: parseKey › Legacy key parsing › should parse legacy Ctrl+letter
#[test]
fn parse_legacy_ctrl_letters() {
    assert_eq!(parsed("\x03", LEGACY), some("ctrl+c"));
    assert_eq!(parsed("\x04", LEGACY), some("ctrl+d"));
}

/// orig: parseKey › Legacy key parsing › should parse special keys
#[test]
fn parse_special_keys() {
    assert_eq!(parsed("\x1b", LEGACY), some("escape"));
    assert_eq!(parsed("\t", LEGACY), some("tab"));
    assert_eq!(parsed("\r", LEGACY), some("enter"));
    assert_eq!(parsed("\n", LEGACY), some("enter"));
    assert_eq!(parsed("\x00", LEGACY), some("ctrl+space"));
    assert_eq!(parsed(" ", LEGACY), some("space"));
    assert_eq!(parsed("1", LEGACY), some("1"));
    assert!(matches_key("1", "1", LEGACY));
}

/// orig: parseKey › Legacy key parsing › should parse arrow keys
#[test]
fn parse_arrow_keys() {
    assert_eq!(parsed("\x1b[A", LEGACY), some("up"));
    assert_eq!(parsed("\x1b[B", LEGACY), some("down"));
    assert_eq!(parsed("\x1b[C", LEGACY), some("right"));
    assert_eq!(parsed("\x1b[D", LEGACY), some("left"));
}

/// orig: parseKey › Legacy key parsing › should parse SS3 arrows and home/end
#[test]
fn parse_ss3_arrows_home_and_end() {
    assert_eq!(parsed("\x1bOA", LEGACY), some("up"));
    assert_eq!(parsed("\x1bOB", LEGACY), some("down"));
    assert_eq!(parsed("\x1bOC", LEGACY), some("right"));
    assert_eq!(parsed("\x1bOD", LEGACY), some("left"));
    assert_eq!(parsed("\x1bOH", LEGACY), some("home"));
    assert_eq!(parsed("\x1bOF", LEGACY), some("end"));
}

/// orig: parseKey › Legacy key parsing › should parse legacy function and modifier sequences
#[test]
fn parse_legacy_function_and_modifier_sequences() {
    assert_eq!(parsed("\x1bOP", LEGACY), some("f1"));
    assert_eq!(parsed("\x1b[24~", LEGACY), some("f12"));
    assert_eq!(parsed("\x1b[E", LEGACY), some("clear"));
    assert_eq!(parsed("\x1b[2^", LEGACY), some("ctrl+insert"));
    assert_eq!(parsed("\x1bp", LEGACY), some("alt+up"));
}

/// orig: parseKey › Legacy key parsing › should parse double bracket pageUp
#[test]
fn parse_the_linux_console_page_up() {
    assert_eq!(parsed("\x1b[[5~", LEGACY), some("pageUp"));
}
