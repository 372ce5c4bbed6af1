//! `/lang`: the picker, switching locale (applied to everything on screen at once and saved
//! to settings), the subcommands, and re-reading locale packs on `/reload`.

use crate::t;

use crate::i18n::lang_command::{self, LangCommand};
use crate::i18n::languages::is_rtl;
use crate::tui::app::{App, Overlay};
use crate::tui::panels::lang::LangPanel;
use crate::tui::transcript::NoticeKind;

impl App {
    /// Run `/lang <args>`.
    pub(super) fn run_lang(&mut self, args: &str) {
        let (text, kind) = match lang_command::parse(args) {
            LangCommand::Picker => {
                let panel = LangPanel::new(&crate::i18n::current_locale());
                self.overlay = Some(Overlay::Panel(Box::new(panel)));
                return;
            }
            LangCommand::Set(tag) => return self.switch_locale(&tag),
            LangCommand::Invalid(text) => (t!("pi.lang.invalid", text = text), NoticeKind::Error),
            LangCommand::Doctor => {
                let (text, score) = crate::lua::i18n_score::doctor();
                let kind = if score.passes() {
                    NoticeKind::Info
                } else {
                    NoticeKind::Warning
                };
                (text, kind)
            }
            LangCommand::Debug => (lang_command::debug(), NoticeKind::Info),
            LangCommand::Probe(action) => (lang_command::probe(action), NoticeKind::Info),
            LangCommand::Hacks(None) => (lang_command::hacks_text(), NoticeKind::Info),
            LangCommand::Hacks(Some((id, on))) => {
                (lang_command::toggle_hack(&id, on), NoticeKind::Info)
            }
            LangCommand::Setup => {
                let (tag, source) = lang_command::setup_choice();
                self.transcript.notice(
                    t!("pi.lang.setup.detected", source = source),
                    NoticeKind::Info,
                );
                return self.switch_locale(&tag);
            }
        };
        self.transcript.notice(text, kind);
    }

    /// Switch to `tag` now (everything on screen re-renders) and save it in settings.
    pub(super) fn switch_locale(&mut self, tag: &str) {
        lang_command::switch_locale(tag);
        let saved = lang_command::persist(&mut self.ui_settings.settings, tag);
        let kind = if is_rtl(tag) {
            NoticeKind::Warning
        } else {
            NoticeKind::Info
        };
        let text = format!("{}\n{saved}", lang_command::switched_message(tag));
        self.transcript.notice(text, kind);
        self.cache.clear();
        self.dirty = true;
    }

    /// `/reload`: read `~/.pi/agent/locales/` again; a broken file keeps its old catalog
    /// and its errors are shown.
    pub(super) fn reload_locales(&mut self) {
        if self.ui_settings.agent_dir.as_os_str().is_empty() {
            return;
        }
        let dir = self.ui_settings.agent_dir.join("locales");
        for error in crate::i18n::packs::reload(&[dir]) {
            self.transcript.notice(
                t!("pi.lang.reload_failed", error = error),
                NoticeKind::Error,
            );
        }
    }
}
