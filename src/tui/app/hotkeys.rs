//! `/hotkeys`: the keyboard shortcuts as grouped tables (navigation,
//! editing, other) with the keys as the user types them and what they do.

use crate::t;
use crate::ui_kit::keybindings::Keybindings;

/// One table row: the actions whose keys are listed together, and the text
/// describing them (`None`: the first action's own description).
struct Row {
    ids: &'static [&'static str],
    label: Option<&'static str>,
}

const fn row(ids: &'static [&'static str]) -> Row {
    Row { ids, label: None }
}

const fn labelled(ids: &'static [&'static str], label: &'static str) -> Row {
    Row {
        ids,
        label: Some(label),
    }
}

const NAVIGATION: &[Row] = &[
    labelled(
        &["tui.editor.cursorUp", "tui.editor.cursorDown"],
        "pi.cmd.hotkeys.move_cursor",
    ),
    row(&["tui.editor.cursorLeft"]),
    row(&["tui.editor.cursorRight"]),
    row(&["tui.editor.cursorWordLeft"]),
    row(&["tui.editor.cursorWordRight"]),
    row(&["tui.editor.cursorLineStart"]),
    row(&["tui.editor.cursorLineEnd"]),
    row(&["tui.editor.jumpForward"]),
    row(&["tui.editor.jumpBackward"]),
    labelled(
        &["tui.editor.pageUp", "tui.editor.pageDown"],
        "pi.cmd.hotkeys.page",
    ),
];

const EDITING: &[Row] = &[
    row(&["tui.input.submit"]),
    row(&["tui.input.newLine"]),
    row(&["tui.editor.deleteWordBackward"]),
    row(&["tui.editor.deleteWordForward"]),
    row(&["tui.editor.deleteToLineStart"]),
    row(&["tui.editor.deleteToLineEnd"]),
    row(&["tui.editor.yank"]),
    row(&["tui.editor.yankPop"]),
    row(&["tui.editor.undo"]),
    row(&["tui.editor.redo"]),
];

const OTHER: &[Row] = &[
    row(&["tui.input.tab"]),
    row(&["app.interrupt"]),
    row(&["app.clear"]),
    row(&["app.exit"]),
    row(&["app.suspend"]),
    row(&["app.thinking.cycle"]),
    labelled(
        &["app.model.cycleForward", "app.model.cycleBackward"],
        "pi.cmd.hotkeys.cycle_models",
    ),
    row(&["app.model.select"]),
    row(&["app.tools.expand"]),
    row(&["app.thinking.toggle"]),
    row(&["app.editor.external"]),
    row(&["app.message.followUp"]),
    row(&["app.message.dequeue"]),
    row(&["app.clipboard.pasteImage"]),
    row(&["app.session.new"]),
    row(&["app.session.tree"]),
    row(&["app.session.fork"]),
    row(&["app.session.resume"]),
];

/// `ctrl+shift+p` as `Ctrl+Shift+P`, `pageUp` as `PageUp`.
pub fn key_label(keys: &str) -> String {
    keys.split('/')
        .map(|combo| {
            combo
                .split('+')
                .map(|part| {
                    let mut chars = part.chars();
                    match chars.next() {
                        Some(first) => first.to_uppercase().chain(chars).collect(),
                        None => "+".to_string(),
                    }
                })
                .collect::<Vec<String>>()
                .join("+")
                .replace("++", "+")
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Markdown escaping for a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The `/hotkeys` text: one markdown table per group, rows without a key left out.
pub fn hotkeys_markdown(keys: &Keybindings, extension: &[(String, String)]) -> String {
    let mut out = String::new();
    let groups: [(&str, &[Row]); 3] = [
        ("pi.cmd.hotkeys.navigation", NAVIGATION),
        ("pi.cmd.hotkeys.editing", EDITING),
        ("pi.cmd.hotkeys.other", OTHER),
    ];
    for (title, rows) in groups {
        let mut table: Vec<(String, String)> = Vec::new();
        for r in rows {
            let bound: Vec<String> = r
                .ids
                .iter()
                .map(|id| keys.keys_text(id))
                .filter(|k| !k.is_empty())
                .map(|k| key_label(&k))
                .collect();
            if bound.is_empty() {
                continue;
            }
            let text = match r.label {
                Some(label) => t!(label),
                None => crate::ui_kit::keybindings::description(r.ids[0]),
            };
            table.push((bound.join(" / "), text));
        }
        if title == "pi.cmd.hotkeys.other" {
            table.push(("/".into(), t!("pi.cmd.hotkeys.slash")));
            table.push(("!".into(), t!("pi.cmd.hotkeys.bash")));
            table.push(("!!".into(), t!("pi.cmd.hotkeys.bash_excluded")));
        }
        push_table(&mut out, &t!(title), &table);
    }
    if !extension.is_empty() {
        let rows: Vec<(String, String)> = extension
            .iter()
            .map(|(k, d)| (key_label(k), d.clone()))
            .collect();
        push_table(&mut out, &t!("pi.cmd.hotkeys.extensions"), &rows);
    }
    out.trim_end().to_string()
}

fn push_table(out: &mut String, title: &str, rows: &[(String, String)]) {
    if rows.is_empty() {
        return;
    }
    out.push_str(&format!(
        "**{}**\n\n| {} | {} |\n|---|---|\n",
        cell(title),
        cell(&t!("pi.cmd.hotkeys.key")),
        cell(&t!("pi.cmd.hotkeys.action"))
    ));
    for (keys, text) in rows {
        out.push_str(&format!("| {} | {} |\n", cell(keys), cell(text)));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_as_typed() {
        assert_eq!(key_label("ctrl+shift+p"), "Ctrl+Shift+P");
        assert_eq!(key_label("home/ctrl+a"), "Home/Ctrl+A");
        assert_eq!(key_label("pageUp"), "PageUp");
        assert_eq!(key_label("ctrl+-"), "Ctrl+-");
    }

    #[test]
    fn groups_hold_labels_not_ids_and_skip_unbound_actions() {
        let text = hotkeys_markdown(&Keybindings::default(), &[]);
        assert!(text.contains("Navigation") && text.contains("Editing") && text.contains("Other"));
        assert!(text.contains("| Ctrl+P / Ctrl+Shift+P |"), "{text}");
        assert!(!text.contains("tui.editor"), "no internal ids: {text}");
        assert!(!text.contains("(none)"), "{text}");
        assert!(!text.contains("app.session"), "{text}");
    }
}
