//! The kill ring: text removed by the kill keys (Ctrl+W, Ctrl+U, Ctrl+K, Alt+D), newest
//! last. Kills in a row grow one entry (backward kills in front, forward kills behind);
//! yank puts back the newest and yank-pop cycles through older ones.

use super::paste::Carried;

/// Entries kept at most.
const LIMIT: usize = 60;

/// Killed text, each entry with the pastes its markers stand for.
#[derive(Debug, Clone, Default)]
pub struct KillRing {
    ring: Vec<Carried>,
}

impl KillRing {
    /// Add killed text; with `accumulate` it joins the newest entry, in front of it when
    /// `prepend` (a backward kill) or behind it.
    pub fn push(&mut self, killed: Carried, prepend: bool, accumulate: bool) {
        if killed.text.is_empty() {
            return;
        }
        match self.ring.last_mut() {
            Some(last) if accumulate => {
                let (front, back) = if prepend {
                    (killed, std::mem::replace(last, Carried::plain("")))
                } else {
                    (std::mem::replace(last, Carried::plain("")), killed)
                };
                let mut pastes = front.pastes;
                for paste in back.pastes {
                    if !pastes.iter().any(|(id, _)| *id == paste.0) {
                        pastes.push(paste);
                    }
                }
                *last = Carried {
                    text: front.text + &back.text,
                    pastes,
                };
            }
            _ => {
                self.ring.push(killed);
                if self.ring.len() > LIMIT {
                    self.ring.remove(0);
                }
            }
        }
    }

    /// The newest entry.
    pub fn peek(&self) -> Option<&Carried> {
        self.ring.last()
    }

    /// Move the newest entry to the front, making the one before it the newest.
    pub fn rotate(&mut self) {
        if self.ring.len() > 1
            && let Some(last) = self.ring.pop()
        {
            self.ring.insert(0, last);
        }
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.ring.len()
    }

    /// No entries.
    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulation_prepends_backward_and_appends_forward_kills() {
        let mut ring = KillRing::default();
        ring.push(Carried::plain("b"), false, false);
        ring.push(Carried::plain("a"), true, true);
        ring.push(Carried::plain("c"), false, true);
        ring.push(Carried::plain(""), false, false);
        assert_eq!(ring.len(), 1);
        ring.push(Carried::plain("x"), false, false);
        assert_eq!(ring.peek().unwrap().text, "x");
        ring.rotate();
        assert_eq!(ring.peek().unwrap().text, "abc");
    }
}
