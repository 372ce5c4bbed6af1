//! The `bash` tool: run a shell command, stream its output, keep the tail.

pub(crate) mod decode;
pub mod logs;
pub mod operations;
pub mod output;
pub mod process;

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::agent::tool::{ToolContext, ToolError, ToolOutput};
use crate::ai::types::ContentBlock;

use super::ToolOptions;
use super::args::{js_number, object_schema, optional_number, required_str};
use super::truncate::{DEFAULT_MAX_BYTES, TruncatedBy, TruncationLimits, format_size};
use operations::{BashOperations, ExecRequest, LocalShell, SpawnContext};
use output::{OutputAccumulator, OutputSnapshot};
use process::{CommandEnd, Interruption, OutputSink};

/// Minimum time between two streamed updates.
const UPDATE_THROTTLE: Duration = Duration::from_millis(100);
/// Prefix of the temp files holding full output.
const TEMP_FILE_PREFIX: &str = "pi-bash";

/// The built-in `bash` tool.
#[derive(Debug, Clone, Default)]
pub struct BashTool {
    shell: LocalShell,
    command_prefix: Option<String>,
}

impl BashTool {
    /// A bash tool using the shell, command prefix and `PATH` addition of `options`.
    pub fn new(options: &ToolOptions) -> Self {
        BashTool {
            shell: LocalShell {
                shell_path: options.shell_path.clone(),
                path_prefix: options.bin_dir.clone(),
            },
            command_prefix: options.shell_command_prefix.clone(),
        }
    }

    /// The local shell this tool runs commands in.
    pub fn local_shell(&self) -> &LocalShell {
        &self.shell
    }
}

impl_builtin_tool! {
    BashTool {
        name: "bash",
        description:
            "Execute a bash command in the current working directory. Returns stdout and stderr. \
             Output is truncated to last 2000 lines or 50KB (whichever is hit first). If truncated, \
             full output is saved to a temp file. Optionally provide a timeout in seconds.",
        snippet: "Execute bash commands (ls, grep, find, etc.)",
        parameters: object_schema(
            &["command"],
            &[
                ("command", "string", "Bash command to execute"),
                ("timeout", "number", "Timeout in seconds (optional, no default timeout)"),
            ],
        ),
    }
}

impl BashTool {
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<ToolOutput, ToolError> {
        bash_with(&self.shell, self.command_prefix.as_deref(), &args, &ctx).await
    }
}

/// Run the bash tool with commands going through `ops`; `command_prefix` is put on its
/// own line before every command.
pub async fn bash_with<O: BashOperations>(
    ops: &O,
    command_prefix: Option<&str>,
    args: &Value,
    ctx: &ToolContext,
) -> Result<ToolOutput, ToolError> {
    let command = required_str(args, "command")?;
    let timeout = optional_number(args, "timeout").filter(|t| *t > 0.0);
    let full_command = match command_prefix {
        Some(prefix) if !prefix.is_empty() => format!("{prefix}\n{command}"),
        _ => command.to_string(),
    };
    ctx.update(ToolOutput::default());
    if ctx.signal.is_cancelled() {
        return Err(ToolError::new("Command aborted"));
    }
    let mut spawn = SpawnContext {
        command: full_command,
        cwd: ctx.cwd.clone(),
        env: Default::default(),
    };
    let hooked = ops.has_spawn_hook();
    if hooked {
        spawn.env = ops.base_env();
        spawn = ops.spawn_hook(spawn).await?;
    }
    let request = ExecRequest {
        command: &spawn.command,
        cwd: &spawn.cwd,
        env: hooked.then_some(&spawn.env),
        timeout: timeout.map(Duration::from_secs_f64),
    };
    let mut sink = StreamingSink::new(ctx);
    let end = ops.exec(&request, &ctx.signal, &mut sink).await;
    let snapshot = sink.finish().map_err(ToolError::from)?;
    let last_line_bytes = sink.accumulator.last_line_bytes();

    match end? {
        CommandEnd::Interrupted(reason) => {
            let (text, _) = format_output(&snapshot, "", last_line_bytes);
            let status = match reason {
                Interruption::Aborted => "Command aborted".to_string(),
                Interruption::TimedOut => format!(
                    "Command timed out after {} seconds",
                    js_number(timeout.unwrap_or_default())
                ),
            };
            Err(ToolError::new(append_status(&text, &status)))
        }
        CommandEnd::Exited(code) => {
            let (text, details) = format_output(&snapshot, "(no output)", last_line_bytes);
            match code {
                Some(code) if code != 0 => Err(ToolError::new(append_status(
                    &text,
                    &format!("Command exited with code {code}"),
                ))),
                _ => Ok(ToolOutput {
                    content: vec![ContentBlock::text(text)],
                    details,
                    terminate: false,
                }),
            }
        }
    }
}

/// `text`, a blank line and `status`; just `status` when there is no text.
fn append_status(text: &str, status: &str) -> String {
    if text.is_empty() {
        status.to_string()
    } else {
        format!("{text}\n\n{status}")
    }
}

/// Final text (with truncation notice) and details of a snapshot.
fn format_output(
    snapshot: &OutputSnapshot,
    empty_text: &str,
    last_line_bytes: usize,
) -> (String, Option<Value>) {
    let truncation = &snapshot.truncation;
    let mut text = if snapshot.content.is_empty() {
        empty_text.to_string()
    } else {
        snapshot.content.clone()
    };
    if snapshot.binary {
        let Some(path) = &snapshot.full_output_path else {
            return (text, None);
        };
        text.push_str(&format!("\n\n[Full output: {}]", path.display()));
        return (text, Some(snapshot_details(snapshot)));
    }
    if !truncation.truncated {
        return (text, None);
    }
    let full_path = snapshot
        .full_output_path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let start = truncation.total_lines - truncation.output_lines + 1;
    let end = truncation.total_lines;
    let notice = if truncation.last_line_partial {
        format!(
            "[Showing last {} of line {end} (line is {}). Full output: {full_path}]",
            format_size(truncation.output_bytes),
            format_size(last_line_bytes)
        )
    } else if truncation.truncated_by == Some(TruncatedBy::Lines) {
        format!(
            "[Showing lines {start}-{end} of {}. Full output: {full_path}]",
            truncation.total_lines
        )
    } else {
        format!(
            "[Showing lines {start}-{end} of {} ({} limit). Full output: {full_path}]",
            truncation.total_lines,
            format_size(DEFAULT_MAX_BYTES)
        )
    };
    text.push_str("\n\n");
    text.push_str(&notice);
    (text, Some(snapshot_details(snapshot)))
}

/// `{truncation?, fullOutputPath?}` for a snapshot.
fn snapshot_details(snapshot: &OutputSnapshot) -> Value {
    let mut details = Map::new();
    if snapshot.truncation.truncated {
        details.insert("truncation".into(), json!(snapshot.truncation));
    }
    if let Some(path) = &snapshot.full_output_path {
        details.insert("fullOutputPath".into(), json!(path.display().to_string()));
    }
    Value::Object(details)
}

/// Accumulates output and streams throttled partial results.
struct StreamingSink<'a> {
    accumulator: OutputAccumulator,
    ctx: &'a ToolContext,
    dirty: bool,
    last_update: Option<Instant>,
    error: Option<std::io::Error>,
}

impl<'a> StreamingSink<'a> {
    fn new(ctx: &'a ToolContext) -> Self {
        StreamingSink {
            accumulator: OutputAccumulator::new(TruncationLimits::default(), TEMP_FILE_PREFIX),
            ctx,
            dirty: false,
            last_update: None,
            error: None,
        }
    }

    fn update_due(&self) -> bool {
        self.last_update
            .is_none_or(|last| last.elapsed() >= UPDATE_THROTTLE)
    }

    fn emit_update(&mut self) {
        if !self.dirty || self.ctx.on_update.is_none() {
            return;
        }
        self.dirty = false;
        self.last_update = Some(Instant::now());
        match self.accumulator.snapshot() {
            Ok(snapshot) => self.ctx.update(ToolOutput {
                content: vec![ContentBlock::text(snapshot.content.clone())],
                details: Some(snapshot_details(&snapshot)),
                terminate: false,
            }),
            Err(e) => self.error = Some(e),
        }
    }

    /// End of output: flush the pending update and take the final snapshot.
    fn finish(&mut self) -> std::io::Result<OutputSnapshot> {
        self.accumulator.finish()?;
        self.emit_update();
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        self.accumulator.snapshot()
    }
}

impl OutputSink for StreamingSink<'_> {
    fn on_data(&mut self, data: &[u8]) {
        if let Err(e) = self.accumulator.append(data) {
            self.error.get_or_insert(e);
        }
        if self.ctx.on_update.is_some() {
            self.dirty = true;
            if self.update_due() {
                self.emit_update();
            }
        }
    }

    fn on_tick(&mut self) {
        if self.dirty && self.update_due() {
            self.emit_update();
        }
    }
}
