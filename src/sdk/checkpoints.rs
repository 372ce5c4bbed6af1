//! File checkpoints through the SDK: list them, see what a rewind would change, rewind
//! the files, the conversation or both (see `docs/checkpoints.md`).

use tokio_util::sync::CancellationToken;

use super::SdkError;
use super::session::Session;
pub use crate::checkpoint::{ChangeKind, Checkpoint, FileChange, RestorePlan, RestoreReport};
pub use crate::core::checkpoints::{RewindOptions, RewindOutcome};

impl Session {
    /// The session's checkpoints, newest first (empty when checkpoints are off or the
    /// session is in memory). Fails with [`SdkError::Busy`] while a prompt runs.
    pub fn checkpoints(&self) -> Result<Vec<Checkpoint>, SdkError> {
        Ok(self.idle_agent()?.checkpoint_list())
    }

    /// The files rewinding to before `target` (a user message's entry id or a checkpoint
    /// id) would change, conflicts marked; `None` when nothing was recorded after it.
    pub fn rewind_preview(&self, target: &str) -> Result<Option<RestorePlan>, SdkError> {
        Ok(self.idle_agent()?.rewind_plan(target))
    }

    /// Rewind to before `target`: the files (`options.code`), the conversation
    /// (`options.conversation`) or both. Files someone else changed since are kept unless
    /// listed in `overwrite`. Fails with [`SdkError::Busy`] while a prompt runs.
    pub async fn rewind(
        &self,
        target: &str,
        options: RewindOptions,
        overwrite: &[String],
    ) -> Result<RewindOutcome, SdkError> {
        let mut agent = self.idle_agent()?;
        let overwrite: Vec<String> = overwrite.to_vec();
        let chosen = move |path: &str| overwrite.iter().any(|p| p == path);
        let outcome = agent
            .rewind(target, options, &chosen, &CancellationToken::new())
            .await
            .map_err(|e| SdkError::Failed(e.to_string()))?;
        self.refresh_live(&agent);
        Ok(outcome)
    }
}
