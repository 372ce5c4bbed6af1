//! Context compaction and branch summaries: estimate how full the context
//! is, choose what to summarize without splitting a tool call from its
//! result, ask the model for a structured summary, and track the files read
//! and modified across summaries.

pub mod branch;
pub mod error;
pub mod file_ops;
pub mod prepare;
pub mod prompts;
pub mod serialize;
pub mod summarize;
pub mod tokens;

pub use branch::{BranchSummary, collect_entries_for_branch_summary, generate_branch_summary};
pub use file_ops::FileOps;
pub use prepare::{CompactionPreparation, CutPoint, find_cut_point, prepare_compaction};
pub use summarize::{CompactionResult, compact};
pub use tokens::{estimate_context_tokens, estimate_tokens, should_compact};

#[cfg(test)]
mod tests;
