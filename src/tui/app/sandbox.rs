//! `/sandbox [mode]`: show the sandbox in force, or switch its mode for the rest of the
//! session (refused, with the missing feature named, when the kernel cannot enforce it).

use crate::t;

use crate::sandbox::SandboxMode;
use crate::tui::app::App;
use crate::tui::transcript::NoticeKind;

impl App {
    /// Run `/sandbox <mode>`; without a mode, show the sandbox.
    pub(super) fn run_sandbox(&mut self, mode: &str) {
        let cwd = self.footer.cwd.clone();
        if mode.trim().is_empty() {
            self.transcript
                .notice(crate::sandbox::status_line(&cwd), NoticeKind::Info);
            return;
        }
        let Some(mode) = SandboxMode::parse(mode) else {
            self.transcript
                .notice(t!("pi.sandbox.usage"), NoticeKind::Warning);
            return;
        };
        match crate::sandbox::switch_mode(mode, &cwd) {
            Ok(()) => {
                self.footer.sandbox = mode.is_confined().then(|| mode.as_str().to_string());
                self.transcript
                    .notice(crate::sandbox::status_line(&cwd), NoticeKind::Info);
            }
            Err(e) => self.transcript.notice(e.to_string(), NoticeKind::Error),
        }
    }
}
