//! Local model servers: Ollama and LM Studio. They need no API key, and
//! their models are whatever the running server has installed, so pi asks
//! the server (Ollama: `/api/tags`, else `/v1/models`; LM Studio:
//! `/v1/models`) when its base URL is on this machine. A server that is not
//! running costs a refused connection; nothing is ever sent off the machine.
//!
//! Nobody is asked at start-up unless the run needs it: when `models.json`
//! configures a local provider, the chosen model is a local one, or the model
//! list is shown. What the servers answered is kept for the rest of the
//! process ([`ensure_background_discovery`], [`discovered`]).

use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;

use crate::ai::model::{Model, ModelCost};
use crate::config::config_value::Env;

/// A local server pi knows how to list models from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalServer {
    /// Provider id (`--provider`, `models.json`).
    pub provider: &'static str,
    /// OpenAI-compatible base URL when nothing else is configured.
    pub default_base_url: &'static str,
}

/// Ollama and LM Studio.
pub const LOCAL_SERVERS: [LocalServer; 2] = [
    LocalServer {
        provider: "ollama",
        default_base_url: "http://127.0.0.1:11434/v1",
    },
    LocalServer {
        provider: "lm-studio",
        default_base_url: "http://127.0.0.1:1234/v1",
    },
];

/// How long one listing request may take (connect included).
const PROBE_TIMEOUT: Duration = Duration::from_millis(800);

/// A local server to list models from: provider, base URL and the provider's
/// `compat` settings from `models.json`.
pub type LocalTarget = (String, String, Option<Value>);

/// What the local servers answered, once asked in this process.
static DISCOVERED: tokio::sync::OnceCell<Vec<Model>> = tokio::sync::OnceCell::const_new();

/// The servers a discovery asks (none until start-up names them).
static TARGETS: Mutex<Vec<LocalTarget>> = Mutex::new(Vec::new());

fn targets() -> Vec<LocalTarget> {
    TARGETS.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// The servers a discovery of this process asks (start-up sets them unless
/// pi runs offline).
pub fn remember_targets(targets: Vec<LocalTarget>) {
    *TARGETS.lock().unwrap_or_else(|p| p.into_inner()) = targets;
}

/// The models the local servers reported, once a discovery of this process
/// finished (empty before).
pub fn discovered() -> Vec<Model> {
    DISCOVERED.get().cloned().unwrap_or_default()
}

/// Ask the remembered servers for their models on a background task, once
/// per process (later calls do nothing). The answer is read with
/// [`discovered`]. Needs a tokio runtime; outside one nothing happens.
pub fn ensure_background_discovery() {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    if DISCOVERED.initialized() || targets().is_empty() {
        return;
    }
    runtime.spawn(async {
        DISCOVERED.get_or_init(|| discover_all(targets())).await;
    });
}

/// The models of the remembered servers: asked now, or the answer of the
/// discovery already running or done in this process.
pub async fn discover_now() -> Vec<Model> {
    DISCOVERED
        .get_or_init(|| discover_all(targets()))
        .await
        .clone()
}

async fn discover_all(targets: Vec<LocalTarget>) -> Vec<Model> {
    // All servers are asked at once; each probe is bounded in time.
    let probes = targets
        .iter()
        .map(|(provider, url, _)| discover(provider, url));
    let answers = futures::future::join_all(probes).await;
    let mut found = Vec::new();
    for ((_, _, compat), models) in targets.iter().zip(answers) {
        for mut model in models {
            model.compat = compat.clone();
            found.push(model);
        }
    }
    found
}

/// Whether a run with these choices uses a local server's models: `--provider`,
/// the provider part of `--model` or a `--models` pattern, or the default
/// provider from settings names Ollama or LM Studio.
pub fn names_local_provider<'a>(choices: impl IntoIterator<Item = &'a str>) -> bool {
    choices.into_iter().any(|choice| {
        choice.split(',').any(|pattern| {
            let pattern = pattern.trim();
            let provider = pattern.split_once('/').map_or(pattern, |(p, _)| p);
            is_local_provider(provider)
        })
    })
}

/// Whether `PI_OFFLINE` asks pi to skip startup network operations
/// (local model discovery included).
pub fn offline_env() -> bool {
    std::env::var("PI_OFFLINE")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"))
}

/// Whether `provider` is a local server that needs no API key.
pub fn is_local_provider(provider: &str) -> bool {
    LOCAL_SERVERS.iter().any(|s| s.provider == provider)
}

/// The environment variable naming a local server's address: Ollama's own
/// `OLLAMA_HOST`, and `LM_STUDIO_HOST` for LM Studio.
fn host_variable(server: &LocalServer) -> &'static str {
    match server.provider {
        "ollama" => "OLLAMA_HOST",
        _ => "LM_STUDIO_HOST",
    }
}

/// The base URL of a local server: `models.json` `baseUrl`, else `OLLAMA_HOST`
/// / `LM_STUDIO_HOST` (`host:port` or a URL), else the default.
pub fn base_url(server: &LocalServer, configured: Option<&str>, env: &Env) -> String {
    if let Some(url) = configured.map(str::trim).filter(|u| !u.is_empty()) {
        return url.trim_end_matches('/').to_string();
    }
    if let Some(host) = env
        .var(host_variable(server))
        .filter(|h| !h.trim().is_empty())
    {
        // A bind-everything address is reached on this machine.
        let host = host
            .trim()
            .trim_end_matches('/')
            .replace("0.0.0.0", "127.0.0.1");
        let with_scheme = if host.contains("://") {
            host.to_string()
        } else {
            format!("http://{host}")
        };
        return format!("{with_scheme}/v1");
    }
    server.default_base_url.to_string()
}

/// True when `url` points at this machine (`localhost`, `127.0.0.0/8`, `::1`).
pub fn is_loopback(url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url) else {
        return false;
    };
    match parsed.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Model ids from a listing body: Ollama's `{"models": [{"name"}]}` or the
/// OpenAI-style `{"data": [{"id"}]}`. Embedding models are left out.
pub fn model_ids(body: &Value) -> Vec<String> {
    let from = |list: &Value, key: &str| -> Vec<String> {
        list.as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m[key].as_str().or_else(|| m["model"].as_str()))
            .map(str::to_string)
            .collect()
    };
    let mut ids = if body["models"].is_array() {
        from(&body["models"], "name")
    } else {
        from(&body["data"], "id")
    };
    ids.retain(|id| !id.to_ascii_lowercase().contains("embed"));
    ids.dedup();
    ids
}

/// A model served by a local server (pi's defaults for custom models).
pub fn local_model(provider: &str, base_url: &str, id: &str) -> Model {
    Model {
        id: id.to_string(),
        name: id.to_string(),
        api: "openai-completions".into(),
        provider: provider.to_string(),
        base_url: base_url.to_string(),
        reasoning: false,
        thinking_level_map: None,
        input: vec!["text".into()],
        cost: ModelCost::default(),
        context_window: 128_000,
        max_tokens: 16_384,
        headers: None,
        compat: None,
    }
}

/// GET `url` as JSON within the probe timeout.
async fn get_json(client: &reqwest::Client, url: &str) -> Option<Value> {
    let response = client.get(url).send().await.ok()?;
    if !response.status().is_success() {
        return None;
    }
    let bytes = response.bytes().await.ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The models of the server at `base_url`; empty when it is not on this
/// machine, not running, or answers with something else.
pub async fn discover(provider: &str, base_url: &str) -> Vec<Model> {
    if !is_loopback(base_url) {
        return Vec::new();
    }
    // Local servers speak plain HTTP: an unusable certificate store does not matter.
    let client = super::http::build_client(|builder| {
        builder
            .timeout(PROBE_TIMEOUT)
            .connect_timeout(PROBE_TIMEOUT)
            .no_proxy()
    });
    let base = base_url.trim_end_matches('/');
    let mut urls = Vec::new();
    if provider == "ollama" {
        let root = base.strip_suffix("/v1").unwrap_or(base);
        urls.push(format!("{root}/api/tags"));
    }
    urls.push(format!("{base}/models"));
    // Every address is asked at once, and the whole probe ends within
    // PROBE_TIMEOUT: a server that accepts and never answers costs that much
    // once, not once per address.
    let probes = futures::future::join_all(urls.iter().map(|url| get_json(&client, url)));
    let bodies = tokio::time::timeout(PROBE_TIMEOUT, probes)
        .await
        .unwrap_or_default();
    for body in bodies.into_iter().flatten() {
        let ids = model_ids(&body);
        if !ids.is_empty() {
            return ids
                .iter()
                .map(|id| local_model(provider, base, id))
                .collect();
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn loopback_hosts_only() {
        for url in [
            "http://localhost:11434/v1",
            "http://127.0.0.1:1234/v1",
            "http://[::1]:8080",
        ] {
            assert!(is_loopback(url), "{url}");
        }
        for url in [
            "http://192.168.1.5:11434",
            "https://api.openai.com/v1",
            "nope",
        ] {
            assert!(!is_loopback(url), "{url}");
        }
    }

    #[test]
    fn ids_from_both_listing_shapes_without_embeddings() {
        let ollama = json!({"models": [{"name": "qwen3:8b", "model": "qwen3:8b"},
                                       {"name": "nomic-embed-text:latest"}]});
        assert_eq!(model_ids(&ollama), ["qwen3:8b"]);
        let openai = json!({"object": "list", "data": [{"id": "google/gemma-3-12b"},
                                                      {"id": "text-embedding-nomic-embed-text-v1.5"}]});
        assert_eq!(model_ids(&openai), ["google/gemma-3-12b"]);
        assert!(model_ids(&json!({"error": "x"})).is_empty());
    }

    #[test]
    fn base_url_from_config_then_ollama_host_then_default() {
        let env = Env::from_pairs(&[("OLLAMA_HOST", "0.0.0.0:9999")]);
        let ollama = &LOCAL_SERVERS[0];
        assert_eq!(
            base_url(ollama, Some("http://localhost:1/v1/"), &env),
            "http://localhost:1/v1"
        );
        assert_eq!(base_url(ollama, None, &env), "http://127.0.0.1:9999/v1");
        assert_eq!(
            base_url(ollama, None, &Env::from_pairs(&[])),
            "http://127.0.0.1:11434/v1"
        );
        assert_eq!(
            base_url(&LOCAL_SERVERS[1], None, &env),
            "http://127.0.0.1:1234/v1"
        );
    }
}
