//! Warnings the terminal UI gives once per run, each one switched off with its setting
//! under `warnings` (`/settings`).

use crate::t;

use serde_json::Value;

use crate::ai::auth::AuthStorage;
use crate::tui::app::App;
use crate::tui::transcript::NoticeKind;

impl App {
    /// Warn once when the model is Anthropic's and the credential is a subscription sign-in
    /// (stored OAuth or an `sk-ant-oat` token): such requests are billed as extra usage.
    /// Off with `warnings.anthropicExtraUsage: false`.
    pub(super) fn warn_about_extra_usage(&mut self) {
        if self.extra_usage_checked || self.footer.provider != "anthropic" {
            return;
        }
        self.extra_usage_checked = true;
        let setting = self
            .ui_settings
            .settings
            .get_nested("warnings", "anthropicExtraUsage");
        if setting == Some(&Value::Bool(false)) {
            return;
        }
        let (auth, _) = AuthStorage::load(&self.ui_settings.agent_dir);
        let subscription = auth.is_oauth("anthropic")
            || auth
                .api_key("anthropic")
                .is_some_and(|key| key.starts_with("sk-ant-oat"));
        if subscription {
            self.transcript
                .notice(t!("pi.warnings.anthropic_extra_usage"), NoticeKind::Warning);
        }
    }
}
