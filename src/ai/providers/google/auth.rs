//! Google Cloud access tokens for Vertex AI from Application Default
//! Credentials: an explicit `GOOGLE_OAUTH_ACCESS_TOKEN`, or the ADC file
//! (`GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's
//! `application_default_credentials.json`) holding either an
//! `authorized_user` refresh token or a `service_account` key (signed JWT
//! grant). Tokens are cached per credentials file until shortly before expiry.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::{Value, json};

use crate::ai::http::{client, network_error};
use crate::ai::stream::ProviderError;
use crate::config::config_value::Env;

/// Token endpoint used when the credentials file names none.
const DEFAULT_TOKEN_URI: &str = "https://oauth2.googleapis.com/token";
/// Scope requested for service-account grants.
const CLOUD_PLATFORM_SCOPE: &str = "https://www.googleapis.com/auth/cloud-platform";
/// A cached token is refreshed this long before it expires.
const EXPIRY_MARGIN: Duration = Duration::from_secs(60);

static CACHE: LazyLock<Mutex<HashMap<PathBuf, (String, Instant)>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// How to fix missing or unusable Vertex AI credentials.
pub const VERTEX_CREDENTIALS_HINT: &str = "Set GOOGLE_CLOUD_API_KEY, run `gcloud auth application-default login`, \
     set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, \
     or set GOOGLE_OAUTH_ACCESS_TOKEN (e.g. from `gcloud auth print-access-token`).";

/// The ADC file: `GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's default location.
pub fn adc_path(env: &Env) -> Option<PathBuf> {
    match env.var("GOOGLE_APPLICATION_CREDENTIALS") {
        Some(p) => Some(PathBuf::from(p)),
        None => {
            dirs::home_dir().map(|h| h.join(".config/gcloud/application_default_credentials.json"))
        }
    }
}

/// A bearer token for Google Cloud APIs.
pub async fn access_token(env: &Env) -> Result<String, ProviderError> {
    if let Some(token) = env
        .var("GOOGLE_OAUTH_ACCESS_TOKEN")
        .filter(|t| !t.is_empty())
    {
        return Ok(token);
    }
    let path = adc_path(env).filter(|p| p.exists()).ok_or_else(|| {
        ProviderError::new(format!(
            "No Google Cloud credentials found. {VERTEX_CREDENTIALS_HINT}"
        ))
    })?;
    if let Some((token, until)) = CACHE.lock().ok().and_then(|c| c.get(&path).cloned())
        && Instant::now() < until
    {
        return Ok(token);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| {
        ProviderError::new(format!(
            "Cannot read Google credentials {}: {e}",
            path.display()
        ))
    })?;
    let creds: Value = serde_json::from_str(&text).map_err(|e| {
        ProviderError::new(format!(
            "Google credentials {} are not valid JSON: {e}",
            path.display()
        ))
    })?;
    let field = |k: &str| creds[k].as_str().unwrap_or_default().to_string();
    let token_uri = Some(field("token_uri"))
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| DEFAULT_TOKEN_URI.to_string());
    let form: Vec<(&str, String)> = match creds["type"].as_str() {
        Some("authorized_user") => vec![
            ("grant_type", "refresh_token".into()),
            ("client_id", field("client_id")),
            ("client_secret", field("client_secret")),
            ("refresh_token", field("refresh_token")),
        ],
        Some("service_account") => vec![
            (
                "grant_type",
                "urn:ietf:params:oauth:grant-type:jwt-bearer".into(),
            ),
            (
                "assertion",
                service_account_jwt(&field("client_email"), &field("private_key"), &token_uri)?,
            ),
        ],
        other => {
            return Err(ProviderError::new(format!(
                "Unsupported Google credentials type {:?} in {}. {VERTEX_CREDENTIALS_HINT}",
                other.unwrap_or("(none)"),
                path.display()
            )));
        }
    };
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter().map(|(k, v)| (*k, v.as_str())))
        .finish();
    let response = client()
        .post(&token_uri)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .map_err(network_error)?;
    let status = response.status();
    let text = response.text().await.map_err(network_error)?;
    if !status.is_success() {
        return Err(ProviderError::new(format!(
            "Google token request failed ({status}): {}. {VERTEX_CREDENTIALS_HINT}",
            text.trim()
        )));
    }
    let reply: Value = serde_json::from_str(&text)
        .map_err(|e| ProviderError::new(format!("Google token response is not JSON: {e}")))?;
    let token = reply["access_token"]
        .as_str()
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ProviderError::new("Google token response has no access_token"))?
        .to_string();
    let lifetime = Duration::from_secs(reply["expires_in"].as_u64().unwrap_or(3600));
    if let Ok(mut cache) = CACHE.lock() {
        let until = Instant::now() + lifetime.saturating_sub(EXPIRY_MARGIN);
        cache.insert(path, (token.clone(), until));
    }
    Ok(token)
}

/// A signed (RS256) JWT grant for a service account.
pub fn service_account_jwt(
    client_email: &str,
    private_key_pem: &str,
    token_uri: &str,
) -> Result<String, ProviderError> {
    let now = chrono::Utc::now().timestamp();
    let header = URL_SAFE_NO_PAD.encode(json!({"alg": "RS256", "typ": "JWT"}).to_string());
    let claims = URL_SAFE_NO_PAD.encode(
        json!({"iss": client_email, "scope": CLOUD_PLATFORM_SCOPE, "aud": token_uri,
               "iat": now, "exp": now + 3600})
        .to_string(),
    );
    let signing_input = format!("{header}.{claims}");
    let der = pem_body(private_key_pem)?;
    let key = ring::signature::RsaKeyPair::from_pkcs8(&der).map_err(|e| {
        ProviderError::new(format!(
            "Service-account private_key is not a PKCS#8 RSA key: {e}"
        ))
    })?;
    let mut signature = vec![0; key.public().modulus_len()];
    key.sign(
        &ring::signature::RSA_PKCS1_SHA256,
        &ring::rand::SystemRandom::new(),
        signing_input.as_bytes(),
        &mut signature,
    )
    .map_err(|_| ProviderError::new("Could not sign the service-account token request"))?;
    Ok(format!(
        "{signing_input}.{}",
        URL_SAFE_NO_PAD.encode(signature)
    ))
}

/// The DER bytes inside a PEM block.
fn pem_body(pem: &str) -> Result<Vec<u8>, ProviderError> {
    let b64: String = pem
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("-----") && !l.is_empty())
        .collect();
    STANDARD
        .decode(b64)
        .map_err(|e| ProviderError::new(format!("Service-account private_key is not PEM: {e}")))
}
