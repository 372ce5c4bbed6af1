//! The `read` tool: text files with offset/limit and continuation notices,
//! images as attachments.
//!
//! Images larger than 2000×2000 pixels or 4.5 MB of base64 are scaled down
//! first (see [`super::image_resize`]), with a note mapping coordinates back.

use std::path::Path;

use serde_json::{Value, json};

use crate::agent::tool::{ToolContext, ToolError, ToolOutput};
use crate::ai::types::ContentBlock;

use super::args::{
    check_aborted, js_number, object_schema, optional_number, required_str, unless_aborted,
};
use super::image_resize::prepare_attachment;
use super::mime::{SNIFF_BYTES, looks_binary};
use super::operations::{FileBytes, LocalFs, MAX_READ_BYTES, ReadOperations};
use super::paths::resolve_read_path;
use super::truncate::{
    DEFAULT_MAX_BYTES, TruncatedBy, TruncationLimits, format_size, truncate_head,
};

/// The built-in `read` tool.
#[derive(Debug, Clone)]
pub struct ReadTool {
    /// Scale images to the provider limits (`images.autoResize`).
    auto_resize: bool,
}

impl Default for ReadTool {
    fn default() -> Self {
        ReadTool::new()
    }
}

impl ReadTool {
    /// A read tool that scales large images down.
    pub fn new() -> Self {
        ReadTool { auto_resize: true }
    }

    /// A read tool that scales large images down only when `auto_resize` is set.
    pub fn with_resize(auto_resize: bool) -> Self {
        ReadTool { auto_resize }
    }
}

impl_builtin_tool! {
    ReadTool {
        name: "read",
        description:
            "Read the contents of a file. Supports text files and images (jpg, png, gif, webp). \
             Images are sent as attachments. For text files, output is truncated to 2000 lines or \
             50KB (whichever is hit first). Use offset/limit for large files. When you need the full \
             file, continue with offset until complete.",
        snippet: "Read file contents",
        guidelines: [
            "Use read to examine files instead of cat or sed.",
        ],
        parameters: object_schema(
            &["path"],
            &[
                ("path", "string", "Path to the file to read (relative or absolute)"),
                ("offset", "number", "Line number to start reading from (1-indexed)"),
                ("limit", "number", "Maximum number of lines to read"),
            ],
        ),
    }
}

impl ReadTool {
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<ToolOutput, ToolError> {
        read_with(&LocalFs, &args, &ctx, self.auto_resize).await
    }
}

/// Run the read tool with its I/O going through `ops`.
pub async fn read_with<O: ReadOperations>(
    ops: &O,
    args: &Value,
    ctx: &ToolContext,
    auto_resize: bool,
) -> Result<ToolOutput, ToolError> {
    let path = required_str(args, "path")?;
    let request = ReadRequest {
        path,
        offset: optional_number(args, "offset"),
        limit: optional_number(args, "limit"),
    };
    check_aborted(&ctx.signal)?;
    let absolute = resolve_read_path(path, &ctx.cwd);
    unless_aborted(
        &ctx.signal,
        read_file(ops, &request, &absolute, auto_resize),
    )
    .await?
}

/// The arguments of one read.
struct ReadRequest<'a> {
    /// The path as the model wrote it (used in notices).
    path: &'a str,
    /// 1-based first line.
    offset: Option<f64>,
    /// Maximum number of lines.
    limit: Option<f64>,
}

async fn read_file<O: ReadOperations>(
    ops: &O,
    request: &ReadRequest<'_>,
    absolute: &Path,
    auto_resize: bool,
) -> Result<ToolOutput, ToolError> {
    ops.access(absolute).await?;
    let FileBytes { bytes, cut } = ops.read_file(absolute).await?;
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    if let Some(mime_type) = ops.detect_image_mime_type(absolute, head).await {
        let content = match prepare_attachment(&bytes, &mime_type, auto_resize) {
            Some((image, dims)) => {
                let sent = match &image {
                    ContentBlock::Image(i) => i.mime_type.clone(),
                    _ => mime_type.clone(),
                };
                let mut note = format!("Read image file [{sent}]");
                if let Some(dims) = dims {
                    note.push('\n');
                    note.push_str(&dims);
                }
                vec![ContentBlock::text(note), image]
            }
            None => vec![ContentBlock::text(format!(
                "Read image file [{mime_type}]\n[Image omitted: could not be resized below the inline image size limit.]"
            ))],
        };
        return Ok(ToolOutput {
            content,
            details: None,
            terminate: false,
        });
    }
    if looks_binary(&bytes) {
        return Err(ToolError::new(format!(
            "Cannot read binary file: {} ({}). The read tool only supports text files and \
             images (jpg, png, gif, webp). Use bash to inspect binary files (e.g. `file`, `xxd | head`).",
            absolute.display(),
            format_size(bytes.len())
        )));
    }

    let (text, lossy) = match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    let mut output = select_lines(&text, request)?;
    if cut {
        output.text.push_str(&format!(
            "\n\n[Only the first {} MiB of the file were read; use bash to look further.]",
            MAX_READ_BYTES / (1024 * 1024)
        ));
    }
    if lossy {
        output.text.push_str(
            "\n\n[File is not valid UTF-8: invalid byte sequences are shown as \u{FFFD}.]",
        );
    }
    Ok(ToolOutput {
        content: vec![ContentBlock::text(output.text)],
        details: output.details,
        terminate: false,
    })
}

/// Text and details of a text read.
struct TextRead {
    text: String,
    details: Option<Value>,
}

/// Apply offset, limit and head truncation, and add continuation notices.
fn select_lines(text: &str, request: &ReadRequest<'_>) -> Result<TextRead, ToolError> {
    let all_lines: Vec<&str> = text.split('\n').collect();
    let total = all_lines.len();
    let start = match request.offset {
        Some(offset) if offset.trunc() != 0.0 => (offset.trunc() - 1.0).max(0.0) as usize,
        _ => 0,
    };
    if start >= total {
        let offset = request.offset.unwrap_or(0.0);
        return Err(ToolError::new(format!(
            "Offset {} is beyond end of file ({total} lines total)",
            js_number(offset)
        )));
    }
    let start_display = start + 1;

    let (selected, user_limited) = match request.limit {
        Some(limit) => {
            let limit = limit.trunc().max(0.0) as usize;
            let end = start.saturating_add(limit).min(total);
            (all_lines[start..end].join("\n"), Some(end - start))
        }
        None => (all_lines[start..].join("\n"), None),
    };

    let truncation = truncate_head(&selected, TruncationLimits::default());
    let max = format_size(DEFAULT_MAX_BYTES);
    if truncation.first_line_exceeds_limit {
        let line_size = format_size(all_lines[start].len());
        let text = format!(
            "[Line {start_display} is {line_size}, exceeds {max} limit. Use bash: sed -n '{start_display}p' {} | head -c {DEFAULT_MAX_BYTES}]",
            request.path
        );
        return Ok(TextRead {
            text,
            details: Some(json!({ "truncation": truncation })),
        });
    }
    if truncation.truncated {
        let end_display = start_display + truncation.output_lines - 1;
        let next = end_display + 1;
        let notice = match truncation.truncated_by {
            Some(TruncatedBy::Lines) => format!(
                "[Showing lines {start_display}-{end_display} of {total}. Use offset={next} to continue.]"
            ),
            _ => format!(
                "[Showing lines {start_display}-{end_display} of {total} ({max} limit). Use offset={next} to continue.]"
            ),
        };
        let text = format!("{}\n\n{notice}", truncation.content);
        return Ok(TextRead {
            text,
            details: Some(json!({ "truncation": truncation })),
        });
    }
    if let Some(count) = user_limited
        && start + count < total
    {
        let remaining = total - (start + count);
        let next = start + count + 1;
        return Ok(TextRead {
            text: format!(
                "{}\n\n[{remaining} more lines in file. Use offset={next} to continue.]",
                truncation.content
            ),
            details: None,
        });
    }
    Ok(TextRead {
        text: truncation.content,
        details: None,
    })
}
