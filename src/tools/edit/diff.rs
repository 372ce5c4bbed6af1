//! The numbered line diff shown for edits: `+N text`, `-N text`, ` N text`,
//! with up to four context lines around changes and ` ...` for gaps.

use std::time::Duration;

use similar::{Algorithm, DiffOp, TextDiff};

/// Context lines shown before and after each change.
pub const DEFAULT_CONTEXT_LINES: usize = 4;

/// A rendered diff and the first changed line in the new content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditDiff {
    /// The diff text, lines joined with `\n`.
    pub diff: String,
    /// 1-based line in the new content of the first change.
    pub first_changed_line: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartKind {
    Equal,
    Removed,
    Added,
}

/// A run of lines of one kind.
struct Part<'a> {
    kind: PartKind,
    lines: Vec<&'a str>,
}

/// Line-level diff as runs of equal, removed and added lines (removals
/// before additions when both occur at one place).
fn diff_parts<'a>(old: &'a str, new: &'a str) -> Vec<Part<'a>> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(Duration::from_secs(2))
        .diff_lines(old, new);
    let old_lines = diff.old_slices();
    let new_lines = diff.new_slices();
    let mut parts: Vec<Part<'a>> = Vec::new();
    let mut push = |kind: PartKind, lines: &[&'a str]| {
        if lines.is_empty() {
            return;
        }
        let stripped = lines.iter().map(|l| l.strip_suffix('\n').unwrap_or(l));
        match parts.last_mut() {
            Some(last) if last.kind == kind => last.lines.extend(stripped),
            _ => parts.push(Part {
                kind,
                lines: stripped.collect(),
            }),
        }
    };
    for op in diff.ops() {
        match *op {
            DiffOp::Equal { old_index, len, .. } => {
                push(PartKind::Equal, &old_lines[old_index..old_index + len]);
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => push(
                PartKind::Removed,
                &old_lines[old_index..old_index + old_len],
            ),
            DiffOp::Insert {
                new_index, new_len, ..
            } => push(PartKind::Added, &new_lines[new_index..new_index + new_len]),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                push(
                    PartKind::Removed,
                    &old_lines[old_index..old_index + old_len],
                );
                push(PartKind::Added, &new_lines[new_index..new_index + new_len]);
            }
        }
    }
    parts
}

/// Writes numbered diff lines.
struct DiffWriter {
    output: Vec<String>,
    width: usize,
    old_line: usize,
    new_line: usize,
}

impl DiffWriter {
    fn changed(&mut self, kind: PartKind, line: &str) {
        let (sign, number) = if kind == PartKind::Added {
            self.new_line += 1;
            ('+', self.new_line - 1)
        } else {
            self.old_line += 1;
            ('-', self.old_line - 1)
        };
        self.output
            .push(format!("{sign}{number:>width$} {line}", width = self.width));
    }

    fn context(&mut self, lines: &[&str]) {
        for line in lines {
            self.output.push(format!(
                " {:>width$} {line}",
                self.old_line,
                width = self.width
            ));
            self.old_line += 1;
            self.new_line += 1;
        }
    }

    fn skip(&mut self, count: usize) {
        self.output
            .push(format!(" {:>width$} ...", "", width = self.width));
        self.old_line += count;
        self.new_line += count;
    }
}

/// Render the diff between `old` and `new` with `context` lines of context.
pub fn generate_diff(old: &str, new: &str, context: usize) -> EditDiff {
    let parts = diff_parts(old, new);
    let max_line = old.split('\n').count().max(new.split('\n').count());
    let mut writer = DiffWriter {
        output: Vec::new(),
        width: max_line.to_string().len(),
        old_line: 1,
        new_line: 1,
    };
    let mut first_changed_line = None;
    let mut last_was_change = false;

    for (i, part) in parts.iter().enumerate() {
        if part.kind != PartKind::Equal {
            first_changed_line.get_or_insert(writer.new_line);
            for line in &part.lines {
                writer.changed(part.kind, line);
            }
            last_was_change = true;
            continue;
        }
        let lines = &part.lines;
        let next_is_change = parts
            .get(i + 1)
            .is_some_and(|next| next.kind != PartKind::Equal);
        match (last_was_change, next_is_change) {
            (true, true) if lines.len() <= context * 2 => writer.context(lines),
            (true, true) => {
                writer.context(&lines[..context]);
                writer.skip(lines.len() - 2 * context);
                writer.context(&lines[lines.len() - context..]);
            }
            (true, false) => {
                let shown = lines.len().min(context);
                writer.context(&lines[..shown]);
                if lines.len() > shown {
                    writer.skip(lines.len() - shown);
                }
            }
            (false, true) => {
                let skipped = lines.len().saturating_sub(context);
                if skipped > 0 {
                    writer.skip(skipped);
                }
                writer.context(&lines[skipped..]);
            }
            (false, false) => {
                writer.old_line += lines.len();
                writer.new_line += lines.len();
            }
        }
        last_was_change = false;
    }

    EditDiff {
        diff: writer.output.join("\n"),
        first_changed_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_line_change_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let new = "a\nb\nc\nd\ne\nF\ng\nh\ni\nj\n";
        let d = generate_diff(old, new, 4);
        assert_eq!(d.first_changed_line, Some(6));
        let expected = [
            "    ...", "  2 b", "  3 c", "  4 d", "  5 e", "- 6 f", "+ 6 F", "  7 g", "  8 h",
            "  9 i", " 10 j",
        ]
        .join("\n");
        assert_eq!(d.diff, expected);
    }

    #[test]
    fn long_equal_run_between_changes_is_elided() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old
            .replace("1\n2\n", "one\n2\n")
            .replace("20\n", "twenty\n");
        let d = generate_diff(&old, &new, 2);
        let lines: Vec<&str> = d.diff.lines().collect();
        assert_eq!(lines[0], "- 1 1");
        assert_eq!(lines[1], "+ 1 one");
        assert_eq!(lines[2], "  2 2");
        assert_eq!(lines[3], "  3 3");
        assert_eq!(lines[4], "    ...");
        assert_eq!(lines[5], " 18 18");
        assert_eq!(lines[6], " 19 19");
        assert_eq!(lines[7], "-20 20");
        assert_eq!(lines[8], "+20 twenty");
        assert_eq!(d.first_changed_line, Some(1));
    }

    #[test]
    fn pure_insertion_numbers_new_lines() {
        let d = generate_diff("a\nb\n", "a\nx\nb\n", 4);
        assert_eq!(d.diff, " 1 a\n+2 x\n 2 b");
        assert_eq!(d.first_changed_line, Some(2));
    }
}
