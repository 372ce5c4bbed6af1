//! `/extensions`: the panel of every extension's status, source, load time, handler
//! times and memory, from the host's profile.

use crate::lua::discovery::{ExtensionSource, source_of};
use crate::lua::profile::Profile;
use crate::t;
use crate::tui::app::{App, Overlay};
use crate::tui::panels::extensions::{ExtensionRow, ExtensionsPanel};

/// The source of an extension, translated.
pub fn source_label(source: ExtensionSource) -> String {
    match source {
        ExtensionSource::User => t!("pi.extensions.source.user"),
        ExtensionSource::Project => t!("pi.extensions.source.project"),
        ExtensionSource::Package => t!("pi.extensions.source.package"),
        ExtensionSource::Path => t!("pi.extensions.source.path"),
        ExtensionSource::Bundled => t!("pi.extensions.source.bundled"),
    }
}

impl App {
    /// Show the extensions panel for `profile`.
    pub(super) fn open_extensions(&mut self, profile: Profile) {
        let agent_dir = self.ui_settings.agent_dir.clone();
        let cwd = self.footer.cwd.clone();
        let rows = profile
            .extensions
            .iter()
            .map(|p| ExtensionRow {
                source: source_label(source_of(&p.path, &agent_dir, &cwd)),
                shown_path: crate::ui_kit::text::tilde_path(&p.path),
                profile: p.clone(),
            })
            .collect();
        let panel = ExtensionsPanel::new(rows, &profile);
        self.overlay = Some(Overlay::Panel(Box::new(panel)));
        self.dirty = true;
    }
}
