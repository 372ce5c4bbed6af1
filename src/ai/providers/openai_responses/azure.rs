//! The `azure-openai-responses` wire protocol: the OpenAI Responses API served
//! by an Azure OpenAI resource. Differences from `openai-responses`: the base
//! URL comes from `AZURE_OPENAI_BASE_URL` or `AZURE_OPENAI_RESOURCE_NAME`
//! (else the model's `baseUrl`), requests carry `?api-version=`
//! (`AZURE_OPENAI_API_VERSION`, default `v1`) and an `api-key` header, and
//! `model` names the deployment (`AZURE_OPENAI_DEPLOYMENT_NAME_MAP`,
//! `model=deployment,...`, else the model id).

use async_trait::async_trait;
use serde_json::json;

use crate::ai::events::MessageBuilder;
use crate::ai::http::{configured_headers, header_map, join_url, post_stream, resolve_api_key};
use crate::ai::providers::openai_responses::request::build_body;
use crate::ai::providers::openai_responses::{ENDED_EARLY, decode_responses};
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::config::config_value::Env;

/// Azure OpenAI Responses over SSE.
#[derive(Default)]
pub struct AzureOpenAiResponses {
    env: Env,
}

impl AzureOpenAiResponses {
    /// A provider reading the Azure settings from `env`.
    pub fn with_env(env: Env) -> Self {
        AzureOpenAiResponses { env }
    }

    /// The resource base URL, normalised to end in `/openai/v1` on Azure hosts.
    fn base_url(&self, model_base: &str) -> Result<String, ProviderError> {
        let base = self
            .env
            .var("AZURE_OPENAI_BASE_URL")
            .filter(|b| !b.trim().is_empty())
            .or_else(|| {
                self.env
                    .var("AZURE_OPENAI_RESOURCE_NAME")
                    .map(|r| format!("https://{r}.openai.azure.com/openai/v1"))
            })
            .or_else(|| Some(model_base.to_string()).filter(|b| !b.trim().is_empty()))
            .ok_or_else(|| {
                ProviderError::new(
                    "Azure OpenAI base URL is required: set AZURE_OPENAI_BASE_URL or \
                     AZURE_OPENAI_RESOURCE_NAME, or give the model a baseUrl in models.json.",
                )
            })?;
        let mut url = url::Url::parse(base.trim()).map_err(|e| {
            ProviderError::new(format!("Invalid Azure OpenAI base URL {base}: {e}"))
        })?;
        let host = url.host_str().unwrap_or_default().to_string();
        let path = url.path().trim_end_matches('/').to_string();
        let azure_host =
            host.ends_with(".openai.azure.com") || host.ends_with(".cognitiveservices.azure.com");
        if azure_host && (path.is_empty() || path == "/openai") {
            url.set_path("/openai/v1");
            url.set_query(None);
        }
        Ok(url.as_str().trim_end_matches('/').to_string())
    }

    /// The deployment serving `model_id`.
    fn deployment(&self, model_id: &str) -> String {
        self.env
            .var("AZURE_OPENAI_DEPLOYMENT_NAME_MAP")
            .unwrap_or_default()
            .split(',')
            .filter_map(|entry| entry.split_once('='))
            .find(|(m, d)| m.trim() == model_id && !d.trim().is_empty())
            .map_or_else(|| model_id.to_string(), |(_, d)| d.trim().to_string())
    }
}

#[async_trait]
impl ApiProvider for AzureOpenAiResponses {
    fn api(&self) -> &str {
        "azure-openai-responses"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model = &req.model;
        let api_key = resolve_api_key(model, &req.options)?;
        let mut body = build_body(model, &req.context, &req.options);
        body["model"] = json!(self.deployment(&model.id));
        if let Some(session) = &req.options.session_id {
            body["prompt_cache_key"] = json!(session);
        }
        let version = self
            .env
            .var("AZURE_OPENAI_API_VERSION")
            .unwrap_or_else(|| "v1".to_string());
        let url = format!(
            "{}?api-version={version}",
            join_url(&self.base_url(&model.base_url)?, "responses")
        );
        let mut ordered: Vec<(&str, &str)> = vec![("api-key", api_key.as_str())];
        ordered.extend(configured_headers(model, &req.options));
        let headers = header_map(ordered)?;
        let mut sse = post_stream(&url, headers, &body, req).await?;
        decode_responses(&mut sse, model, out, |event| event, ENDED_EARLY).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_sources_and_normalisation() {
        let p = AzureOpenAiResponses::with_env(Env::from_pairs(&[(
            "AZURE_OPENAI_RESOURCE_NAME",
            "res",
        )]));
        assert_eq!(
            p.base_url("").unwrap(),
            "https://res.openai.azure.com/openai/v1"
        );
        let p = AzureOpenAiResponses::with_env(Env::from_pairs(&[(
            "AZURE_OPENAI_BASE_URL",
            "https://x.cognitiveservices.azure.com/openai/",
        )]));
        assert_eq!(
            p.base_url("").unwrap(),
            "https://x.cognitiveservices.azure.com/openai/v1"
        );
        let p = AzureOpenAiResponses::with_env(Env::from_pairs(&[]));
        assert_eq!(
            p.base_url("http://127.0.0.1:9/az").unwrap(),
            "http://127.0.0.1:9/az"
        );
        assert!(
            p.base_url("")
                .unwrap_err()
                .message
                .contains("AZURE_OPENAI_BASE_URL")
        );
    }

    #[test]
    fn deployment_map_overrides_model_id() {
        let p = AzureOpenAiResponses::with_env(Env::from_pairs(&[(
            "AZURE_OPENAI_DEPLOYMENT_NAME_MAP",
            "gpt-5=prod-gpt5, gpt-4o=legacy",
        )]));
        assert_eq!(p.deployment("gpt-5"), "prod-gpt5");
        assert_eq!(p.deployment("gpt-4o"), "legacy");
        assert_eq!(p.deployment("o3"), "o3");
    }
}
