//! One render of a Lua component, checked: the lines must be strings no
//! wider than the width, and the call must finish within the budget.
//! Anything else becomes a one-line error box naming the extension.
//!
//! The budget counts the CPU time the render spends on the extension thread,
//! so a machine busy with other work does not switch a component off; a render
//! that blocks without using the CPU is caught by a wall-clock limit four times
//! as long.

use std::time::{Duration, Instant};

use mlua::{Function, Table, Value as LuaValue};

use crate::ui_kit::text;

/// The most CPU time a component's `render` may use.
pub const RENDER_BUDGET: Duration = Duration::from_millis(50);

/// The longest a `render` may take by the clock, waiting included.
const RENDER_WALL_LIMIT: Duration = Duration::from_millis(200);

/// CPU time this thread has used so far.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// What one render produced.
#[derive(Debug, Default)]
pub struct Rendered {
    /// Lines to show (the error box on failure).
    pub lines: Vec<String>,
    /// The call took longer than [`RENDER_BUDGET`].
    pub overran: bool,
    /// Some line was wider than the width and was cut.
    pub too_wide: bool,
}

/// A one-line red box naming `extension` and the problem.
pub fn error_box(extension: &str, message: &str, width: usize) -> String {
    let first = message.lines().next().unwrap_or("");
    let text = format!("⚠ {extension}: {first}");
    format!(
        "\x1b[31m{}\x1b[39m",
        text::truncate(&text, width.max(1), "…")
    )
}

/// Call `component.render(width)` and check what it returned.
pub fn render_component(component: &Table, width: usize, extension: &str) -> Rendered {
    let started = Instant::now();
    let cpu_before = thread_cpu_time();
    let result = component
        .get::<Function>("render")
        .and_then(|f| f.call::<LuaValue>(width));
    let cpu = thread_cpu_time().saturating_sub(cpu_before);
    let wall = started.elapsed();
    let elapsed = if wall > RENDER_WALL_LIMIT { wall } else { cpu };
    let fail = |message: String| Rendered {
        lines: vec![error_box(extension, &message, width)],
        overran: false,
        too_wide: false,
    };
    if cpu > RENDER_BUDGET || wall > RENDER_WALL_LIMIT {
        return Rendered {
            overran: true,
            ..fail(format!(
                "render took {} ms > {} ms budget; no longer drawn",
                elapsed.as_millis(),
                RENDER_BUDGET.as_millis()
            ))
        };
    }
    let table = match result {
        Ok(LuaValue::Table(t)) => t,
        Ok(other) => {
            return fail(format!(
                "render returned {}, not a table of strings",
                other.type_name()
            ));
        }
        Err(e) => return fail(format!("render failed: {e}")),
    };
    let mut out = Rendered::default();
    for (index, value) in table.sequence_values::<LuaValue>().enumerate() {
        let line = match value {
            Ok(LuaValue::String(s)) => s.to_string_lossy(),
            Ok(other) => {
                return fail(format!(
                    "lines[{}] is not a string (got {})",
                    index + 1,
                    other.type_name()
                ));
            }
            Err(e) => return fail(format!("render failed: {e}")),
        };
        if text::width(&line) > width {
            out.too_wide = true;
            out.lines.push(text::truncate(&line, width, ""));
        } else {
            out.lines.push(line);
        }
    }
    out
}
