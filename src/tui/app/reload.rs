//! `/reload` in the terminal UI's session task: the core hacks, the extensions, skills and
//! prompt templates loaded again, with what was loaded before and after for the report.

use crate::t;

use tokio::sync::mpsc::UnboundedSender;

use crate::core::agent_session::AgentSession;
use crate::core::resource_inventory::ResourceInventory;
use crate::tui::app::session_task::UiEvent;

/// What a reload found: the resources before and after, and the extensions' load report
/// (`None` when there are no extensions).
#[derive(Debug, Clone)]
pub struct ReloadOutcome {
    /// Loaded before the reload.
    pub before: ResourceInventory,
    /// Loaded after it.
    pub after: ResourceInventory,
    /// The extensions that loaded and failed.
    pub report: Option<crate::lua::LoadReport>,
}

/// `/reload`: reload the core hacks and the extensions, which finds the skills and prompt
/// templates again; without an extension host those are found again here.
pub(super) async fn reload_all(
    agent: &mut AgentSession,
    ui: &UnboundedSender<UiEvent>,
) -> Option<crate::lua::LoadReport> {
    if agent.extensions().is_none() {
        for warning in agent.reload_resources() {
            let _ = ui.send(UiEvent::Notice(t!("pi.cli.warning", message = warning)));
        }
    }
    reload_with_hacks(agent, ui).await
}

/// Load the core hacks again, then the extensions; broken hacks are reported.
async fn reload_with_hacks(
    agent: &mut AgentSession,
    ui: &UnboundedSender<UiEvent>,
) -> Option<crate::lua::LoadReport> {
    let broken = crate::i18n::core_hacks::reload(&crate::config::paths::agent_dir());
    if broken > 0 {
        let _ = ui.send(UiEvent::Failed(t!("pi.hacks.broken", count = broken)));
    }
    agent.reload_extensions().await
}
