//! Subscription logins (OAuth): Claude Pro/Max, ChatGPT Plus/Pro (Codex),
//! GitHub Copilot and Google (Gemini CLI and Antigravity, via Cloud Code Assist). Logins store `{type: "oauth", access, refresh, expires, ...}`
//! in `auth.json`; [`manager::OAuthManager`] refreshes expired tokens at most
//! once across tasks and processes; [`request`] applies them to requests.

pub mod anthropic;
pub mod callback;
pub mod copilot;
pub mod error;
pub mod extension;
pub mod google;
pub mod google_antigravity;
pub mod google_gemini_cli;
pub mod login;
pub mod manager;
pub mod openai_codex;
pub mod pkce;
pub mod request;

use std::sync::LazyLock;
use std::time::Duration;

use serde_json::Value;

use super::auth::OAuthCredential;
pub use error::{OAuthError, Step};

/// Environment variable sending every OAuth request to another server
/// (`http://127.0.0.1:<port>`), keeping each endpoint's path.
pub const SERVER_ENV: &str = "PI_OAUTH_SERVER";
/// Environment variable overriding the local callback port (`0` = any free port).
pub const CALLBACK_PORT_ENV: &str = "PI_OAUTH_CALLBACK_PORT";
/// Tokens count as expired this long before their real expiry.
pub const EXPIRY_SKEW_MS: i64 = 5 * 60 * 1000;
/// Time limit of one token request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A provider that supports subscription login.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OAuthProvider {
    /// Provider id (as in `auth.json` and `--provider`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
}

/// Providers `/login` offers.
pub const PROVIDERS: [OAuthProvider; 5] = [
    OAuthProvider {
        id: "anthropic",
        name: "Anthropic (Claude Pro/Max)",
    },
    OAuthProvider {
        id: "github-copilot",
        name: "GitHub Copilot",
    },
    OAuthProvider {
        id: "openai-codex",
        name: "ChatGPT Plus/Pro (Codex Subscription)",
    },
    OAuthProvider {
        id: "google-gemini-cli",
        name: "Google Cloud Code Assist (Gemini CLI)",
    },
    OAuthProvider {
        id: "google-antigravity",
        name: "Antigravity (Gemini 3, Claude, GPT-OSS)",
    },
];

/// The subscription provider with this id.
pub fn find_provider(id: &str) -> Option<&'static OAuthProvider> {
    PROVIDERS.iter().find(|p| p.id == id)
}

/// Where OAuth requests go: the real servers, or one local server standing in
/// for all of them (tests), plus the callback port.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Endpoints {
    /// Replaces scheme, host and port of every endpoint when set.
    pub server: Option<String>,
    /// Replaces each provider's fixed callback port when set.
    pub callback_port: Option<u16>,
}

impl Endpoints {
    /// From `PI_OAUTH_SERVER` and `PI_OAUTH_CALLBACK_PORT` (real servers when unset).
    pub fn from_env() -> Endpoints {
        Endpoints {
            server: std::env::var(SERVER_ENV)
                .ok()
                .map(|s| s.trim().trim_end_matches('/').to_string())
                .filter(|s| !s.is_empty()),
            callback_port: std::env::var(CALLBACK_PORT_ENV)
                .ok()
                .and_then(|p| p.trim().parse().ok()),
        }
    }

    /// Every endpoint on `server`, callbacks on any free port.
    pub fn local(server: &str) -> Endpoints {
        Endpoints {
            server: Some(server.trim_end_matches('/').to_string()),
            callback_port: Some(0),
        }
    }

    /// The URL to use for the real endpoint `real`.
    pub fn url(&self, real: &str) -> String {
        let Some(server) = &self.server else {
            return real.to_string();
        };
        match url::Url::parse(real) {
            Ok(u) => match u.query() {
                Some(q) => format!("{server}{}?{q}", u.path()),
                None => format!("{server}{}", u.path()),
            },
            Err(_) => real.to_string(),
        }
    }

    /// The callback port to listen on instead of `default`.
    pub fn callback_port(&self, default: u16) -> u16 {
        self.callback_port.unwrap_or(default)
    }
}

/// Refresh a provider's tokens.
pub async fn refresh_credential(
    provider: &str,
    credential: &OAuthCredential,
    endpoints: &Endpoints,
) -> Result<OAuthCredential, OAuthError> {
    match provider {
        "anthropic" => anthropic::refresh(endpoints, &credential.refresh).await,
        "openai-codex" => openai_codex::refresh(endpoints, &credential.refresh).await,
        "google-gemini-cli" => google_gemini_cli::refresh(endpoints, &credential.refresh).await,
        "google-antigravity" => google_antigravity::refresh(endpoints, &credential.refresh).await,
        "github-copilot" => {
            let domain = credential
                .extra
                .get("enterpriseUrl")
                .and_then(Value::as_str)
                .and_then(copilot::normalize_domain);
            copilot::copilot_token(endpoints, &credential.refresh, domain.as_deref()).await
        }
        other => match extension::installed() {
            Some(hook) if extension::provider_name(other).is_some() => {
                hook.refresh(other, credential).await
            }
            _ => Err(OAuthError::CannotRefresh {
                provider: other.to_string(),
            }),
        },
    }
}

/// Expiry time (epoch ms) for a token valid `expires_in` seconds from now.
fn expiry_from_now(expires_in: f64) -> i64 {
    super::types::now_ms() + (expires_in * 1000.0) as i64 - EXPIRY_SKEW_MS
}

/// A string field of a token response, or an error naming it.
fn required_str(json: &Value, field: &str, what: Step) -> Result<String, OAuthError> {
    json.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .ok_or_else(|| missing(json, field, what))
}

/// A numeric field of a token response, or an error naming it.
fn required_number(json: &Value, field: &str, what: Step) -> Result<f64, OAuthError> {
    json.get(field)
        .and_then(Value::as_f64)
        .ok_or_else(|| missing(json, field, what))
}

fn missing(json: &Value, field: &str, step: Step) -> OAuthError {
    OAuthError::MissingField {
        step,
        field: field.to_string(),
        body: brief(json),
    }
}

fn brief(json: &Value) -> String {
    let text = json.to_string();
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The client for token requests. It keeps no idle connections, so it works
/// from any runtime (refreshes may run on a short-lived one).
static CLIENT: LazyLock<reqwest::Client> = LazyLock::new(|| {
    super::http::build_client(|builder| {
        builder
            .user_agent(concat!("pi/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(30))
            .pool_max_idle_per_host(0)
    })
});

/// How a request body is encoded.
enum Body<'a> {
    Json(&'a Value),
    Form(&'a [(&'a str, &'a str)]),
    None,
}

/// Send one request to an OAuth endpoint and parse the JSON answer; non-2xx
/// statuses become errors with the status and the body.
async fn send(
    method: reqwest::Method,
    url: &str,
    headers: &[(&str, &str)],
    body: Body<'_>,
    what: Step,
) -> Result<Value, OAuthError> {
    let mut request = CLIENT
        .request(method, url)
        .timeout(REQUEST_TIMEOUT)
        .header("accept", "application/json");
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    request = match body {
        Body::Json(value) => request
            .header("content-type", "application/json")
            .body(value.to_string()),
        Body::Form(pairs) => {
            let encoded = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs.iter())
                .finish();
            request
                .header("content-type", "application/x-www-form-urlencoded")
                .body(encoded)
        }
        Body::None => request,
    };
    let response = request.send().await.map_err(|e| OAuthError::Unreachable {
        step: what,
        url: url.to_string(),
        detail: e.to_string(),
    })?;
    let status = response.status();
    let text = response.text().await.map_err(|e| OAuthError::Unreachable {
        step: what,
        url: url.to_string(),
        detail: e.to_string(),
    })?;
    if !status.is_success() {
        let body: String = text.chars().take(300).collect();
        return Err(OAuthError::Status {
            step: what,
            status: status.as_u16(),
            body,
        });
    }
    serde_json::from_str(&text).map_err(|_| OAuthError::InvalidJson {
        step: what,
        body: text.chars().take(200).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_endpoints_keep_paths() {
        let real = Endpoints::default();
        assert_eq!(
            real.url("https://claude.ai/oauth/authorize"),
            "https://claude.ai/oauth/authorize"
        );
        let local = Endpoints::local("http://127.0.0.1:9/");
        assert_eq!(
            local.url("https://platform.claude.com/v1/oauth/token"),
            "http://127.0.0.1:9/v1/oauth/token"
        );
        assert_eq!(local.callback_port(1455), 0);
        assert_eq!(real.callback_port(1455), 1455);
    }
}
