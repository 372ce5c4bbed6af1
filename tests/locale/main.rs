//! Tests that switch the process-wide locale, apart from the main suite so that no other
//! test sees a language it did not ask for.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lua_i18n;
mod messages;
mod tui_panels;
mod tui_screens;
mod tui_width;
