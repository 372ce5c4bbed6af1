//! The branch lines (`├─ `, `└─ `, `│  `) of the rows `/tree` shows, computed
//! over the tree the shown rows form: a row hidden by a filter, a search or a
//! fold passes its children up to its nearest shown ancestor, so connectors
//! and indentation follow what is on screen, not the full session tree.

use crate::tui::panels::tree_rows::TreeRow;

/// A `│` column continued below a branch: where it is drawn, and whether a
/// later sibling still follows (else the column is blank).
#[derive(Debug, Clone, Copy)]
struct Gutter {
    level: usize,
    show: bool,
}

/// How one shown row is drawn.
#[derive(Debug, Clone, Default)]
struct Layout {
    indent: usize,
    connector: bool,
    last: bool,
    gutters: Vec<Gutter>,
    /// A top-level row when there are several: drawn without a connector.
    top_level: bool,
}

/// For each position of `visible` (indexes into `rows`, in depth-first
/// order), the position of its nearest shown ancestor.
fn visible_parents(rows: &[TreeRow], visible: &[usize]) -> Vec<Option<usize>> {
    let mut open: Vec<usize> = Vec::new();
    let mut parents = Vec::with_capacity(visible.len());
    for (pos, &row) in visible.iter().enumerate() {
        // A row's subtree holds exactly the rows up to its `subtree_end`.
        while open
            .last()
            .is_some_and(|&p| rows[visible[p]].subtree_end <= row)
        {
            open.pop();
        }
        parents.push(open.last().copied());
        open.push(pos);
    }
    parents
}

/// The branch lines before each shown row's text, one string per position of
/// `visible`. A row with several shown children starts a branch: each child
/// gets a connector and the levels below keep a `│` while a sibling follows.
/// A single child continues at its parent's level, except right after a
/// branch, where it moves one level in under its connector.
pub fn visible_guides(rows: &[TreeRow], visible: &[usize]) -> Vec<String> {
    let parents = visible_parents(rows, visible);
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); visible.len()];
    let mut roots = Vec::new();
    for (pos, parent) in parents.iter().enumerate() {
        match parent {
            Some(p) => children[*p].push(pos),
            None => roots.push(pos),
        }
    }
    let several_roots = roots.len() > 1;
    let mut layouts = vec![Layout::default(); visible.len()];
    // (position, its layout, whether it is the first row after a branch)
    let mut stack: Vec<(usize, Layout, bool)> = roots
        .iter()
        .enumerate()
        .rev()
        .map(|(i, &pos)| {
            let layout = Layout {
                indent: usize::from(several_roots),
                connector: several_roots,
                last: i + 1 == roots.len(),
                gutters: Vec::new(),
                top_level: several_roots,
            };
            (pos, layout, several_roots)
        })
        .collect();
    while let Some((pos, layout, just_branched)) = stack.pop() {
        let kids = &children[pos];
        let branches = kids.len() > 1;
        let child_indent = if branches || (just_branched && layout.indent > 0) {
            layout.indent + 1
        } else {
            layout.indent
        };
        let mut child_gutters = layout.gutters.clone();
        if layout.connector && !layout.top_level {
            child_gutters.push(Gutter {
                level: display_indent(layout.indent, several_roots).saturating_sub(1),
                show: !layout.last,
            });
        }
        for (i, &kid) in kids.iter().enumerate().rev() {
            let child = Layout {
                indent: child_indent,
                connector: branches,
                last: i + 1 == kids.len(),
                gutters: child_gutters.clone(),
                top_level: false,
            };
            stack.push((kid, child, branches));
        }
        layouts[pos] = layout;
    }
    layouts.iter().map(|l| draw(l, several_roots)).collect()
}

/// Levels drawn: with several top-level rows, they sit at level 0.
fn display_indent(indent: usize, several_roots: bool) -> usize {
    if several_roots {
        indent.saturating_sub(1)
    } else {
        indent
    }
}

fn draw(layout: &Layout, several_roots: bool) -> String {
    let display = display_indent(layout.indent, several_roots);
    let connector_level = (layout.connector && !layout.top_level)
        .then(|| display.checked_sub(1))
        .flatten();
    let mut out = String::new();
    for level in 0..display {
        let piece = match layout.gutters.iter().find(|g| g.level == level) {
            Some(g) if g.show => "│  ",
            Some(_) => "   ",
            None if connector_level == Some(level) => {
                if layout.last {
                    "└─ "
                } else {
                    "├─ "
                }
            }
            None => "   ",
        };
        out.push_str(piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::panels::tree_rows::RowKind;

    /// Rows of a tree given as (id, parent) pairs in depth-first order.
    fn rows(tree: &[(&str, Option<&str>)]) -> Vec<TreeRow> {
        let mut out: Vec<TreeRow> = tree
            .iter()
            .map(|(id, _)| TreeRow {
                id: id.to_string(),
                depth: 0,
                text: id.to_string(),
                kind: RowKind::User,
                paint: Default::default(),
                label: None,
                label_time: None,
                on_path: false,
                subtree_end: 0,
                quiet: false,
                files: 0,
            })
            .collect();
        // A row's subtree ends at the first later row that is not its descendant.
        let ancestors = |mut i: usize| {
            let mut chain = vec![i];
            while let Some(parent) = tree[i].1 {
                i = tree.iter().position(|(id, _)| *id == parent).unwrap();
                chain.push(i);
            }
            chain
        };
        for (i, row) in out.iter_mut().enumerate() {
            row.subtree_end = (i + 1..tree.len())
                .find(|&j| !ancestors(j).contains(&i))
                .unwrap_or(tree.len());
        }
        out
    }

    /// hello → hi → {B → doing B → {other B, more B → done B}, A → doing A → more A}
    const TREE: [(&str, Option<&str>); 10] = [
        ("hello", None),
        ("hi", Some("hello")),
        ("B", Some("hi")),
        ("doing B", Some("B")),
        ("other B", Some("doing B")),
        ("more B", Some("doing B")),
        ("done B", Some("more B")),
        ("A", Some("hi")),
        ("doing A", Some("A")),
        ("more A", Some("doing A")),
    ];

    fn guides_of(shown: &[&str]) -> Vec<(String, String)> {
        let rows = rows(&TREE);
        let visible: Vec<usize> = (0..rows.len())
            .filter(|&i| shown.contains(&rows[i].id.as_str()))
            .collect();
        let guides = visible_guides(&rows, &visible);
        visible
            .iter()
            .zip(guides)
            .map(|(&i, g)| (g, rows[i].id.clone()))
            .collect()
    }

    fn lines(guides: Vec<(String, String)>) -> Vec<String> {
        guides.into_iter().map(|(g, id)| g + &id).collect()
    }

    #[test]
    fn every_row_shown_draws_the_branches_and_indents_after_them() {
        let all: Vec<&str> = TREE.iter().map(|(id, _)| *id).collect();
        assert_eq!(
            lines(guides_of(&all)),
            [
                "hello",
                "hi",
                "├─ B",
                "│     doing B",
                "│     ├─ other B",
                "│     └─ more B",
                "│           done B",
                "└─ A",
                "      doing A",
                "      more A",
            ]
        );
    }

    #[test]
    fn hidden_rows_pass_their_children_to_the_nearest_shown_ancestor() {
        // Only the user messages: "hi" and "doing B" are hidden, so B and A
        // hang off "hello", and "other B" and "more B" off B.
        assert_eq!(
            lines(guides_of(&[
                "hello", "B", "other B", "more B", "A", "more A"
            ])),
            [
                "hello",
                "├─ B",
                "│  ├─ other B",
                "│  └─ more B",
                "└─ A",
                "      more A",
            ]
        );
        // The branch point's children hidden: no connector is left dangling.
        assert_eq!(
            lines(guides_of(&["hello", "hi", "A", "doing A"])),
            ["hello", "hi", "A", "doing A"]
        );
    }

    #[test]
    fn several_shown_tops_sit_at_the_left_edge() {
        // Only rows of separate branches shown: both are tops, drawn without connectors.
        assert_eq!(
            lines(guides_of(&["other B", "done B", "more A"])),
            ["other B", "done B", "more A"]
        );
        assert!(visible_guides(&rows(&TREE), &[]).is_empty());
    }
}
