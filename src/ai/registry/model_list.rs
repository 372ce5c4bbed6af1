//! The registry's list of models, built lazily: a built-in provider's models
//! are read from the catalog (with `models.json` overrides applied) the first
//! time that provider is asked for, so a run that names a custom model never
//! reads the thousand built-in ones.
//!
//! The order is that of the whole list: built-in providers in catalog order
//! (a custom model with a built-in's provider and id takes that model's place),
//! then custom models that add to the list, then discovered local models that
//! are not defined already.

use std::sync::OnceLock;

use indexmap::IndexMap;

use super::models_json::{ProviderConfig, merge_compat};
use crate::ai::catalog;
use crate::ai::model::Model;

/// The models of a registry, built on demand.
#[derive(Debug, Clone, Default)]
pub(super) struct ModelList {
    /// Whether the built-in catalog is part of the list.
    builtins: bool,
    /// `models.json` and extension providers (base URL, compat and per-model
    /// overrides apply to built-in models too).
    providers: IndexMap<String, ProviderConfig>,
    /// Models defined by `models.json` and extensions, in definition order.
    custom: Vec<Model>,
    /// Models the local servers reported.
    local: Vec<Model>,
    /// One slot per built-in provider: its models with overrides applied.
    builtin: Vec<OnceLock<Vec<Model>>>,
    /// Custom and local models that are not a built-in's replacement.
    additions: OnceLock<Vec<Model>>,
    /// The whole list, once someone asks for it.
    all: OnceLock<Vec<Model>>,
}

impl ModelList {
    /// The built-in catalog (when `builtins`), changed and extended by `providers`
    /// and their `custom` models.
    pub(super) fn new(
        builtins: bool,
        providers: IndexMap<String, ProviderConfig>,
        custom: Vec<Model>,
    ) -> Self {
        let slots = if builtins {
            catalog::builtin_providers().count()
        } else {
            0
        };
        ModelList {
            builtins,
            providers,
            custom,
            builtin: (0..slots).map(|_| OnceLock::new()).collect(),
            ..ModelList::default()
        }
    }

    /// Replace the discovered local models.
    pub(super) fn set_local(&mut self, local: Vec<Model>) {
        self.local = local;
        self.additions = OnceLock::new();
        self.all = OnceLock::new();
    }

    /// Every model, in list order.
    pub(super) fn all(&self) -> &[Model] {
        self.all.get_or_init(|| {
            (0..self.builtin.len())
                .flat_map(|i| self.builtin_at(i).iter())
                .chain(self.additions())
                .cloned()
                .collect()
        })
    }

    /// Whether the list holds no model at all.
    pub(super) fn is_empty(&self) -> bool {
        self.builtin.is_empty() && self.additions().is_empty()
    }

    /// Number of models beyond the built-in ones (custom and local).
    pub(super) fn added_len(&self) -> usize {
        self.additions().len()
    }

    /// The models of one provider, in list order.
    pub(super) fn of_provider<'a>(&'a self, provider: &'a str) -> impl Iterator<Item = &'a Model> {
        self.builtin_index(provider)
            .map(|i| self.builtin_at(i))
            .unwrap_or_default()
            .iter()
            .chain(
                self.additions()
                    .iter()
                    .filter(move |m| m.provider == provider),
            )
    }

    /// A model by exact provider and id.
    pub(super) fn find(&self, provider: &str, id: &str) -> Option<&Model> {
        let builtin = self.builtin_index(provider).map(|i| self.builtin_at(i));
        builtin
            .unwrap_or_default()
            .iter()
            .find(|m| m.id == id)
            .or_else(|| {
                self.additions()
                    .iter()
                    .find(|m| m.provider == provider && m.id == id)
            })
    }

    /// Provider names in list order, without duplicates.
    pub(super) fn providers(&self) -> Vec<String> {
        let mut names: Vec<String> = catalog::builtin_providers()
            .take(self.builtin.len())
            .map(str::to_string)
            .collect();
        for m in self.additions() {
            if !names.contains(&m.provider) {
                names.push(m.provider.clone());
            }
        }
        names
    }

    /// The models of the providers `wanted` accepts, in list order; a built-in
    /// provider it turns down is never read.
    pub(super) fn filtered(&self, mut wanted: impl FnMut(&str) -> bool) -> Vec<Model> {
        let mut out = Vec::new();
        for (i, name) in catalog::builtin_providers()
            .take(self.builtin.len())
            .enumerate()
        {
            if wanted(name) {
                out.extend(self.builtin_at(i).iter().cloned());
            }
        }
        out.extend(
            self.additions()
                .iter()
                .filter(|m| wanted(&m.provider))
                .cloned(),
        );
        out
    }

    fn builtin_index(&self, provider: &str) -> Option<usize> {
        catalog::builtin_provider_index(provider).filter(|i| *i < self.builtin.len())
    }

    /// Built-in provider `index`: catalog models with overrides, each replaced by a
    /// custom model of the same id (the last one defined).
    fn builtin_at(&self, index: usize) -> &[Model] {
        self.builtin[index].get_or_init(|| {
            let models = catalog::builtin_models_at(index);
            let Some(provider) = models.first().map(|m| m.provider.as_str()) else {
                return Vec::new();
            };
            let config = self.providers.get(provider);
            let mut out: Vec<Model> = models.iter().map(|m| with_overrides(m, config)).collect();
            for custom in self.custom.iter().filter(|c| c.provider == provider) {
                if let Some(slot) = out.iter_mut().find(|m| m.id == custom.id) {
                    *slot = custom.clone();
                }
            }
            out
        })
    }

    fn replaces_builtin(&self, model: &Model) -> bool {
        self.builtins && catalog::builtin_model(&model.provider, &model.id).is_some()
    }

    fn additions(&self) -> &[Model] {
        self.additions.get_or_init(|| {
            let mut out: Vec<Model> = Vec::new();
            for custom in self.custom.iter().filter(|c| !self.replaces_builtin(c)) {
                match out
                    .iter_mut()
                    .find(|m| m.provider == custom.provider && m.id == custom.id)
                {
                    Some(slot) => *slot = custom.clone(),
                    None => out.push(custom.clone()),
                }
            }
            for local in &self.local {
                let known = self.replaces_builtin(local)
                    || out
                        .iter()
                        .any(|m| m.provider == local.provider && m.id == local.id);
                if !known {
                    out.push(local.clone());
                }
            }
            out
        })
    }
}

/// A built-in model with its provider's `baseUrl`/`compat` and its own
/// `modelOverrides` entry from `models.json` applied.
fn with_overrides(builtin: &Model, config: Option<&ProviderConfig>) -> Model {
    let mut model = builtin.clone();
    let Some(p) = config else {
        return model;
    };
    if p.base_url.is_some() || p.compat.is_some() {
        if let Some(url) = &p.base_url {
            model.base_url = url.clone();
        }
        model.compat = merge_compat(model.compat.as_ref(), p.compat.as_ref());
    }
    if let Some(o) = p
        .model_overrides
        .as_ref()
        .and_then(|all| all.get(&model.id))
    {
        super::apply_override(&mut model, o);
    }
    model
}
