//! The entries of `/settings`: where each is stored in `settings.json`, the values it
//! offers and how a value is shown and stored. The order is pi's.

use serde_json::Value;

use crate::config::settings::Settings;

/// How an entry's value is changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Enter or Space steps to the next value in place.
    Cycle,
    /// Enter opens a list of the values to choose from.
    Choose,
}

/// Where an entry is stored in `settings.json` and how its values look.
#[derive(Debug, Clone, Copy)]
pub struct SettingDef {
    /// Entry id (stable, used by the app). Its label and description are
    /// `pi.settings.<id>.label` and `pi.settings.<id>.description` in the locales.
    pub id: &'static str,
    /// `(section, key)`: `section` is `None` for top-level keys.
    pub key: (Option<&'static str>, &'static str),
    /// The values offered, in order; `true`/`false` are stored as booleans
    /// and digits as numbers.
    pub values: &'static [&'static str],
    /// Value when the key is unset.
    pub default: &'static str,
    /// Cycled in place or chosen from a list.
    pub change: Change,
}

const BOOL: &[&str] = &["true", "false"];

const fn toggle(
    id: &'static str,
    key: (Option<&'static str>, &'static str),
    default: &'static str,
) -> SettingDef {
    SettingDef {
        id,
        key,
        values: BOOL,
        default,
        change: Change::Cycle,
    }
}

const fn cycle(
    id: &'static str,
    key: (Option<&'static str>, &'static str),
    values: &'static [&'static str],
    default: &'static str,
) -> SettingDef {
    SettingDef {
        id,
        key,
        values,
        default,
        change: Change::Cycle,
    }
}

/// Every entry of `/settings`, in display order. `thinking` and `theme` get
/// their values from the app (levels of the model, installed themes).
pub const SETTINGS: &[SettingDef] = &[
    toggle("autocompact", (Some("compaction"), "enabled"), "true"),
    toggle("show-images", (Some("terminal"), "showImages"), "true"),
    cycle(
        "image-width-cells",
        (Some("terminal"), "imageWidthCells"),
        &["60", "80", "120"],
        "60",
    ),
    toggle("auto-resize-images", (Some("images"), "autoResize"), "true"),
    toggle("block-images", (Some("images"), "blockImages"), "false"),
    toggle("skill-commands", (None, "enableSkillCommands"), "true"),
    toggle(
        "show-hardware-cursor",
        (None, "showHardwareCursor"),
        "false",
    ),
    cycle(
        "editor-padding",
        (None, "editorPaddingX"),
        &["0", "1", "2", "3"],
        "0",
    ),
    cycle(
        "autocomplete-max-visible",
        (None, "autocompleteMaxVisible"),
        &["3", "5", "7", "10", "15", "20"],
        "5",
    ),
    toggle(
        "clear-on-shrink",
        (Some("terminal"), "clearOnShrink"),
        "false",
    ),
    toggle(
        "terminal-progress",
        (Some("terminal"), "showTerminalProgress"),
        "false",
    ),
    cycle(
        "steering-mode",
        (None, "steeringMode"),
        &["one-at-a-time", "all"],
        "one-at-a-time",
    ),
    cycle(
        "follow-up-mode",
        (None, "followUpMode"),
        &["one-at-a-time", "all"],
        "one-at-a-time",
    ),
    toggle("hide-thinking", (None, "hideThinkingBlock"), "false"),
    toggle("collapse-changelog", (None, "collapseChangelog"), "false"),
    toggle("quiet-startup", (None, "quietStartup"), "false"),
    cycle(
        "double-escape-action",
        (None, "doubleEscapeAction"),
        &["tree", "fork", "rewind", "none"],
        "tree",
    ),
    cycle(
        "tree-filter-mode",
        (None, "treeFilterMode"),
        &["default", "no-tools", "user-only", "labeled-only", "all"],
        "default",
    ),
    toggle(
        "anthropic-extra-usage",
        (Some("warnings"), "anthropicExtraUsage"),
        "true",
    ),
    SettingDef {
        id: "thinking",
        key: (None, "defaultThinkingLevel"),
        values: &["off", "minimal", "low", "medium", "high", "xhigh"],
        default: "medium",
        change: Change::Choose,
    },
    SettingDef {
        id: "theme",
        key: (None, "theme"),
        values: &["dark", "light"],
        default: "dark",
        change: Change::Choose,
    },
];

impl SettingDef {
    /// The label shown in the list, in the current locale.
    pub fn label(&self) -> String {
        crate::i18n::t(&format!("pi.settings.{}.label", self.id), &[])
    }

    /// The one-line explanation shown for the highlighted entry, in the current locale.
    pub fn description(&self) -> String {
        crate::i18n::t(&format!("pi.settings.{}.description", self.id), &[])
    }
}

/// A setting value as shown: its `pi.settings.value.<value>` text when the locales have
/// one (`true`, `one-at-a-time`, thinking levels, built-in themes), else the value itself
/// (numbers, theme names).
pub fn value_label(value: &str) -> String {
    let key = format!("pi.settings.value.{value}");
    let text = crate::i18n::t(&key, &[]);
    if text == key { value.to_string() } else { text }
}

/// The definition of the setting `id`.
pub fn setting_def(id: &str) -> Option<&'static SettingDef> {
    SETTINGS.iter().find(|d| d.id == id)
}

/// The JSON stored for `value` of entry `def`.
pub fn stored_value(def: &SettingDef, value: &str) -> Value {
    match value {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        v if def.values.contains(&v) && v.bytes().all(|b| b.is_ascii_digit()) => v
            .parse::<u64>()
            .map(Value::from)
            .unwrap_or_else(|_| Value::String(v.into())),
        v => Value::String(v.into()),
    }
}

fn shown_value(value: &Value) -> Option<String> {
    match value {
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The current value of entry `def` in `settings` (its default when unset).
pub fn current_value(settings: &Settings, def: &SettingDef) -> String {
    let stored = match def.key {
        (Some(section), key) => settings.get_nested(section, key),
        (None, key) => settings.get(key),
    };
    stored
        .and_then(shown_value)
        .unwrap_or_else(|| def.default.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stored_values_have_json_types() {
        let padding = setting_def("editor-padding").unwrap();
        assert_eq!(stored_value(padding, "3"), json!(3));
        let width = setting_def("image-width-cells").unwrap();
        assert_eq!(stored_value(width, "120"), json!(120));
        let quiet = setting_def("quiet-startup").unwrap();
        assert_eq!(stored_value(quiet, "true"), json!(true));
        let mode = setting_def("steering-mode").unwrap();
        assert_eq!(stored_value(mode, "all"), json!("all"));
    }

    #[test]
    fn every_entry_key_is_in_the_settings_schema() {
        let schema: Value =
            serde_json::from_str(include_str!("../../../schemas/settings.schema.json")).unwrap();
        let props = &schema["properties"];
        for def in SETTINGS {
            let found = match def.key {
                (Some(section), key) => &props[section]["properties"][key],
                (None, key) => &props[key],
            };
            assert!(
                found.is_object(),
                "{} ({:?}) not in the schema",
                def.id,
                def.key
            );
        }
    }

    #[test]
    fn only_thinking_and_theme_open_a_list() {
        let choose: Vec<&str> = SETTINGS
            .iter()
            .filter(|d| d.change == Change::Choose)
            .map(|d| d.id)
            .collect();
        assert_eq!(choose, ["thinking", "theme"]);
        assert_eq!(SETTINGS.len(), 21);
    }
}
