//! The `bedrock-converse-stream` wire protocol: POST
//! `/model/{modelId}/converse-stream`, SigV4-signed (or a Bedrock API key as
//! bearer token), and decode the `application/vnd.amazon.eventstream` binary
//! frames into message events. A request rejected for clock skew is signed
//! again with the server's clock.

pub mod request;
pub mod sign;
pub mod stream;

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use aws_smithy_eventstream::frame::{DecodedFrame, MessageFrameDecoder};
use bytes::{Buf, BytesMut};
use serde_json::Value;

use crate::ai::catalog::AMBIENT_CREDENTIALS;
use crate::ai::events::MessageBuilder;
use crate::ai::http::{client, header_map, network_error, retry_after_secs};
use crate::ai::providers::bedrock::request::build_body;
use crate::ai::providers::bedrock::sign::{load_credentials, sign_request};
use crate::ai::providers::bedrock::stream::ConverseStreamState;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::wait::{FirstByteDeadline, ProgressGuard, until_first_byte};
use crate::config::config_value::Env;

/// Amazon Bedrock ConverseStream.
pub struct BedrockConverseStream {
    env: Env,
    /// Seconds to add to the local clock when signing (learned from skew errors).
    clock_offset: AtomicI64,
}

impl Default for BedrockConverseStream {
    fn default() -> Self {
        Self::with_env(Env::system())
    }
}

impl BedrockConverseStream {
    /// A provider reading region and credentials from `env`.
    pub fn with_env(env: Env) -> Self {
        BedrockConverseStream {
            env,
            clock_offset: AtomicI64::new(0),
        }
    }

    fn region(&self, base_url: &str) -> String {
        self.env
            .var("AWS_REGION")
            .or_else(|| self.env.var("AWS_DEFAULT_REGION"))
            .or_else(|| endpoint_region(base_url))
            .unwrap_or_else(|| "us-east-1".to_string())
    }

    fn signing_time(&self) -> SystemTime {
        let offset = self.clock_offset.load(Ordering::Relaxed);
        let now = SystemTime::now();
        if offset >= 0 {
            now + Duration::from_secs(offset as u64)
        } else {
            now - Duration::from_secs(offset.unsigned_abs())
        }
    }
}

/// The region of a standard `bedrock-runtime.{region}.amazonaws.com` endpoint.
fn endpoint_region(base_url: &str) -> Option<String> {
    let host = url::Url::parse(base_url).ok()?.host_str()?.to_lowercase();
    let rest = host
        .strip_prefix("bedrock-runtime-fips.")
        .or_else(|| host.strip_prefix("bedrock-runtime."))?;
    let region = rest
        .strip_suffix(".amazonaws.com")
        .or_else(|| rest.strip_suffix(".amazonaws.com.cn"))?;
    Some(region.to_string())
}

/// True for AWS error texts that mean the request time was off.
fn is_clock_skew(body: &str) -> bool {
    [
        "Signature expired",
        "Signature not yet current",
        "RequestTimeTooSkewed",
    ]
    .iter()
    .any(|p| body.contains(p))
}

#[async_trait]
impl ApiProvider for BedrockConverseStream {
    fn api(&self) -> &str {
        "bedrock-converse-stream"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model = &req.model;
        let region = self.region(&model.base_url);
        let base = match endpoint_region(&model.base_url) {
            Some(_) => format!("https://bedrock-runtime.{region}.amazonaws.com"),
            None => model.base_url.trim_end_matches('/').to_string(),
        };
        let model_path: String =
            url::form_urlencoded::byte_serialize(model.id.as_bytes()).collect();
        let url = format!("{base}/model/{model_path}/converse-stream");
        let mut body = build_body(model, &req.context, &req.options);
        if let Some(hooks) = &req.options.hooks {
            body = hooks.before_request(body).await;
        }
        let payload = serde_json::to_vec(&body).map_err(|e| ProviderError::new(e.to_string()))?;
        let bearer = req
            .options
            .api_key
            .clone()
            .filter(|k| !k.is_empty() && k != AMBIENT_CREDENTIALS)
            .or_else(|| self.env.var("AWS_BEARER_TOKEN_BEDROCK"));
        let parsed = url::Url::parse(&url)
            .map_err(|e| ProviderError::new(format!("Invalid Bedrock URL {url}: {e}")))?;
        let host = match parsed.port() {
            Some(port) => format!("{}:{port}", parsed.host_str().unwrap_or_default()),
            None => parsed.host_str().unwrap_or_default().to_string(),
        };
        let mut extra: Vec<(String, String)> = model
            .headers
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect();
        extra.extend(req.options.headers.clone());
        let mut attempt = 0;
        let response = loop {
            attempt += 1;
            let mut headers = vec![
                ("host".to_string(), host.clone()),
                ("content-type".to_string(), "application/json".to_string()),
                (
                    "accept".to_string(),
                    "application/vnd.amazon.eventstream".to_string(),
                ),
            ];
            headers.extend(extra.iter().cloned());
            match &bearer {
                Some(token) => headers.push(("authorization".into(), format!("Bearer {token}"))),
                None => {
                    let creds = load_credentials(&self.env)?;
                    let signed = sign_request(
                        "POST",
                        &url,
                        &headers,
                        &payload,
                        &creds,
                        &region,
                        "bedrock",
                        self.signing_time(),
                    )?;
                    headers.extend(signed);
                }
            }
            let map = header_map(
                headers
                    .iter()
                    .filter(|(k, _)| k != "host")
                    .map(|(k, v)| (k.as_str(), v.as_str())),
            )?;
            let request = client().post(&url).headers(map).body(payload.clone());
            let progress = ProgressGuard::begin(&url);
            let first_byte = FirstByteDeadline::for_request(req.options.deadline);
            let response = until_first_byte(first_byte, &req.model.provider, async {
                request.send().await.map_err(network_error)
            })
            .await?;
            drop(progress);
            if let Some(h) = &req.options.hooks {
                let seen = response
                    .headers()
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.as_str().to_lowercase(),
                            v.to_str().unwrap_or_default().to_string(),
                        )
                    })
                    .collect();
                h.after_response(response.status().as_u16(), seen).await;
            }
            let status = response.status().as_u16();
            if (200..300).contains(&status) {
                break response;
            }
            let headers = response.headers().clone();
            let text = response.text().await.unwrap_or_default();
            let server_date = headers
                .get("date")
                .and_then(|d| d.to_str().ok())
                .and_then(|d| chrono::DateTime::parse_from_rfc2822(d).ok());
            if status == 403 && is_clock_skew(&text) && bearer.is_none() {
                if let (Some(date), 1) = (server_date, attempt) {
                    let skew = date.timestamp() - chrono::Utc::now().timestamp();
                    self.clock_offset.store(skew, Ordering::Relaxed);
                    continue;
                }
                return Err(ProviderError::new(format!(
                    "403 {}\nThe request signature was rejected for its time: check the system clock.",
                    describe_aws_error(&headers, &text)
                )));
            }
            let mut message = format!("{status} {}", describe_aws_error(&headers, &text));
            if status == 401 || status == 403 {
                message.push('\n');
                message.push_str(crate::ai::providers::bedrock::sign::BEDROCK_CREDENTIALS_HINT);
            }
            return Err(ProviderError::http(
                status,
                message,
                retry_after_secs(&headers),
            ));
        };
        out.start();
        let mut state = ConverseStreamState::new(model);
        let mut decoder = MessageFrameDecoder::new();
        let mut buffer = BytesMut::new();
        let mut response = response;
        loop {
            while buffer.has_remaining() {
                match decoder.decode_frame(&mut buffer) {
                    Ok(DecodedFrame::Complete(message)) => state.handle(&message, out)?,
                    Ok(DecodedFrame::Incomplete) => break,
                    Err(e) => {
                        return Err(ProviderError::new(format!(
                            "Malformed event-stream frame from Bedrock: {e}"
                        )));
                    }
                }
            }
            match response.chunk().await.map_err(network_error)? {
                Some(bytes) => {
                    if buffer.is_empty() && state.is_fresh() && bytes.starts_with(b"<") {
                        return Err(crate::ai::http::html_error(
                            200,
                            &String::from_utf8_lossy(&bytes),
                        ));
                    }
                    buffer.extend_from_slice(&bytes);
                }
                None => break,
            }
        }
        state.finish(out)
    }
}

/// `Type: message` from an AWS JSON error body and `x-amzn-errortype`.
fn describe_aws_error(headers: &reqwest::header::HeaderMap, body: &str) -> String {
    let kind = headers
        .get("x-amzn-errortype")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(':').next().unwrap_or(v).to_string());
    let json: Option<Value> = serde_json::from_str(body).ok();
    let message = json
        .as_ref()
        .and_then(|j| j.get("message").or_else(|| j.get("Message")))
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| crate::ai::http::describe_error_body(body));
    match kind {
        Some(k) if !k.is_empty() => format!("{k}: {message}"),
        _ => message,
    }
}
