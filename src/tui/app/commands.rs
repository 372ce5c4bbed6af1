//! What slash commands and the selectors they open do to the app.

use crate::core::session_command::ModelSource;
use crate::t;

use crate::ai::model::{Model, ThinkingLevel};

use crate::tui::app::session_task::SessionCommand;
use crate::tui::app::session_tree_task::TreeCommand;
use crate::tui::app::{App, Overlay};
use crate::tui::commands::SlashCommand;
use crate::tui::panels::selector::{Selector, SelectorItem};
use crate::tui::transcript::{Item, NoticeKind};

impl App {
    pub(super) fn run_command(&mut self, command: SlashCommand) {
        let busy = self.is_busy();
        let refuse_busy = |app: &mut App| {
            app.transcript
                .notice(t!("pi.tui.busy"), NoticeKind::Warning);
        };
        match command {
            SlashCommand::Quit => self.quit = true,
            SlashCommand::Hotkeys => {
                let extension: Vec<(String, String)> = self
                    .ext
                    .shortcut_source
                    .iter()
                    .map(|s| {
                        (
                            s.shortcut.clone(),
                            s.description.clone().unwrap_or_default(),
                        )
                    })
                    .collect();
                let text = crate::tui::app::hotkeys::hotkeys_markdown(&self.keys, &extension);
                self.transcript
                    .push(crate::tui::transcript::Item::Help { text });
            }
            SlashCommand::Session => {
                let text = self.session_summary();
                self.transcript.notice(text, NoticeKind::Info);
            }
            SlashCommand::Copy => self.copy_last_answer(),
            SlashCommand::Settings => self.open_settings(),
            SlashCommand::ScopedModels => self.open_scoped_models(),
            SlashCommand::Changelog => self.show_changelog(),
            SlashCommand::Export(path) => {
                let path = (!path.is_empty()).then(|| std::path::PathBuf::from(path));
                let theme = self.ui_settings.theme_json(&self.theme.name);
                let _ = self.commands.send(SessionCommand::Export {
                    path,
                    share: false,
                    theme,
                });
            }
            SlashCommand::Share => {
                self.transcript
                    .notice(t!("pi.cmd.share.creating"), NoticeKind::Info);
                let _ = self.commands.send(SessionCommand::Export {
                    path: None,
                    share: true,
                    theme: self.ui_settings.theme_json(&self.theme.name),
                });
            }
            SlashCommand::Import(_) if busy => refuse_busy(self),
            SlashCommand::Import(path) if path.is_empty() => self
                .transcript
                .notice(t!("pi.cmd.import.usage"), NoticeKind::Warning),
            SlashCommand::Import(path) => self.confirm_import(path),
            SlashCommand::New if busy => refuse_busy(self),
            SlashCommand::New => {
                let _ = self.commands.send(SessionCommand::NewSession);
            }
            SlashCommand::Name(name) if name.is_empty() => {
                self.transcript
                    .notice(t!("pi.cmd.name.usage"), NoticeKind::Warning);
            }
            SlashCommand::Name(name) => {
                self.footer.session_name = Some(name.clone());
                self.transcript
                    .notice(t!("pi.cmd.name.set", name = &name), NoticeKind::Info);
                let _ = self.commands.send(SessionCommand::SetName(name));
            }
            SlashCommand::Resume if busy => refuse_busy(self),
            SlashCommand::Resume => self.open_session_selector(),
            SlashCommand::Model(_) if busy => refuse_busy(self),
            SlashCommand::Model(search) => self.open_model_selector(&search),
            SlashCommand::Login(provider) => self.start_login(&provider),
            SlashCommand::Logout(provider) => self.run_logout(&provider),
            SlashCommand::Reload if busy => refuse_busy(self),
            SlashCommand::Reload => {
                self.reload_locales();
                self.themes_at_reload = Some(self.ui_settings.theme_inventory());
                let _ = self.commands.send(SessionCommand::Reload);
            }
            SlashCommand::Lang(args) => self.run_lang(&args),
            SlashCommand::Sandbox(mode) => self.run_sandbox(&mode),
            SlashCommand::Permissions(args) => {
                let _ = self.commands.send(SessionCommand::Permissions(args));
            }
            SlashCommand::Extensions => {
                let _ = self.commands.send(SessionCommand::Extensions);
            }
            SlashCommand::Tree
            | SlashCommand::Fork
            | SlashCommand::Rewind
            | SlashCommand::Clone
            | SlashCommand::Compact(_)
                if busy =>
            {
                refuse_busy(self)
            }
            SlashCommand::Tree => self.request_tree(TreeCommand::Open),
            SlashCommand::Fork => self.request_tree(TreeCommand::ForkList),
            SlashCommand::Rewind => self.request_tree(TreeCommand::Rewind(None)),
            SlashCommand::Clone => self.request_tree(TreeCommand::Clone),
            SlashCommand::Compact(instructions) => self.start_compaction(instructions),
            SlashCommand::Unavailable(name) => self
                .transcript
                .notice(t!("pi.cmd.unavailable", name = name), NoticeKind::Warning),
            SlashCommand::Unknown(name) => self
                .transcript
                .notice(t!("pi.cmd.unknown", name = name), NoticeKind::Error),
        }
    }

    /// Send `/name args` to the extension that registered `name`; `false`
    /// when `text` is not an extension command.
    pub(super) fn run_extension_command(&mut self, text: &str) -> bool {
        let Some(rest) = text.trim().strip_prefix('/') else {
            return false;
        };
        let (name, args) = match rest.split_once(char::is_whitespace) {
            Some((n, a)) => (n, a.trim()),
            None => (rest, ""),
        };
        // pi's own command of the same name wins in the terminal UI.
        if crate::protocol::commands::is_builtin_command(name)
            || !self.extension_commands.iter().any(|(n, _)| n == name)
        {
            return false;
        }
        if self.is_busy() {
            self.transcript
                .notice(t!("pi.tui.busy"), NoticeKind::Warning);
            return true;
        }
        self.editor.add_history(text);
        let signal = tokio_util::sync::CancellationToken::new();
        self.set_busy(signal.clone());
        let _ = self.commands.send(SessionCommand::ExtensionCommand {
            name: name.to_string(),
            args: args.to_string(),
            signal,
        });
        true
    }

    pub(super) fn open_model_selector(&mut self, search: &str) {
        // Local servers are asked the first time the list is wanted; what they
        // answered joins it once the background request is done.
        crate::ai::local_models::ensure_background_discovery();
        for model in crate::ai::local_models::discovered() {
            if !self
                .models
                .iter()
                .any(|m| m.provider == model.provider && m.id == model.id)
            {
                self.models.push(model);
            }
        }
        if self.models.is_empty() {
            self.transcript
                .notice(t!("pi.cmd.model.none"), NoticeKind::Warning);
            return;
        }
        let items = self
            .models
            .iter()
            .map(|m| SelectorItem {
                label: m.id.clone(),
                detail: format!("[{}]", m.provider),
            })
            .collect();
        let in_use = self
            .models
            .iter()
            .position(|m| m.id == self.footer.model_id && m.provider == self.footer.provider);
        let current = in_use.unwrap_or(0);
        let notes = self
            .models
            .iter()
            .map(|m| t!("pi.cmd.model.name", name = &m.name))
            .collect();
        let mut selector = Selector::keyed("pi.cmd.model.title", items, current).with_notes(notes);
        if let Some(index) = in_use {
            selector = selector.with_current(index);
        }
        if !search.is_empty() {
            selector.set_query(search);
        }
        self.overlay = Some(Overlay::ModelSelector(selector));
    }

    fn session_summary(&self) -> String {
        let f = &self.footer;
        let u = &self.transcript.usage;
        let counts = &self.transcript.counts;
        let file = self
            .session_file
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| t!("pi.cmd.session.unsaved"));
        let unnamed = t!("pi.cmd.session.unnamed");
        let tokens = u.input + u.output + u.cache_read + u.cache_write;
        let info = t!(
            "pi.cmd.session.info",
            name = f.session_name.as_deref().unwrap_or(&unnamed),
            file = file,
            id = &self.session_id,
            provider = &f.provider,
            model = &f.model_id,
            user = counts.user,
            assistant = counts.assistant,
            tool_calls = counts.tool_calls,
            tool_results = counts.tool_results,
            messages = counts.total,
            input = grouped(u.input),
            output = grouped(u.output),
            cache_read = grouped(u.cache_read),
            cache_write = grouped(u.cache_write),
            tokens = grouped(tokens),
            cost = format!("{:.4}", u.cost.total),
        );
        match self.session_file.as_deref().and_then(|f| f.parent()) {
            Some(dir) => {
                let used = crate::checkpoint::prune::usage_on_disk(dir, &self.session_id);
                let size = |n: u64| crate::tools::truncate::format_size(n as usize);
                let line = t!(
                    "pi.cmd.session.checkpoints",
                    count = used.checkpoints,
                    session = size(used.session_bytes),
                    folder = size(used.folder_bytes)
                );
                format!("{info}\n{line}")
            }
            None => info,
        }
    }

    /// `/copy`: the last answer to the clipboard through OSC 52.
    fn copy_last_answer(&mut self) {
        use base64::Engine;
        use std::io::Write;
        let last = self.transcript.items.iter().rev().find_map(|i| match i {
            Item::Assistant { text, .. } if !text.trim().is_empty() => Some(text.clone()),
            _ => None,
        });
        let Some(text) = last else {
            self.transcript
                .notice(t!("pi.cmd.copy.empty"), NoticeKind::Warning);
            return;
        };
        let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
        let mut out = std::io::stdout();
        let _ = write!(out, "\x1b]52;c;{encoded}\x07");
        let _ = out.flush();
        self.transcript
            .notice(t!("pi.cmd.copy.done"), NoticeKind::Info);
    }

    /// Ctrl+P / Shift+Ctrl+P: the next or previous available model.
    pub(super) fn cycle_model(&mut self, step: isize) {
        let models = if self.cycle_models.is_empty() {
            &self.models
        } else {
            &self.cycle_models
        };
        if self.is_busy() || models.len() < 2 {
            return;
        }
        let n = models.len() as isize;
        let at = models
            .iter()
            .position(|m| m.id == self.footer.model_id && m.provider == self.footer.provider)
            .map(|i| i as isize)
            .unwrap_or(if step > 0 { -1 } else { 0 });
        let next = models[((at + step).rem_euclid(n)) as usize].clone();
        self.switch_model(next, ModelSource::Cycle);
    }

    pub(super) fn switch_model(&mut self, model: Model, source: ModelSource) {
        self.footer.model_id = model.id.clone();
        self.footer.provider = model.provider.clone();
        self.footer.reasoning = model.reasoning;
        self.footer.context_window = model.context_window;
        self.transcript.status(
            t!(
                "pi.tui.model.switched",
                provider = &model.provider,
                id = &model.id
            ),
            NoticeKind::Info,
        );
        // The next start uses this model, as in pi.
        self.save_default("defaultProvider", &model.provider);
        self.save_default("defaultModel", &model.id);
        let _ = self
            .commands
            .send(SessionCommand::SetModel(Box::new(model), source));
    }

    /// Remember a choice in the global settings (a failure is shown, not fatal).
    pub(super) fn save_default(&mut self, key: &str, value: &str) {
        let value = serde_json::Value::String(value.to_string());
        if let Err(e) = self.ui_settings.settings.set_global(key, value) {
            self.transcript.notice(e, NoticeKind::Error);
        }
    }

    /// A chosen thinking level becomes the default, unless it is `off` on a
    /// model that cannot think.
    pub(super) fn save_thinking_default(&mut self, level: ThinkingLevel) {
        if self.footer.reasoning || level != ThinkingLevel::Off {
            self.save_default("defaultThinkingLevel", level.as_str());
        }
    }

    pub(super) fn cycle_thinking(&mut self) {
        if !self.footer.reasoning {
            self.transcript
                .notice(t!("pi.tui.thinking.unsupported"), NoticeKind::Info);
            return;
        }
        let order = ["off", "minimal", "low", "medium", "high", "xhigh"];
        let at = order
            .iter()
            .position(|l| *l == self.footer.thinking)
            .unwrap_or(0);
        let next = order[(at + 1) % order.len()];
        if let Some(level) = ThinkingLevel::parse(next) {
            self.footer.thinking = next.to_string();
            self.transcript.status(
                t!(
                    "pi.tui.thinking.changed",
                    level = t!(&format!("pi.settings.value.{next}"))
                ),
                NoticeKind::Info,
            );
            self.save_thinking_default(level);
            let _ = self.commands.send(SessionCommand::SetThinking(level));
        }
    }
}

/// `n` with its thousands grouped: `12,345`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl App {
    /// Ask before `/import` replaces the session shown; the answer starts the import or
    /// says it was cancelled.
    pub(super) fn confirm_import(&mut self, path: String) {
        let (answer, reply) = tokio::sync::oneshot::channel();
        let request = serde_json::json!({
            "method": "confirm",
            "title": t!("pi.cmd.import.confirm_title"),
            "message": t!("pi.cmd.import.confirm", path = &path),
        });
        let closed = tokio_util::sync::CancellationToken::new();
        let Some(dialog) =
            crate::tui::chrome::dialog::ExtDialog::from_request(&request, closed, answer)
        else {
            return;
        };
        self.ext.dialogs.push_back(dialog);
        self.completion = None;
        let commands = self.commands.clone();
        let models = self.models.clone();
        let decided = tokio::spawn(async move {
            let confirmed = reply
                .await
                .is_ok_and(|value| value["confirmed"].as_bool() == Some(true));
            if !confirmed {
                return Some(t!("pi.cmd.import.cancelled"));
            }
            let path = std::path::PathBuf::from(path);
            let _ = commands.send(SessionCommand::Import { path, models });
            None
        });
        let _ = self.commands.send(SessionCommand::NoticeWhenReady(decided));
    }
}

impl App {
    /// Say what a reload loaded and what it found added, changed or removed.
    pub(super) fn report_reload(&mut self, outcome: crate::tui::app::reload::ReloadOutcome) {
        let crate::tui::app::reload::ReloadOutcome {
            mut before,
            mut after,
            report,
        } = outcome;
        let themes_now = self.ui_settings.theme_inventory();
        before.absorb(
            self.themes_at_reload
                .take()
                .unwrap_or_else(|| themes_now.clone()),
        );
        after.absorb(themes_now);
        let (head, kind) = match &report {
            Some(r) if r.errors.is_empty() && !r.loaded.is_empty() => (
                t!("pi.cmd.reload.done", count = r.loaded.len()),
                NoticeKind::Info,
            ),
            Some(r) if !r.errors.is_empty() => (
                t!(
                    "pi.cmd.reload.done_failed",
                    count = r.loaded.len(),
                    failed = r.errors.len()
                ),
                NoticeKind::Warning,
            ),
            _ => (t!("pi.cmd.reload.resources"), NoticeKind::Info),
        };
        let mut lines = vec![head];
        lines.extend(
            crate::core::resource_inventory::describe_changes(&before, &after)
                .into_iter()
                .map(|line| format!("  {line}")),
        );
        self.transcript.notice(lines.join("\n"), kind);
    }
}
