//! The `pi --list-models [search]` table.

use super::collation::collate;
use super::error::ModelSelectionError;
use super::fuzzy::fuzzy_filter;
use crate::ai::auth::AuthStorage;
use crate::ai::model::Model;
use crate::ai::registry::ModelRegistry;

/// Token counts as pi prints them: `200K`, `1M`, `1.5M`, `131.1K`, `512`.
pub fn format_token_count(count: u64) -> String {
    if count >= 1_000_000 {
        scaled(count, 1_000_000, "M")
    } else if count >= 1_000 {
        scaled(count, 1_000, "K")
    } else {
        count.to_string()
    }
}

fn scaled(count: u64, unit: u64, suffix: &str) -> String {
    if count.is_multiple_of(unit) {
        return format!("{}{suffix}", count / unit);
    }
    let value = count as f64 / unit as f64;
    let rem = count % unit;
    // Quarter values are exact ties at one decimal; round them up (Rust's
    // formatter would round them to even).
    let text = if rem * 4 == unit || rem * 4 == unit * 3 {
        format!("{:.1}", value + 0.05)
    } else {
        format!("{value:.1}")
    };
    format!("{text}{suffix}")
}

/// The `--list-models` output (without trailing newline): a padded table of
/// models with configured auth, sorted by provider then id, optionally
/// fuzzy-filtered on `"<provider> <id>"`. A `models.json` problem is not
/// included (callers print [`ModelRegistry::error`] as a warning first).
pub fn list_models(registry: &ModelRegistry, auth: &AuthStorage, search: Option<&str>) -> String {
    let models = registry.available(auth);
    if models.is_empty() {
        return no_models_available_message(registry);
    }
    let mut models = match search {
        Some(q) if !q.is_empty() => {
            fuzzy_filter(models, q, |m: &Model| format!("{} {}", m.provider, m.id))
        }
        _ => models,
    };
    if models.is_empty() {
        return crate::t!(
            "pi.error.model.none_matching",
            search = search.unwrap_or_default()
        );
    }
    models.sort_by(|a, b| collate(&a.provider, &b.provider).then_with(|| collate(&a.id, &b.id)));
    let header = [
        "provider", "model", "context", "max-out", "thinking", "images",
    ]
    .map(String::from);
    let rows: Vec<[String; 6]> = models
        .iter()
        .map(|m| {
            let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
            [
                m.provider.clone(),
                m.id.clone(),
                format_token_count(m.context_window),
                format_token_count(m.max_tokens),
                yes_no(m.reasoning),
                yes_no(m.supports_images()),
            ]
        })
        .collect();
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    std::iter::once(&header)
        .chain(&rows)
        .map(|row| {
            row.iter()
                .zip(widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect::<Vec<_>>()
                .join("  ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// pi's message when no model has credentials, extended with the
/// environment variables of the common providers and the `models.json` path.
pub fn no_models_available_message(registry: &ModelRegistry) -> String {
    no_models_available(registry).to_string()
}

/// The error for "no model has credentials", with the environment variables of the
/// common providers and the `models.json` path.
pub fn no_models_available(registry: &ModelRegistry) -> ModelSelectionError {
    let env_vars = [
        "anthropic",
        "openai",
        "google",
        "xai",
        "groq",
        "cerebras",
        "openrouter",
        "mistral",
        "deepseek",
        "zai",
    ]
    .iter()
    .flat_map(|p| crate::ai::catalog::env_api_key_vars(p).iter().copied())
    .filter(|v| *v != "ANTHROPIC_OAUTH_TOKEN")
    .map(str::to_string)
    .collect();
    ModelSelectionError::NoModelsAvailable {
        env_vars,
        models_path: registry.models_path().to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_counts() {
        assert_eq!(format_token_count(200_000), "200K");
        assert_eq!(format_token_count(1_000_000), "1M");
        assert_eq!(format_token_count(1_500_000), "1.5M");
        assert_eq!(format_token_count(1_048_576), "1.0M");
        assert_eq!(format_token_count(131_072), "131.1K");
        assert_eq!(format_token_count(1_250), "1.3K");
        assert_eq!(format_token_count(2_750_000), "2.8M");
        assert_eq!(format_token_count(1_150), "1.1K");
        assert_eq!(format_token_count(512), "512");
    }
}
