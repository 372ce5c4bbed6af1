//! A run's part in file checkpoints: the observer keeps what an allowed tool call may
//! change before it runs, and finishes the run's checkpoint when the run ends.

use crate::agent::events::AgentEvent;
use crate::ai::types::ToolCall;

use super::Persisting;

impl crate::core::checkpoints::RunCheckpoints for Persisting<'_> {
    fn before_change(&mut self, call: &ToolCall, args: &serde_json::Value) {
        if let Some(store) = self.checkpoints.as_deref_mut() {
            crate::core::checkpoints::note_change(store, self.session, &call.name, args);
        }
    }

    fn finish_checkpoint(&mut self) -> Option<AgentEvent> {
        crate::core::checkpoints::finish(self.checkpoints.as_deref_mut()?)
    }
}
