//! Which `ctx.ui.custom` component has the keyboard, and which overlay is drawn on
//! top. A capturing component takes the keyboard when shown; a non-capturing overlay
//! (`nonCapturing = true`) only when its handle's `focus()` asks. Each component
//! remembers what had the keyboard before it, and when it lets go (closed, hidden,
//! `unfocus()`) the keyboard goes to the topmost visible capturing component, or back
//! to what it had before. Focusing an overlay also raises it above the others.

use crate::lua::ui::surfaces::{CustomSurface, OverlayOptions, Surfaces};

impl CustomSurface {
    /// Takes the keyboard when shown (inline customs and overlays without `nonCapturing`).
    pub fn capturing(&self) -> bool {
        self.overlay.as_ref().is_none_or(|o| !o.non_capturing)
    }

    /// Drawn now: not hidden by its handle and not turned off by `visible()`.
    pub fn visible(&self) -> bool {
        !self.hidden && self.shown
    }
}

impl Surfaces {
    /// Show `custom` above the others; a visible capturing one takes the keyboard.
    pub fn show(&mut self, mut custom: CustomSurface) {
        custom.pre_focus = self.focus;
        custom.focus_order = self.next_order();
        let takes_focus = custom.capturing() && custom.visible();
        let id = custom.id;
        self.customs.push(custom);
        if takes_focus {
            self.focus = Some(id);
        }
    }

    /// Remove `id` for good (`done(value)`, the handle's `hide()`); if it had the
    /// keyboard, the keyboard goes on. `false` when it was not shown.
    pub fn hide(&mut self, id: u64) -> bool {
        let Some(index) = self.customs.iter().position(|c| c.id == id) else {
            return false;
        };
        let entry = self.customs.remove(index);
        if self.focus == Some(id) {
            self.focus = self.fallback(&entry);
        }
        true
    }

    /// Hide `id` for now, or show it again (the handle's `setHidden`). Shown again, a
    /// capturing overlay takes the keyboard and comes to the top.
    pub fn set_hidden(&mut self, id: u64, hidden: bool) {
        let Some(index) = self.customs.iter().position(|c| c.id == id) else {
            return;
        };
        if self.customs[index].hidden == hidden {
            return;
        }
        self.customs[index].hidden = hidden;
        if hidden {
            if self.focus == Some(id) {
                let entry = self.customs[index].clone();
                self.focus = self.fallback(&entry);
            }
        } else if self.customs[index].capturing() && self.customs[index].visible() {
            self.customs[index].focus_order = self.next_order();
            self.focus = Some(id);
        }
    }

    /// Give `id` the keyboard and draw it on top (the handle's `focus()`); nothing
    /// when it is hidden or gone.
    pub fn focus_custom(&mut self, id: u64) {
        if !self.customs.iter().any(|c| c.id == id && c.visible()) {
            return;
        }
        self.focus = Some(id);
        let order = self.next_order();
        if let Some(c) = self.customs.iter_mut().find(|c| c.id == id) {
            c.focus_order = order;
        }
    }

    /// Let go of the keyboard (the handle's `unfocus()`): to the topmost visible
    /// capturing component other than `id`, else to what had it before. Nothing when
    /// `id` does not have it. The drawing order stays.
    pub fn unfocus(&mut self, id: u64) {
        if self.focus != Some(id) {
            return;
        }
        let pre_focus = self
            .customs
            .iter()
            .find(|c| c.id == id)
            .map(|c| c.pre_focus);
        self.focus = match self.top_capturing() {
            Some(top) if top != id => Some(top),
            _ => self.still_there(pre_focus.flatten()),
        };
    }

    /// Whether `id` has the keyboard (the handle's `isFocused()`).
    pub fn is_focused(&self, id: u64) -> bool {
        self.focus == Some(id)
    }

    /// The component that gets the next key (`None`: the editor). A focused overlay
    /// that is no longer visible passes the keyboard on first, as a key arrives.
    pub fn focused(&self) -> Option<u64> {
        let focus = self.focus?;
        match self.customs.iter().find(|c| c.id == focus) {
            Some(entry) if !entry.visible() => self.fallback(entry),
            Some(_) => Some(focus),
            // Gone without letting go (cannot happen through the handle functions).
            None => self.top_capturing(),
        }
    }

    /// The component a key goes to now, settling a pending hand-over for good.
    pub fn key_target(&mut self) -> Option<u64> {
        self.focus = self.focused();
        self.focus
    }

    /// Record the overlay's latest `visible(width, height)`; `true` when it changed.
    pub fn set_shown(&mut self, id: u64, shown: bool) -> bool {
        match self.customs.iter_mut().find(|c| c.id == id) {
            Some(c) if c.shown != shown => {
                c.shown = shown;
                true
            }
            _ => false,
        }
    }

    /// The newest custom shown in place of the editor.
    pub fn inline(&self) -> Option<&CustomSurface> {
        self.customs.iter().rev().find(|c| c.overlay.is_none())
    }

    /// Visible overlays in drawing order, bottom first.
    pub fn overlays(&self) -> impl Iterator<Item = (&OverlayOptions, &Vec<String>)> {
        let mut shown: Vec<&CustomSurface> = self
            .customs
            .iter()
            .filter(|c| c.overlay.is_some() && c.visible())
            .collect();
        shown.sort_by_key(|c| c.focus_order);
        shown
            .into_iter()
            .filter_map(|c| c.overlay.as_ref().map(|o| (o, &c.lines)))
    }

    /// Where the keyboard goes when `entry` is closed or hidden: the topmost visible
    /// capturing component, else what had it before `entry` was shown.
    fn fallback(&self, entry: &CustomSurface) -> Option<u64> {
        self.top_capturing()
            .or_else(|| self.still_there(entry.pre_focus))
    }

    /// `target` when it is still shown (a closed component falls back to the editor).
    fn still_there(&self, target: Option<u64>) -> Option<u64> {
        target.filter(|p| self.customs.iter().any(|c| c.id == *p))
    }

    /// The topmost visible capturing component.
    fn top_capturing(&self) -> Option<u64> {
        self.customs
            .iter()
            .rev()
            .find(|c| c.capturing() && c.visible())
            .map(|c| c.id)
    }

    fn next_order(&mut self) -> u64 {
        self.focus_counter += 1;
        self.focus_counter
    }
}
