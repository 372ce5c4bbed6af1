//! What a key press does: extensions' terminal input handlers see it first, then extension
//! dialogs and Lua components, then the open overlay, the completion menu, the app's own bindings and the editor.

use std::time::Instant;

use crossterm::event::KeyEvent;

use crate::tui::app::{App, DOUBLE_CTRL_C, Overlay, TerminalRequest, user_message};
use crate::tui::editor::EditorOutcome;
use crate::tui::panels::PanelOutcome;
use crate::tui::panels::selector::SelectorOutcome;

impl App {
    /// Escape twice within half a second on an idle, empty editor opens the session tree or
    /// the fork list or `/rewind` (`doubleEscapeAction`: `tree`, `fork`, `rewind` or `none`).
    fn double_escape(&mut self) {
        let now = Instant::now();
        let second = self
            .last_escape
            .is_some_and(|t| now.duration_since(t) < DOUBLE_CTRL_C);
        if !second {
            self.last_escape = Some(now);
            return;
        }
        self.last_escape = None;
        use crate::tui::app::session_tree_task::TreeCommand;
        match self.ui_settings.settings.double_escape_action() {
            "tree" => self.request_tree(TreeCommand::Open),
            "fork" => self.request_tree(TreeCommand::ForkList),
            "rewind" => self.request_tree(TreeCommand::Rewind(None)),
            _ => {}
        }
    }

    pub(super) fn handle_key(&mut self, key: KeyEvent) {
        for key in self.through_terminal_input(key) {
            if self.handle_dialog_key(&key) {
                continue;
            }
            if crate::tui::chrome::lua_surfaces::forward_key(self, &key) {
                continue;
            }
            self.handle_builtin_key(key);
        }
    }

    /// Handle a key without offering it to Lua components first.
    pub(crate) fn handle_builtin_key(&mut self, key: KeyEvent) {
        if let Some(Overlay::Panel(panel)) = &mut self.overlay {
            match panel.handle_key(&key, &self.keys) {
                PanelOutcome::Open => {}
                PanelOutcome::Changed(change) => self.apply_panel_change(change),
                PanelOutcome::Closed => self.overlay = None,
                PanelOutcome::Done(change) => {
                    self.overlay = None;
                    self.apply_panel_change(change);
                }
            }
            return;
        }
        if self.handle_tree_key(&key) {
            return;
        }
        if let Some(Overlay::Login(dialog)) = &mut self.overlay {
            let outcome = dialog.handle_key(&key, &self.keys);
            self.login_dialog_outcome(outcome);
            return;
        }
        if let Some(overlay) = &mut self.overlay {
            let outcome = match overlay {
                Overlay::ModelSelector(s) => s.handle_key(&key, &self.keys),
                _ => return,
            };
            match outcome {
                SelectorOutcome::Open => {}
                SelectorOutcome::Cancelled => self.overlay = None,
                SelectorOutcome::Picked(i) => {
                    if let Some(Overlay::ModelSelector(_)) = self.overlay.take()
                        && let Some(model) = self.models.get(i).cloned()
                    {
                        self.switch_model(model, crate::core::session_command::ModelSource::Set);
                    }
                }
            }
            return;
        }
        // Ctrl+] waits for the character to jump to; any other key cancels the jump and
        // does what it always does.
        if self.editor.take_jump_key(&key, &self.keys) {
            return;
        }
        if self.run_extension_shortcut(&key) {
            return;
        }
        let kb = &self.keys;
        if kb.matches("app.clear", &key) {
            let now = Instant::now();
            if self
                .last_ctrl_c
                .is_some_and(|t| now.duration_since(t) < DOUBLE_CTRL_C)
            {
                self.quit = true;
            }
            self.last_ctrl_c = Some(now);
            self.editor.clear();
            self.completion = None;
            return;
        }
        if kb.matches("app.exit", &key) && self.editor.is_empty() {
            self.quit = true;
            return;
        }
        if kb.matches("app.interrupt", &key) {
            if self.completion.is_some() {
                self.completion = None;
            } else if self.signal.is_none() && self.editor.is_empty() {
                self.double_escape();
            } else if let Some(signal) = &self.signal {
                signal.cancel();
                let restored = self.take_queued();
                if !restored.is_empty() {
                    let mut text = restored.join("\n\n");
                    if !self.editor.is_empty() {
                        text = format!("{text}\n\n{}", self.editor.text());
                    }
                    self.editor.set_text(&text);
                }
            }
            return;
        }
        if kb.matches("app.clipboard.pasteImage", &key) {
            self.paste_clipboard_image();
            return;
        }
        if kb.matches("app.editor.external", &key) {
            self.terminal_request = Some(TerminalRequest::ExternalEditor);
            return;
        }
        if kb.matches("app.suspend", &key) {
            self.terminal_request = Some(TerminalRequest::Suspend);
            return;
        }
        if kb.matches("app.tools.expand", &key) {
            self.tools_expanded = !self.tools_expanded;
            return;
        }
        if kb.matches("app.thinking.toggle", &key) {
            self.thinking_expanded = !self.thinking_expanded;
            return;
        }
        if kb.matches("app.model.select", &key) {
            self.open_model_selector("");
            return;
        }
        if kb.matches("app.thinking.cycle", &key) {
            self.cycle_thinking();
            return;
        }
        if kb.matches("tui.editor.pageUp", &key) {
            self.scroll = self.scroll.saturating_add(self.page.max(1));
            return;
        }
        if kb.matches("tui.editor.pageDown", &key) {
            self.scroll = self.scroll.saturating_sub(self.page.max(1));
            return;
        }
        if kb.matches("app.message.dequeue", &key) {
            self.dequeue();
            return;
        }
        if self.is_busy() && kb.matches("app.message.followUp", &key) {
            let text = self.editor.expanded_text();
            if !text.is_empty() {
                self.queues.follow_up.push(user_message(text));
                self.editor.clear();
            }
            return;
        }
        if kb.matches("app.model.cycleForward", &key) {
            self.cycle_model(1);
            return;
        }
        if kb.matches("app.model.cycleBackward", &key) {
            self.cycle_model(-1);
            return;
        }
        if self.handle_completion_key(&key) {
            return;
        }
        if self.keys.matches("tui.input.tab", &key)
            && self.overlay.is_none()
            && self.complete_path_on_tab()
        {
            return;
        }
        if let EditorOutcome::Submit(text) = self.editor.handle_key(&key, &self.keys) {
            self.completion = None;
            self.submit(text);
        }
        self.ensure_file_index();
        self.request_argument_completions();
        self.request_provider_completions();
        self.completion = (!self.completions().is_empty()).then_some(self.completion.unwrap_or(0));
        if self.completion.is_none() {
            self.force_files = false;
        }
    }

    /// Ctrl+V: save the clipboard's image to a temporary file and put its path into the
    /// editor (attached when the message is sent), or say why there is none.
    fn paste_clipboard_image(&mut self) {
        use crate::t;
        use crate::tui::editor::clipboard_image::{ClipboardError, save_image};
        use crate::tui::transcript::NoticeKind;
        match save_image(&std::env::temp_dir()) {
            Ok(path) => {
                let needs_space = !self.editor.text().is_empty()
                    && !self.editor.text().ends_with(char::is_whitespace);
                let lead = if needs_space { " " } else { "" };
                self.editor.insert(&format!("{lead}{} ", path.display()));
            }
            Err(ClipboardError::NoClipboard) => self
                .transcript
                .notice(t!("pi.tui.clipboard.none"), NoticeKind::Warning),
            Err(ClipboardError::NoImage) => self
                .transcript
                .notice(t!("pi.tui.clipboard.no_image"), NoticeKind::Info),
            Err(ClipboardError::Save(error)) => self.transcript.notice(
                t!("pi.tui.clipboard.save_failed", error = error),
                NoticeKind::Error,
            ),
        }
    }
}
