//! Large pastes: the store behind `[paste #n +N lines]` / `[paste #n N chars]` markers,
//! finding markers in a line (a marker whose id is in the store is one atom for the
//! cursor), expanding them for sending, and carrying pasted text along with killed or
//! remembered text so that it can be put back into another prompt.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

/// Pastes longer than this many lines are collapsed to a marker.
pub const PASTE_MAX_LINES: usize = 10;
/// Pastes longer than this many characters are collapsed to a marker.
pub const PASTE_MAX_CHARS: usize = 1000;

const PREFIX: &str = "[paste #";

/// The pasted texts of one prompt, by marker id.
#[derive(Debug, Clone, Default)]
pub struct Pastes {
    items: BTreeMap<u32, Arc<str>>,
    counter: u32,
}

/// Text together with the pasted texts its markers stand for (a kill ring or history
/// entry), so the markers still work when it is put back after the prompt was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    /// The text, markers unexpanded.
    pub text: String,
    /// `(id, content)` of every known paste the text refers to.
    pub pastes: Vec<(u32, Arc<str>)>,
}

impl Carried {
    /// Text that refers to no paste.
    pub fn plain(text: &str) -> Carried {
        Carried {
            text: text.to_string(),
            pastes: Vec::new(),
        }
    }
}

/// Whether a paste of `text` (already cleaned) is collapsed to a marker.
pub fn is_large(text: &str) -> bool {
    text.split('\n').count() > PASTE_MAX_LINES || text.chars().count() > PASTE_MAX_CHARS
}

/// The marker shown for paste `id` of `content`.
pub fn marker_text(id: u32, content: &str) -> String {
    let lines = content.split('\n').count();
    if lines > PASTE_MAX_LINES {
        format!("[paste #{id} +{lines} lines]")
    } else {
        format!("[paste #{id} {} chars]", content.chars().count())
    }
}

impl Pastes {
    /// Keep `content` under a new id and return the id.
    pub fn add(&mut self, content: &str) -> u32 {
        self.add_shared(Arc::from(content))
    }

    fn add_shared(&mut self, content: Arc<str>) -> u32 {
        self.counter += 1;
        self.items.insert(self.counter, content);
        self.counter
    }

    /// The content of paste `id`.
    pub fn get(&self, id: u32) -> Option<&Arc<str>> {
        self.items.get(&id)
    }

    /// Forget every paste and number from 1 again (after a prompt is sent).
    pub fn reset(&mut self) {
        self.items.clear();
        self.counter = 0;
    }

    /// The byte ranges of the well-formed markers in `line` whose id is known.
    pub fn atoms(&self, line: &str) -> Vec<Range<usize>> {
        if self.items.is_empty() || !line.contains(PREFIX) {
            return Vec::new();
        }
        let mut spans = Vec::new();
        let mut from = 0;
        while let Some(found) = line[from..].find(PREFIX) {
            let start = from + found;
            match whole_marker(&line[start..]) {
                Some((id, len)) if self.items.contains_key(&id) => {
                    spans.push(start..start + len);
                    from = start + len;
                }
                _ => from = start + PREFIX.len(),
            }
        }
        spans
    }

    /// `text` with every marker of a known paste replaced by its content. A marker that
    /// was damaged (its `[paste #n` start is left) is replaced too, with as much of its
    /// tail as is left, so pasted text is never sent as a broken marker.
    pub fn expand(&self, text: &str) -> String {
        if self.items.is_empty() || !text.contains(PREFIX) {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut from = 0;
        while let Some(found) = text[from..].find(PREFIX) {
            let start = from + found;
            out.push_str(&text[from..start]);
            match self.marker_span(&text[start..]) {
                Some((content, len)) => {
                    out.push_str(content);
                    from = start + len;
                }
                None => {
                    out.push_str(PREFIX);
                    from = start + PREFIX.len();
                }
            }
        }
        out.push_str(&text[from..]);
        out
    }

    /// At the start of `s` (which starts with `[paste #`): the content of the known paste
    /// named there and how many bytes its (possibly damaged) marker takes.
    fn marker_span<'a>(&'a self, s: &str) -> Option<(&'a str, usize)> {
        let (id, digits_end) = marker_id(s)?;
        let content = self.items.get(&id)?;
        if let Some((_, len)) = whole_marker(s) {
            return Some((content, len));
        }
        let canonical = marker_text(id, content);
        let tail = &canonical[digits_end..];
        let rest = &s[digits_end..];
        let mut len = digits_end
            + tail
                .char_indices()
                .zip(rest.chars())
                .take_while(|((_, a), b)| a == b)
                .map(|((_, a), _)| a.len_utf8())
                .sum::<usize>();
        if s[len..].starts_with(']') {
            len += 1;
        }
        Some((content, len))
    }

    /// `text` with the pastes its markers need, for keeping beyond this prompt.
    pub fn carry(&self, text: &str) -> Carried {
        let mut pastes: Vec<(u32, Arc<str>)> = Vec::new();
        let mut from = 0;
        while let Some(found) = text[from..].find(PREFIX) {
            let start = from + found;
            if let Some((id, _)) = marker_id(&text[start..])
                && let Some(content) = self.items.get(&id)
                && !pastes.iter().any(|(known, _)| *known == id)
            {
                pastes.push((id, content.clone()));
            }
            from = start + PREFIX.len();
        }
        Carried {
            text: text.to_string(),
            pastes,
        }
    }

    /// Make `carried`'s pastes known here and return its text with markers that work:
    /// a paste already known with the same content keeps its id, others get new ids.
    pub fn import(&mut self, carried: &Carried) -> String {
        if carried.pastes.is_empty() {
            return carried.text.clone();
        }
        let mut ids: BTreeMap<u32, u32> = BTreeMap::new();
        for (id, content) in &carried.pastes {
            let same = self
                .items
                .get(id)
                .is_some_and(|known| Arc::ptr_eq(known, content) || **known == **content);
            let new_id = if same {
                *id
            } else {
                self.add_shared(content.clone())
            };
            ids.insert(*id, new_id);
        }
        let text = &carried.text;
        let mut out = String::with_capacity(text.len());
        let mut from = 0;
        while let Some(found) = text[from..].find(PREFIX) {
            let start = from + found;
            out.push_str(&text[from..start]);
            match marker_id(&text[start..]).and_then(|(id, end)| Some((ids.get(&id)?, end))) {
                Some((new_id, digits_end)) => {
                    out.push_str(&format!("{PREFIX}{new_id}"));
                    from = start + digits_end;
                }
                None => {
                    out.push_str(PREFIX);
                    from = start + PREFIX.len();
                }
            }
        }
        out.push_str(&text[from..]);
        out
    }
}

/// The id after `[paste #` at the start of `s` and where its digits end.
fn marker_id(s: &str) -> Option<(u32, usize)> {
    let rest = s.strip_prefix(PREFIX)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let id = rest[..digits].parse().ok()?;
    Some((id, PREFIX.len() + digits))
}

/// A complete marker at the start of `s`: `[paste #n]`, `[paste #n +N lines]` or
/// `[paste #n N chars]`; its id and length.
fn whole_marker(s: &str) -> Option<(u32, usize)> {
    let (id, end) = marker_id(s)?;
    let rest = &s[end..];
    if rest.starts_with(']') {
        return Some((id, end + 1));
    }
    let body = rest.strip_prefix(' ')?;
    let (number, suffix) = match body.strip_prefix('+') {
        Some(after) => (after, " lines]"),
        None => (body, " chars]"),
    };
    let digits = number.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !number[digits..].starts_with(suffix) {
        return None;
    }
    Some((id, s.len() - number.len() + digits + suffix.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(content: &str) -> Pastes {
        let mut p = Pastes::default();
        p.add(content);
        p
    }

    #[test]
    fn markers_of_known_pastes_are_atoms_and_others_are_not() {
        let p = store("a\nb");
        let line = "x [paste #1 +20 lines] [paste #2 5 chars] [paste #1] [paste #1 +2 li";
        let spans: Vec<&str> = p.atoms(line).into_iter().map(|r| &line[r]).collect();
        assert_eq!(spans, vec!["[paste #1 +20 lines]", "[paste #1]"]);
    }

    #[test]
    fn damaged_markers_expand_with_what_is_left_of_their_tail() {
        let twenty = vec!["l"; 20].join("\n");
        let p = store(&twenty);
        for (text, want) in [
            ("[paste #1 +20 lines]", twenty.clone()),
            ("[paste #1 +20 lines", twenty.clone()),
            ("[paste #1 +2", twenty.clone()),
            ("[paste #1]!", format!("{twenty}!")),
            ("a [paste #1 +20 linesX", format!("a {twenty}X")),
            ("[paste #12 +20 lines]", "[paste #12 +20 lines]".to_string()),
            ("[paste #", "[paste #".to_string()),
        ] {
            assert_eq!(p.expand(text), want, "{text}");
        }
    }

    #[test]
    fn carried_text_is_imported_under_free_ids() {
        let p = store("one\n".repeat(12).as_str());
        let carried = p.carry("see [paste #1 +13 lines] and [paste #7 +1 lines]");
        assert_eq!(carried.pastes.len(), 1);
        let mut other = Pastes::default();
        other.add("different");
        let text = other.import(&carried);
        assert_eq!(text, "see [paste #2 +13 lines] and [paste #7 +1 lines]");
        assert_eq!(other.expand(&text).matches("one").count(), 12);
        // Imported into the store it came from, the id is kept.
        let mut same = p.clone();
        assert_eq!(same.import(&carried), carried.text);
    }
}
