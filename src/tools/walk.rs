//! Directory walking shared by `grep` and `find`: ignore files respected,
//! hidden files included, `.git` directories skipped, walked in parallel on
//! every core. Results come out in a stable order all the same: the order of a
//! depth-first walk with names sorted, which is `Path`'s own ordering, and a
//! result limit keeps the first ones in that order (see [`Earliest`]).

use std::collections::BinaryHeap;
use std::path::Path;
use std::sync::Mutex;

use ignore::overrides::Override;
use ignore::{DirEntry, WalkBuilder, WalkState};
use tokio_util::sync::CancellationToken;

/// Which ignore files apply besides the usual `.gitignore`/`.ignore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkOptions<'a> {
    /// Apply `.gitignore` files even outside a git repository.
    pub gitignore_without_repo: bool,
    /// An extra per-directory ignore file name (e.g. `.fdignore`).
    pub custom_ignore_file: Option<&'a str>,
}

/// A walker over `root` configured as described in the module docs.
pub fn build_walker(
    root: &Path,
    options: WalkOptions<'_>,
    overrides: Option<Override>,
) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .require_git(!options.gitignore_without_repo)
        .follow_links(false)
        .filter_entry(|entry| {
            let is_git_dir =
                entry.file_name() == ".git" && entry.file_type().is_some_and(|t| t.is_dir());
            !is_git_dir
        });
    if let Some(name) = options.custom_ignore_file {
        builder.add_custom_ignore_filename(name);
    }
    if let Some(overrides) = overrides {
        builder.overrides(overrides);
    }
    builder
}

/// Something found by a walk, ordered by where the walk meets it.
pub trait WalkOrdered: Ord + Send {
    /// The path the item was found at.
    fn path(&self) -> &Path;
}

/// The first `limit` items of a walk in walk order, collected from many
/// threads. Once `limit` items are held, anything that sorts after the last of
/// them can be skipped, and so can whole directories (everything below a
/// directory sorts after it): that is how a limited search stops early.
pub struct Earliest<T: WalkOrdered> {
    limit: usize,
    held: Mutex<BinaryHeap<T>>,
}

impl<T: WalkOrdered> Earliest<T> {
    /// An empty collection keeping at most `limit` items (at least one).
    pub fn new(limit: usize) -> Self {
        Earliest {
            limit: limit.max(1),
            held: Mutex::new(BinaryHeap::new()),
        }
    }

    /// Whether something found at `path` could still be among the first `limit`.
    pub fn admits(&self, path: &Path) -> bool {
        let held = self.lock();
        held.len() < self.limit || held.peek().is_none_or(|last| path <= last.path())
    }

    /// Offer items; only the first `limit` of everything offered are kept.
    pub fn offer(&self, items: impl IntoIterator<Item = T>) {
        let mut held = self.lock();
        for item in items {
            if held.len() >= self.limit && held.peek().is_some_and(|last| item >= *last) {
                continue;
            }
            held.push(item);
            if held.len() > self.limit {
                held.pop();
            }
        }
    }

    /// The items kept, in walk order.
    pub fn into_sorted(self) -> Vec<T> {
        let held = self.held.into_inner().unwrap_or_else(|e| e.into_inner());
        held.into_sorted_vec()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BinaryHeap<T>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Walk `builder` on all cores, calling a visitor for every entry below the
/// root (not the root itself) that `earliest` still admits; directories it no
/// longer admits are not entered. `visitor` makes one visitor per thread.
/// Returns `false` when `signal` stopped the walk.
pub fn walk_parallel<'s, T, F, V>(
    builder: &WalkBuilder,
    earliest: &'s Earliest<T>,
    signal: &'s CancellationToken,
    visitor: F,
) -> bool
where
    T: WalkOrdered,
    F: Fn() -> V,
    V: FnMut(&DirEntry) + Send + 's,
{
    builder.build_parallel().run(|| {
        let mut visit = visitor();
        Box::new(move |entry| {
            if signal.is_cancelled() {
                return WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if entry.depth() == 0 {
                return WalkState::Continue;
            }
            if !earliest.admits(entry.path()) {
                return WalkState::Skip;
            }
            visit(&entry);
            WalkState::Continue
        })
    });
    !signal.is_cancelled()
}

/// `path` relative to `root`, with `/` separators.
pub fn relative_slash_path(path: &Path, root: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[derive(PartialEq, Eq, PartialOrd, Ord, Debug)]
    struct Found(PathBuf);

    impl WalkOrdered for Found {
        fn path(&self) -> &Path {
            &self.0
        }
    }

    #[test]
    fn earliest_keeps_the_first_in_walk_order_whatever_the_offer_order() {
        let earliest = Earliest::new(3);
        for p in ["r/b.txt", "r/a/z.txt", "r/a.b", "r/a/y.txt", "r/c"] {
            earliest.offer([Found(PathBuf::from(p))]);
        }
        let kept: Vec<_> = earliest.into_sorted().into_iter().map(|f| f.0).collect();
        // Depth first with names sorted: the folder `a` comes before `a.b`.
        assert_eq!(kept, ["r/a/y.txt", "r/a/z.txt", "r/a.b"].map(PathBuf::from));
    }

    #[test]
    fn earliest_admits_only_what_could_still_be_kept() {
        let earliest = Earliest::new(2);
        assert!(earliest.admits(Path::new("r/z")));
        earliest.offer([Found("r/b".into()), Found("r/c".into())]);
        assert!(earliest.admits(Path::new("r/a/deep")));
        assert!(earliest.admits(Path::new("r/c")));
        assert!(!earliest.admits(Path::new("r/c/below")));
        assert!(!earliest.admits(Path::new("r/d")));
    }
}
