//! The `google-vertex` wire protocol: Gemini's streaming protocol served by
//! Vertex AI. With an API key (`GOOGLE_CLOUD_API_KEY`) requests go to the
//! global publisher path; otherwise a bearer token from Application Default
//! Credentials is sent to `projects/{project}/locations/{location}/...`
//! (`GOOGLE_CLOUD_PROJECT`/`GCLOUD_PROJECT`, `GOOGLE_CLOUD_LOCATION`).

use async_trait::async_trait;

use crate::ai::catalog::AMBIENT_CREDENTIALS;
use crate::ai::events::MessageBuilder;
use crate::ai::http::join_url;
use crate::ai::providers::google::auth::access_token;
use crate::ai::providers::google::run_gemini;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::config::config_value::Env;

/// Marker some configurations use instead of a key: "use ADC".
const CREDENTIALS_MARKER: &str = "gcp-vertex-credentials";

/// Vertex AI over SSE.
#[derive(Default)]
pub struct GoogleVertex {
    env: Env,
}

impl GoogleVertex {
    /// A provider reading project, location and credentials from `env`.
    pub fn with_env(env: Env) -> Self {
        GoogleVertex { env }
    }

    /// The API key to use, if the request carries a real one.
    fn api_key(&self, req: &StreamRequest) -> Option<String> {
        let key = req
            .options
            .api_key
            .clone()
            .or_else(|| self.env.var("GOOGLE_CLOUD_API_KEY"))?;
        let key = key.trim().to_string();
        let placeholder = key.starts_with('<') && key.ends_with('>');
        (!key.is_empty() && key != AMBIENT_CREDENTIALS && key != CREDENTIALS_MARKER && !placeholder)
            .then_some(key)
    }
}

/// `base_url` with `{location}` filled in and the API version appended
/// unless it already names one.
fn versioned_base(base_url: &str, location: &str) -> String {
    let base = base_url.trim().replace("{location}", location);
    let has_version = base
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .is_some_and(|seg| {
            seg.starts_with('v') && seg[1..].starts_with(|c: char| c.is_ascii_digit())
        });
    if has_version {
        base
    } else {
        join_url(&base, "v1")
    }
}

#[async_trait]
impl ApiProvider for GoogleVertex {
    fn api(&self) -> &str {
        "google-vertex"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model_path = format!(
            "publishers/google/models/{}:streamGenerateContent?alt=sse",
            req.model.id
        );
        if let Some(key) = self.api_key(req) {
            let base = if req.model.base_url.contains("{location}") || req.model.base_url.is_empty()
            {
                "https://aiplatform.googleapis.com".to_string()
            } else {
                req.model.base_url.clone()
            };
            let url = join_url(&versioned_base(&base, "global"), &model_path);
            return run_gemini(req, out, &url, vec![("x-goog-api-key".into(), key)]).await;
        }
        let project = self
            .env
            .var("GOOGLE_CLOUD_PROJECT")
            .or_else(|| self.env.var("GCLOUD_PROJECT"))
            .ok_or_else(|| {
                ProviderError::new(
                    "Vertex AI requires a project ID: set GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT).",
                )
            })?;
        let location = self.env.var("GOOGLE_CLOUD_LOCATION").ok_or_else(|| {
            ProviderError::new(
                "Vertex AI requires a location: set GOOGLE_CLOUD_LOCATION (e.g. us-central1).",
            )
        })?;
        let token = access_token(&self.env)
            .await
            .map_err(|e| ProviderError::new(format!("Vertex AI: {e}")))?;
        let base = if req.model.base_url.is_empty() {
            "https://{location}-aiplatform.googleapis.com"
        } else {
            req.model.base_url.as_str()
        };
        let url = join_url(
            &versioned_base(base, &location),
            &format!("projects/{project}/locations/{location}/{model_path}"),
        );
        run_gemini(
            req,
            out,
            &url,
            vec![("authorization".into(), format!("Bearer {token}"))],
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_get_location_and_version() {
        assert_eq!(
            versioned_base(
                "https://{location}-aiplatform.googleapis.com",
                "europe-west4"
            ),
            "https://europe-west4-aiplatform.googleapis.com/v1"
        );
        assert_eq!(
            versioned_base("http://127.0.0.1:9/v1beta1/", "x"),
            "http://127.0.0.1:9/v1beta1/"
        );
        assert_eq!(
            versioned_base("http://127.0.0.1:9", "x"),
            "http://127.0.0.1:9/v1"
        );
    }
}
