//! Model selection: `--model` / `--provider` resolution, `--models` scopes,
//! and the initial model of a run.

pub mod collation;
pub mod error;
pub mod fuzzy;
pub mod list_models;

use globset::GlobBuilder;

use crate::ai::auth::AuthStorage;
use crate::ai::catalog::{DEFAULT_MODEL_PER_PROVIDER, default_model_id};
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::registry::ModelRegistry;
use collation::collate;
pub use error::{ModelResolveError, ModelSelectionError};
pub use list_models::{
    format_token_count, list_models, no_models_available, no_models_available_message,
};

/// True for ids without a `-YYYYMMDD` date suffix (or ending in `-latest`).
fn is_alias(id: &str) -> bool {
    if id.ends_with("-latest") {
        return true;
    }
    let bytes = id.as_bytes();
    let dated = bytes.len() >= 9
        && bytes[bytes.len() - 9] == b'-'
        && bytes[bytes.len() - 8..].iter().all(u8::is_ascii_digit);
    !dated
}

/// An exact reference: `provider/id` or a bare id (case-insensitive).
/// Ambiguous matches give `None`.
pub fn find_exact_model_reference<'a>(reference: &str, models: &'a [Model]) -> Option<&'a Model> {
    let reference = reference.trim();
    if reference.is_empty() {
        return None;
    }
    let lower = reference.to_lowercase();
    let unique = |matches: Vec<&'a Model>| -> Result<Option<&'a Model>, ()> {
        match matches.len() {
            0 => Ok(None),
            1 => Ok(Some(matches[0])),
            _ => Err(()),
        }
    };
    let canonical: Vec<&Model> = models
        .iter()
        .filter(|m| format!("{}/{}", m.provider, m.id).to_lowercase() == lower)
        .collect();
    match unique(canonical) {
        Ok(Some(m)) => return Some(m),
        Err(()) => return None,
        Ok(None) => {}
    }
    if let Some((provider, id)) = reference.split_once('/') {
        let (provider, id) = (provider.trim(), id.trim());
        if !provider.is_empty() && !id.is_empty() {
            let matches: Vec<&Model> = models
                .iter()
                .filter(|m| {
                    m.provider.eq_ignore_ascii_case(provider)
                        && m.id.to_lowercase() == id.to_lowercase()
                })
                .collect();
            match unique(matches) {
                Ok(Some(m)) => return Some(m),
                Err(()) => return None,
                Ok(None) => {}
            }
        }
    }
    let by_id: Vec<&Model> = models
        .iter()
        .filter(|m| m.id.to_lowercase() == lower)
        .collect();
    unique(by_id).ok().flatten()
}

/// Exact reference, else a partial match on id or name preferring alias ids
/// (highest sorting), else the latest dated id.
fn try_match_model<'a>(pattern: &str, models: &'a [Model]) -> Option<&'a Model> {
    if let Some(m) = find_exact_model_reference(pattern, models) {
        return Some(m);
    }
    let needle = pattern.to_lowercase();
    let matches: Vec<&Model> = models
        .iter()
        .filter(|m| {
            m.id.to_lowercase().contains(&needle) || m.name.to_lowercase().contains(&needle)
        })
        .collect();
    let (mut aliases, mut dated): (Vec<&Model>, Vec<&Model>) =
        matches.into_iter().partition(|m| is_alias(&m.id));
    let pool = if aliases.is_empty() {
        &mut dated
    } else {
        &mut aliases
    };
    pool.sort_by(|a, b| collate(&b.id, &a.id));
    pool.first().copied()
}

/// A pattern resolved to a model, with an optional `:level` suffix.
#[derive(Debug, Clone, Default)]
pub struct PatternMatch<'a> {
    /// The model, if the pattern matched.
    pub model: Option<&'a Model>,
    /// Thinking level from a `:level` suffix.
    pub thinking_level: Option<ThinkingLevel>,
    /// A problem worth reporting (e.g. an invalid suffix in lenient mode).
    pub warning: Option<String>,
}

/// Match `pattern` against `models`. The whole pattern is tried first (ids
/// may contain colons); otherwise the text after the last `:` is taken as a
/// thinking level. An invalid level fails the match when `strict`, and is
/// ignored with a warning otherwise.
pub fn parse_model_pattern<'a>(
    pattern: &str,
    models: &'a [Model],
    strict: bool,
) -> PatternMatch<'a> {
    if let Some(model) = try_match_model(pattern, models) {
        return PatternMatch {
            model: Some(model),
            ..PatternMatch::default()
        };
    }
    let Some((prefix, suffix)) = pattern.rsplit_once(':') else {
        return PatternMatch::default();
    };
    match ThinkingLevel::parse(suffix).filter(|_| is_level_name(suffix)) {
        Some(level) => {
            let inner = parse_model_pattern(prefix, models, strict);
            if inner.model.is_some() && inner.warning.is_none() {
                PatternMatch {
                    thinking_level: Some(level),
                    ..inner
                }
            } else {
                inner
            }
        }
        None if strict => PatternMatch::default(),
        None => {
            let inner = parse_model_pattern(prefix, models, strict);
            if inner.model.is_some() {
                PatternMatch {
                    model: inner.model,
                    thinking_level: None,
                    warning: Some(format!(
                        "Invalid thinking level \"{suffix}\" in pattern \"{pattern}\". Using default instead."
                    )),
                }
            } else {
                inner
            }
        }
    }
}

/// Level names are matched exactly (lowercase), as on pi's command line.
fn is_level_name(s: &str) -> bool {
    ThinkingLevel::ALL.iter().any(|l| l.as_str() == s)
}

/// A model chosen from the command line.
#[derive(Debug, Clone)]
pub struct ResolvedModel {
    /// The model.
    pub model: Model,
    /// Thinking level from a `:level` suffix.
    pub thinking_level: Option<ThinkingLevel>,
    /// A note for the user (e.g. an unknown id used as a custom model).
    pub warning: Option<String>,
}

/// Resolve `--model` (with optional `--provider`) against all models, not
/// only those with credentials (so `--api-key` works for first use).
pub fn resolve_cli_model(
    registry: &ModelRegistry,
    cli_provider: Option<&str>,
    cli_model: &str,
) -> Result<ResolvedModel, ModelResolveError> {
    if registry.is_empty() {
        return Err(ModelResolveError::RegistryEmpty);
    }
    // Only the providers named are read from the catalog, unless the name
    // leaves the provider open.
    let providers = registry.providers();
    let canonical_provider = |name: &str| {
        providers
            .iter()
            .find(|p| p.eq_ignore_ascii_case(name))
            .cloned()
    };
    let mut provider = match cli_provider {
        Some(p) => {
            Some(
                canonical_provider(p).ok_or_else(|| ModelResolveError::UnknownProvider {
                    provider: p.to_string(),
                })?,
            )
        }
        None => None,
    };
    let exact_anywhere = || {
        let lower = cli_model.to_lowercase();
        registry.all().iter().find(|m| {
            m.id.to_lowercase() == lower
                || format!("{}/{}", m.provider, m.id).to_lowercase() == lower
        })
    };
    let found = |model: &Model, level, warning| ResolvedModel {
        model: model.clone(),
        thinking_level: level,
        warning,
    };

    let mut pattern = cli_model.to_string();
    let mut inferred = false;
    if provider.is_none() {
        if let Some((maybe, rest)) = cli_model.split_once('/')
            && let Some(p) = canonical_provider(maybe)
        {
            provider = Some(p);
            pattern = rest.to_string();
            inferred = true;
        }
        if !inferred && let Some(m) = exact_anywhere() {
            return Ok(found(m, None, None));
        }
    }
    if cli_provider.is_some()
        && let Some(p) = &provider
    {
        let prefix = format!("{p}/");
        if cli_model.to_lowercase().starts_with(&prefix.to_lowercase()) {
            pattern = cli_model[prefix.len()..].to_string();
        }
    }

    let candidates: Vec<Model> = match &provider {
        Some(p) => registry.provider_models(p).cloned().collect(),
        None => registry.all().to_vec(),
    };
    let matched = parse_model_pattern(&pattern, &candidates, true);
    if let Some(m) = matched.model {
        return Ok(found(m, matched.thinking_level, matched.warning));
    }
    if inferred {
        if let Some(m) = exact_anywhere() {
            return Ok(found(m, None, None));
        }
        let fallback = parse_model_pattern(cli_model, registry.all(), true);
        if let Some(m) = fallback.model {
            return Ok(found(m, fallback.thinking_level, fallback.warning));
        }
    }
    if let Some(p) = &provider
        && let Some(model) = custom_id_model(p, &pattern, &candidates)
    {
        let note =
            format!("Model \"{pattern}\" not found for provider \"{p}\". Using custom model id.");
        let warning = match matched.warning {
            Some(w) => format!("{w} {note}"),
            None => note,
        };
        return Ok(found(&model, None, Some(warning)));
    }
    let display = match &provider {
        Some(p) => format!("{p}/{pattern}"),
        None => cli_model.to_string(),
    };
    Err(ModelResolveError::ModelNotFound {
        model: display,
        suggestions: close_matches(&pattern, &candidates, 5),
    })
}

/// A provider's default model (or first model) re-labelled with `id`;
/// `provider_models` are that provider's models.
fn custom_id_model(provider: &str, id: &str, provider_models: &[Model]) -> Option<Model> {
    let first = provider_models.first()?;
    let base = default_model_id(provider)
        .and_then(|d| provider_models.iter().find(|m| m.id == d))
        .unwrap_or(first);
    let mut model = base.clone();
    model.id = id.to_string();
    model.name = id.to_string();
    Some(model)
}

/// Up to `limit` `provider/id` names resembling `pattern`: fuzzy matches
/// first, else ids within a small edit distance.
fn close_matches(pattern: &str, models: &[Model], limit: usize) -> Vec<String> {
    let base = pattern.rsplit_once(':').map_or(pattern, |(p, _)| p);
    let names: Vec<String> = models
        .iter()
        .map(|m| format!("{}/{}", m.provider, m.id))
        .collect();
    let fuzzy = fuzzy::fuzzy_filter(names.clone(), base, |s| s.clone());
    if !fuzzy.is_empty() {
        return fuzzy.into_iter().take(limit).collect();
    }
    let lower = base.to_lowercase();
    let budget = (lower.chars().count() / 3).max(2);
    let mut near: Vec<(usize, String)> = models
        .iter()
        .map(|m| {
            (
                edit_distance(&lower, &m.id.to_lowercase()),
                format!("{}/{}", m.provider, m.id),
            )
        })
        .filter(|(d, _)| *d <= budget)
        .collect();
    near.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| collate(&a.1, &b.1)));
    near.into_iter().take(limit).map(|(_, n)| n).collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A model in the `--models` / `enabledModels` cycling scope.
#[derive(Debug, Clone)]
pub struct ScopedModel {
    /// The model.
    pub model: Model,
    /// Level from a `:level` suffix (`None` = keep the current level).
    pub thinking_level: Option<ThinkingLevel>,
}

/// Resolve scope patterns against the available models. Globs (`*`, `?`,
/// `[`) match `provider/id` or `id` case-insensitively; other patterns use
/// the `--model` rules. Duplicates are dropped; unmatched patterns warn.
pub fn resolve_model_scope(
    patterns: &[String],
    available: &[Model],
) -> (Vec<ScopedModel>, Vec<String>) {
    let mut scoped: Vec<ScopedModel> = Vec::new();
    let mut warnings = Vec::new();
    let add = |scoped: &mut Vec<ScopedModel>, model: &Model, level| {
        if !scoped
            .iter()
            .any(|s| s.model.provider == model.provider && s.model.id == model.id)
        {
            scoped.push(ScopedModel {
                model: model.clone(),
                thinking_level: level,
            });
        }
    };
    for pattern in patterns {
        if pattern.contains(['*', '?', '[']) {
            let (glob_text, level) = match pattern.rsplit_once(':') {
                Some((g, s)) if is_level_name(s) => (g, ThinkingLevel::parse(s)),
                _ => (pattern.as_str(), None),
            };
            let Ok(glob) = GlobBuilder::new(glob_text)
                .case_insensitive(true)
                .literal_separator(true)
                .build()
                .map(|g| g.compile_matcher())
            else {
                warnings.push(format!("No models match pattern \"{pattern}\""));
                continue;
            };
            let hits: Vec<&Model> = available
                .iter()
                .filter(|m| {
                    glob.is_match(format!("{}/{}", m.provider, m.id)) || glob.is_match(&m.id)
                })
                .collect();
            if hits.is_empty() {
                warnings.push(format!("No models match pattern \"{pattern}\""));
            }
            for m in hits {
                add(&mut scoped, m, level);
            }
            continue;
        }
        let matched = parse_model_pattern(pattern, available, false);
        if let Some(w) = matched.warning {
            warnings.push(w);
        }
        match matched.model {
            Some(m) => add(&mut scoped, m, matched.thinking_level),
            None => warnings.push(format!("No models match pattern \"{pattern}\"")),
        }
    }
    (scoped, warnings)
}

/// Inputs for choosing the model a run starts with.
#[derive(Clone, Copy)]
pub struct InitialModelRequest<'a> {
    /// `--provider`.
    pub cli_provider: Option<&'a str>,
    /// `--model`.
    pub cli_model: Option<&'a str>,
    /// `--thinking` (wins over pattern suffixes).
    pub cli_thinking: Option<ThinkingLevel>,
    /// Resolved `--models` / `enabledModels` scope.
    pub scoped_models: &'a [ScopedModel],
    /// Continuing or resuming a session with messages (its model is restored
    /// by the caller; the scope is then not used to pick a model).
    pub has_existing_session: bool,
    /// Settings `defaultProvider`.
    pub default_provider: Option<&'a str>,
    /// Settings `defaultModel`.
    pub default_model: Option<&'a str>,
    /// All models.
    pub registry: &'a ModelRegistry,
    /// Credentials.
    pub auth: &'a AuthStorage,
}

/// The model a run starts with.
#[derive(Debug, Clone)]
pub struct InitialModel {
    /// The model.
    pub model: Model,
    /// Thinking level chosen explicitly (`--thinking`, a `:level` suffix or
    /// a scoped level); `None` = use the settings default.
    pub thinking_level: Option<ThinkingLevel>,
    /// Whether the level came from the command line (clamp it to the model).
    pub thinking_from_cli: bool,
    /// Notes for the user.
    pub warnings: Vec<String>,
}

/// Choose the starting model: `--model`; else the scope (the saved default
/// if it is in scope, else the first scoped model) unless a session is being
/// continued; else settings `defaultProvider`/`defaultModel`; else the first
/// provider with credentials in the default-model order; else the first
/// available model.
pub fn select_initial_model(
    req: InitialModelRequest<'_>,
) -> Result<InitialModel, ModelSelectionError> {
    let pick = |model: &Model, thinking_level, thinking_from_cli, warnings| InitialModel {
        model: model.clone(),
        thinking_level,
        thinking_from_cli,
        warnings,
    };
    let from_cli = req.cli_thinking.is_some();
    if let Some(cli_model) = req.cli_model {
        let resolved = resolve_cli_model(req.registry, req.cli_provider, cli_model)
            .map_err(ModelSelectionError::InvalidCliModel)?;
        let warnings = resolved.warning.into_iter().collect();
        let level = req.cli_thinking.or(resolved.thinking_level);
        let level_from_cli = from_cli || resolved.thinking_level.is_some();
        return Ok(pick(&resolved.model, level, level_from_cli, warnings));
    }
    if !req.scoped_models.is_empty() && !req.has_existing_session {
        let saved = match (req.default_provider, req.default_model) {
            (Some(p), Some(id)) => req
                .scoped_models
                .iter()
                .find(|s| s.model.provider == p && s.model.id == id),
            _ => None,
        };
        let scoped = saved.unwrap_or(&req.scoped_models[0]);
        let level = req.cli_thinking.or(scoped.thinking_level);
        return Ok(pick(&scoped.model, level, from_cli, Vec::new()));
    }
    if let (Some(p), Some(id)) = (req.default_provider, req.default_model)
        && let Some(m) = req.registry.find(p, id)
    {
        return Ok(pick(m, req.cli_thinking, from_cli, Vec::new()));
    }
    let available = req.registry.available(req.auth);
    let preferred = DEFAULT_MODEL_PER_PROVIDER
        .iter()
        .find_map(|(p, id)| available.iter().find(|m| m.provider == *p && m.id == *id));
    match preferred.or(available.first()) {
        Some(m) => Ok(pick(m, req.cli_thinking, from_cli, Vec::new())),
        None => Err(no_models_available(req.registry)),
    }
}

/// The level a run uses: explicit choice, else the settings default, else
/// `medium`, clamped to what the model supports.
pub fn effective_thinking_level(
    model: &Model,
    explicit: Option<ThinkingLevel>,
    settings_default: Option<ThinkingLevel>,
) -> ThinkingLevel {
    model.clamp_thinking(explicit.or(settings_default).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_detection() {
        assert!(is_alias("claude-sonnet-4-5"));
        assert!(!is_alias("claude-sonnet-4-5-20250929"));
        assert!(is_alias("claude-3-5-haiku-latest"));
    }

    #[test]
    fn edit_distance_basics() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
    }
}
