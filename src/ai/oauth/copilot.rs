//! GitHub Copilot login: the GitHub device-code flow (github.com or a GitHub
//! Enterprise Server domain), then the exchange of the GitHub token for a
//! short-lived Copilot token. The GitHub token is stored as `refresh`.

use crate::t;
use std::time::Duration;

use serde_json::{Map, Value};

use super::login::LoginUi;
use super::{
    Body, EXPIRY_SKEW_MS, Endpoints, OAuthError, Step, required_number, required_str, send,
};
use crate::ai::auth::OAuthCredential;

/// Public client id of the Copilot editor integration.
pub const CLIENT_ID: &str = "Iv1.b507a08c87ecfe98";
/// The default API base URL for individual accounts.
pub const DEFAULT_BASE_URL: &str = "https://api.individual.githubcopilot.com";
/// Headers the Copilot token endpoint expects.
pub const COPILOT_HEADERS: [(&str, &str); 4] = [
    ("User-Agent", "GitHubCopilotChat/0.35.0"),
    ("Editor-Version", "vscode/1.107.0"),
    ("Editor-Plugin-Version", "copilot-chat/0.35.0"),
    ("Copilot-Integration-Id", "vscode-chat"),
];
const DEVICE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// The host name of an enterprise domain or URL; `None` for blank or invalid input.
pub fn normalize_domain(input: &str) -> Option<String> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return None;
    }
    let with_scheme = if trimmed.contains("://") {
        trimmed.to_string()
    } else {
        format!("https://{trimmed}")
    };
    url::Url::parse(&with_scheme)
        .ok()?
        .host_str()
        .map(str::to_string)
}

fn device_code_url(domain: &str) -> String {
    format!("https://{domain}/login/device/code")
}

fn access_token_url(domain: &str) -> String {
    format!("https://{domain}/login/oauth/access_token")
}

fn copilot_token_url(domain: &str) -> String {
    format!("https://api.{domain}/copilot_internal/v2/token")
}

/// The API base URL for a Copilot token: from its `proxy-ep` field
/// (`proxy.X` → `https://api.X`), else the enterprise's, else the default.
pub fn base_url(token: &str, enterprise_domain: Option<&str>) -> String {
    let proxy = token
        .split(';')
        .find_map(|part| part.strip_prefix("proxy-ep="))
        .filter(|host| !host.is_empty());
    if let Some(host) = proxy {
        let api = host
            .strip_prefix("proxy.")
            .map_or_else(|| host.to_string(), |rest| format!("api.{rest}"));
        return format!("https://{api}");
    }
    match enterprise_domain {
        Some(domain) => format!("https://copilot-api.{domain}"),
        None => DEFAULT_BASE_URL.to_string(),
    }
}

/// Log in with the device-code flow.
pub async fn login(endpoints: &Endpoints, ui: &dyn LoginUi) -> Result<OAuthCredential, OAuthError> {
    let input = ui.prompt(&t!("pi.oauth.enterprise_prompt")).await?;
    let enterprise = normalize_domain(&input);
    if !input.trim().is_empty() && enterprise.is_none() {
        return Err(OAuthError::InvalidEnterpriseDomain {
            input: input.trim().to_string(),
        });
    }
    let domain = enterprise.clone().unwrap_or_else(|| "github.com".into());
    let device = start_device_flow(endpoints, &domain).await?;
    ui.show_auth(
        &device.verification_uri,
        &t!("pi.oauth.enter_code", code = device.user_code.as_str()),
    );
    let github_token = poll_for_github_token(endpoints, &domain, &device).await?;
    ui.progress(&t!("pi.oauth.copilot_exchange"));
    let credential = copilot_token(endpoints, &github_token, enterprise.as_deref()).await?;
    ui.progress(&t!("pi.oauth.enabling_models"));
    enable_models(endpoints, &credential.access, enterprise.as_deref()).await;
    Ok(credential)
}

/// Accept the usage policy of every catalog Copilot model for this account
/// (some models answer "model not supported" until then). Best effort:
/// failures are ignored.
pub async fn enable_models(endpoints: &Endpoints, token: &str, enterprise_domain: Option<&str>) {
    let base = base_url(token, enterprise_domain);
    let bearer = format!("Bearer {token}");
    let body = serde_json::json!({"state": "enabled"});
    let requests = crate::ai::catalog::builtin_models_for("github-copilot").map(|model| {
        let url = endpoints.url(&format!("{base}/models/{}/policy", model.id));
        let mut headers = vec![
            ("Authorization", bearer.as_str()),
            ("openai-intent", "chat-policy"),
            ("x-interaction-type", "chat-policy"),
        ];
        headers.extend(COPILOT_HEADERS);
        let body = &body;
        async move {
            let _ = send(
                reqwest::Method::POST,
                &url,
                &headers,
                Body::Json(body),
                Step::CopilotToken,
            )
            .await;
        }
    });
    futures::future::join_all(requests).await;
}

/// A started device authorization.
#[derive(Debug, Clone)]
pub struct DeviceCode {
    /// Secret polled with.
    pub device_code: String,
    /// Code the user enters.
    pub user_code: String,
    /// Page where the user enters it.
    pub verification_uri: String,
    /// Seconds between polls.
    pub interval: f64,
    /// Seconds until the code expires.
    pub expires_in: f64,
}

/// Ask GitHub for a device code.
pub async fn start_device_flow(
    endpoints: &Endpoints,
    domain: &str,
) -> Result<DeviceCode, OAuthError> {
    let what = Step::DeviceCode;
    let answer = send(
        reqwest::Method::POST,
        &endpoints.url(&device_code_url(domain)),
        &[("User-Agent", COPILOT_HEADERS[0].1)],
        Body::Form(&[("client_id", CLIENT_ID), ("scope", "read:user")]),
        what,
    )
    .await?;
    Ok(DeviceCode {
        device_code: required_str(&answer, "device_code", what)?,
        user_code: required_str(&answer, "user_code", what)?,
        verification_uri: required_str(&answer, "verification_uri", what)?,
        interval: required_number(&answer, "interval", what)?,
        expires_in: required_number(&answer, "expires_in", what)?,
    })
}

/// Poll until the user authorized the device; returns the GitHub access token.
pub async fn poll_for_github_token(
    endpoints: &Endpoints,
    domain: &str,
    device: &DeviceCode,
) -> Result<String, OAuthError> {
    let deadline =
        tokio::time::Instant::now() + Duration::from_secs_f64(device.expires_in.max(0.0));
    let mut interval = Duration::from_secs_f64(device.interval.max(1.0));
    let mut factor = 1.2;
    let mut slowed = false;
    let url = endpoints.url(&access_token_url(domain));
    let form = [
        ("client_id", CLIENT_ID),
        ("device_code", device.device_code.as_str()),
        ("grant_type", DEVICE_GRANT),
    ];
    while tokio::time::Instant::now() < deadline {
        let wait = interval.mul_f64(factor);
        tokio::time::sleep_until((tokio::time::Instant::now() + wait).min(deadline)).await;
        let answer = send(
            reqwest::Method::POST,
            &url,
            &[("User-Agent", COPILOT_HEADERS[0].1)],
            Body::Form(&form),
            Step::DeviceAuthorization,
        )
        .await?;
        if let Some(token) = answer.get("access_token").and_then(Value::as_str) {
            return Ok(token.to_string());
        }
        match answer.get("error").and_then(Value::as_str) {
            Some("authorization_pending") => {}
            Some("slow_down") => {
                slowed = true;
                factor = 1.4;
                interval = match answer.get("interval").and_then(Value::as_f64) {
                    Some(s) if s > 0.0 => Duration::from_secs_f64(s),
                    _ => interval + Duration::from_secs(5),
                };
            }
            Some(error) => {
                return Err(OAuthError::DeviceDenied {
                    error: error.to_string(),
                    description: answer
                        .get("error_description")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                });
            }
            None => {
                return Err(OAuthError::DeviceNoAnswer {
                    body: answer.to_string(),
                });
            }
        }
    }
    Err(OAuthError::DeviceTimeout { slowed })
}

/// Exchange a GitHub token for a Copilot token (also the refresh step).
pub async fn copilot_token(
    endpoints: &Endpoints,
    github_token: &str,
    enterprise_domain: Option<&str>,
) -> Result<OAuthCredential, OAuthError> {
    let domain = enterprise_domain.unwrap_or("github.com");
    let bearer = format!("Bearer {github_token}");
    let mut headers = vec![("Authorization", bearer.as_str())];
    headers.extend(COPILOT_HEADERS);
    let what = Step::CopilotToken;
    let answer = send(
        reqwest::Method::GET,
        &endpoints.url(&copilot_token_url(domain)),
        &headers,
        Body::None,
        what,
    )
    .await?;
    let mut extra = Map::new();
    if let Some(domain) = enterprise_domain {
        extra.insert("enterpriseUrl".into(), domain.into());
    }
    Ok(OAuthCredential {
        access: required_str(&answer, "token", what)?,
        refresh: github_token.to_string(),
        expires: (required_number(&answer, "expires_at", what)? * 1000.0) as i64 - EXPIRY_SKEW_MS,
        extra,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_and_base_urls() {
        assert_eq!(
            normalize_domain(" https://company.ghe.com/x ").as_deref(),
            Some("company.ghe.com")
        );
        assert_eq!(
            normalize_domain("company.ghe.com").as_deref(),
            Some("company.ghe.com")
        );
        assert_eq!(normalize_domain("  "), None);
        assert_eq!(
            base_url(
                "tid=1;exp=2;proxy-ep=proxy.business.githubcopilot.com;x=y",
                None
            ),
            "https://api.business.githubcopilot.com"
        );
        assert_eq!(
            base_url("tid=1", Some("company.ghe.com")),
            "https://copilot-api.company.ghe.com"
        );
        assert_eq!(base_url("tid=1", None), DEFAULT_BASE_URL);
    }
}
