//! Cloudflare Workers AI and Cloudflare AI Gateway. Their catalog base URLs name the account
//! (and gateway) as `{CLOUDFLARE_ACCOUNT_ID}` / `{CLOUDFLARE_GATEWAY_ID}`, filled in from the
//! environment when a request is made. Through the gateway the key travels as
//! `cf-aig-authorization` instead of the upstream's own authorization header.

use regex::Regex;

use crate::ai::errors::ProviderError;
use crate::ai::model::Model;

/// The provider reached through Cloudflare's AI Gateway.
pub const GATEWAY: &str = "cloudflare-ai-gateway";
/// Cloudflare's own model hosting.
pub const WORKERS_AI: &str = "cloudflare-workers-ai";

/// Whether `model` belongs to one of the Cloudflare providers.
pub fn is_cloudflare(model: &Model) -> bool {
    model.provider == GATEWAY || model.provider == WORKERS_AI
}

/// `model.base_url` with its `{VARIABLE}` placeholders replaced from the environment (for the
/// Cloudflare providers; other base URLs are returned as they are). A variable that is not
/// set is an error naming it.
pub fn base_url(model: &Model) -> Result<String, ProviderError> {
    if !is_cloudflare(model) || !model.base_url.contains('{') {
        return Ok(model.base_url.clone());
    }
    let Ok(pattern) = Regex::new(r"\{([A-Z_][A-Z0-9_]*)\}") else {
        return Ok(model.base_url.clone());
    };
    let mut missing = None;
    let url = pattern.replace_all(&model.base_url, |caps: &regex::Captures| {
        let name = &caps[1];
        match std::env::var(name).ok().filter(|v| !v.trim().is_empty()) {
            Some(value) => value.trim().to_string(),
            None => {
                missing.get_or_insert_with(|| name.to_string());
                String::new()
            }
        }
    });
    match missing {
        Some(name) => Err(ProviderError::new(format!(
            "{name} is required for provider {} but is not set; export it (see docs/providers.md)",
            model.provider
        ))),
        None => Ok(url.into_owned()),
    }
}

/// The authorization headers of a request: for the AI Gateway the key goes into
/// `cf-aig-authorization` and the upstream's `authorization` / `x-api-key` are dropped;
/// any other provider keeps `headers` as they are.
pub fn auth_headers(
    model: &Model,
    mut headers: Vec<(&'static str, String)>,
    api_key: &str,
) -> Vec<(&'static str, String)> {
    if model.provider == GATEWAY {
        headers.retain(|(name, _)| *name != "authorization" && *name != "x-api-key");
        headers.push(("cf-aig-authorization", format!("Bearer {api_key}")));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(provider: &str, base_url: &str) -> Model {
        serde_json::from_value(serde_json::json!({
            "id": "m", "name": "m", "api": "openai-completions", "provider": provider,
            "baseUrl": base_url
        }))
        .unwrap()
    }

    #[test]
    fn placeholders_are_filled_only_for_cloudflare_and_a_missing_one_is_named() {
        let plain = model("other", "https://x/{NOT_A_PI_TEST_VAR}");
        assert_eq!(base_url(&plain).unwrap(), "https://x/{NOT_A_PI_TEST_VAR}");
        let cf = model(WORKERS_AI, "https://api/{NOT_A_PI_TEST_VAR}/ai/v1");
        let err = base_url(&cf).unwrap_err();
        assert!(
            err.message
                .contains("NOT_A_PI_TEST_VAR is required for provider cloudflare-workers-ai")
        );
        let path = model(WORKERS_AI, "https://api/{PATH}/ai/v1");
        assert!(base_url(&path).unwrap().starts_with("https://api/"));
        assert!(!base_url(&path).unwrap().contains('{'));
    }

    #[test]
    fn the_gateway_sends_the_key_as_cf_aig_authorization() {
        let base = vec![
            ("accept", "application/json".to_string()),
            ("authorization", "Bearer k".to_string()),
        ];
        let gw = auth_headers(&model(GATEWAY, ""), base.clone(), "k");
        assert_eq!(
            gw,
            vec![
                ("accept", "application/json".to_string()),
                ("cf-aig-authorization", "Bearer k".to_string())
            ]
        );
        assert_eq!(
            auth_headers(&model(WORKERS_AI, ""), base.clone(), "k"),
            base
        );
    }
}
