//! AWS credentials and SigV4 request signing for Amazon Bedrock.
//!
//! Credentials come from `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`
//! (+ `AWS_SESSION_TOKEN`), else from the `AWS_PROFILE` (or `default`)
//! section of the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`,
//! default `~/.aws/credentials`). Signing uses the `aws-sigv4` crate.

use std::path::PathBuf;
use std::time::SystemTime;

use aws_credential_types::Credentials;
use aws_sigv4::http_request::{SignableBody, SignableRequest, SigningSettings, sign};
use aws_sigv4::sign::v4;
use aws_smithy_runtime_api::client::identity::Identity;

use crate::ai::stream::ProviderError;
use crate::config::config_value::Env;

/// Static AWS credentials.
#[derive(Debug, Clone, PartialEq)]
pub struct AwsCredentials {
    /// Access key id.
    pub access_key_id: String,
    /// Secret access key.
    pub secret_access_key: String,
    /// Session token of temporary credentials.
    pub session_token: Option<String>,
}

/// How to fix missing Bedrock credentials.
pub const BEDROCK_CREDENTIALS_HINT: &str = "Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for \
     temporary credentials), set AWS_PROFILE to a profile with static keys in ~/.aws/credentials, \
     or set AWS_BEARER_TOKEN_BEDROCK.";

/// Credentials from the environment, else from the shared credentials file.
pub fn load_credentials(env: &Env) -> Result<AwsCredentials, ProviderError> {
    if let (Some(id), Some(secret)) = (
        env.var("AWS_ACCESS_KEY_ID"),
        env.var("AWS_SECRET_ACCESS_KEY"),
    ) {
        return Ok(AwsCredentials {
            access_key_id: id,
            secret_access_key: secret,
            session_token: env.var("AWS_SESSION_TOKEN").filter(|t| !t.is_empty()),
        });
    }
    let profile = env
        .var("AWS_PROFILE")
        .unwrap_or_else(|| "default".to_string());
    let path = env
        .var("AWS_SHARED_CREDENTIALS_FILE")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".aws/credentials")));
    let text = path.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
    text.as_deref()
        .and_then(|t| profile_credentials(t, &profile))
        .ok_or_else(|| {
            ProviderError::new(format!(
                "No AWS credentials for Amazon Bedrock (profile \"{profile}\"). {BEDROCK_CREDENTIALS_HINT}"
            ))
        })
}

/// The static keys of `[profile]` in an AWS credentials (INI) file.
pub fn profile_credentials(ini: &str, profile: &str) -> Option<AwsCredentials> {
    let mut in_section = false;
    let (mut id, mut secret, mut token) = (None, None, None);
    for line in ini.lines().map(str::trim) {
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let name = name.trim();
            in_section = name == profile || name.strip_prefix("profile ") == Some(profile);
            continue;
        }
        if !in_section {
            continue;
        }
        if let Some((key, value)) = line.split_once('=') {
            let value = Some(value.trim().to_string());
            match key.trim() {
                "aws_access_key_id" => id = value,
                "aws_secret_access_key" => secret = value,
                "aws_session_token" => token = value,
                _ => {}
            }
        }
    }
    Some(AwsCredentials {
        access_key_id: id?,
        secret_access_key: secret?,
        session_token: token.filter(|t| !t.is_empty()),
    })
}

/// SigV4-sign a request; returns the headers to add (`x-amz-date`,
/// `authorization`, and `x-amz-security-token` for session credentials).
/// `url` must already be percent-encoded; `headers` are the ones sent.
#[allow(clippy::too_many_arguments)]
pub fn sign_request(
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: &[u8],
    creds: &AwsCredentials,
    region: &str,
    service: &str,
    time: SystemTime,
) -> Result<Vec<(String, String)>, ProviderError> {
    let identity: Identity = Credentials::new(
        &creds.access_key_id,
        &creds.secret_access_key,
        creds.session_token.clone(),
        None,
        "pi",
    )
    .into();
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name(service)
        .time(time)
        .settings(SigningSettings::default())
        .build()
        .map_err(|e| ProviderError::new(format!("SigV4 signing parameters: {e}")))?
        .into();
    let request = SignableRequest::new(
        method,
        url,
        headers.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        SignableBody::Bytes(body),
    )
    .map_err(|e| ProviderError::new(format!("Cannot sign request to {url}: {e}")))?;
    let (instructions, _signature) = sign(request, &params)
        .map_err(|e| ProviderError::new(format!("SigV4 signing failed: {e}")))?
        .into_parts();
    Ok(instructions
        .headers()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// AWS's published SigV4 test suite: credentials, region, service and time.
    fn suite_creds(token: Option<&str>) -> AwsCredentials {
        AwsCredentials {
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".into(),
            session_token: token.map(str::to_string),
        }
    }

    /// 2015-08-30T12:36:00Z.
    fn suite_time() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_440_938_160)
    }

    fn authorization(method: &str, url: &str, token: Option<&str>) -> Vec<(String, String)> {
        let headers = vec![("host".to_string(), "example.amazonaws.com".to_string())];
        sign_request(
            method,
            url,
            &headers,
            b"",
            &suite_creds(token),
            "us-east-1",
            "service",
            suite_time(),
        )
        .unwrap()
    }

    fn header<'a>(headers: &'a [(String, String)], name: &str) -> &'a str {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} in {headers:?}"))
    }

    #[test]
    fn get_vanilla_matches_the_aws_test_vector() {
        let h = authorization("GET", "https://example.amazonaws.com/", None);
        assert_eq!(header(&h, "x-amz-date"), "20150830T123600Z");
        assert_eq!(
            header(&h, "authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, \
             SignedHeaders=host;x-amz-date, \
             Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        );
    }

    #[test]
    fn post_vanilla_and_query_match_the_aws_test_vectors() {
        let h = authorization("POST", "https://example.amazonaws.com/", None);
        assert!(header(&h, "authorization").ends_with(
            "Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"
        ));
        let h = authorization("POST", "https://example.amazonaws.com/?Param1=value1", None);
        assert!(header(&h, "authorization").ends_with(
            "Signature=28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"
        ));
    }

    #[test]
    fn session_token_is_signed_and_sent() {
        let token = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267";
        let h = authorization("GET", "https://example.amazonaws.com/", Some(token));
        assert_eq!(header(&h, "x-amz-security-token"), token);
        assert_eq!(
            header(&h, "authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, \
             SignedHeaders=host;x-amz-date;x-amz-security-token, \
             Signature=07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"
        );
    }

    #[test]
    fn credentials_from_env_then_profile_file() {
        let env = Env::from_pairs(&[
            ("AWS_ACCESS_KEY_ID", "AKID"),
            ("AWS_SECRET_ACCESS_KEY", "SECRET"),
        ]);
        assert_eq!(load_credentials(&env).unwrap().access_key_id, "AKID");
        let ini = "[default]\naws_access_key_id = D\naws_secret_access_key = DS\n\n\
                   [profile work]\naws_access_key_id=W\naws_secret_access_key=WS\naws_session_token=T\n";
        let work = profile_credentials(ini, "work").unwrap();
        assert_eq!(
            (work.access_key_id.as_str(), work.session_token.as_deref()),
            ("W", Some("T"))
        );
        assert_eq!(
            profile_credentials(ini, "default")
                .unwrap()
                .secret_access_key,
            "DS"
        );
        assert_eq!(profile_credentials(ini, "missing"), None);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("credentials");
        std::fs::write(&file, ini).unwrap();
        let env = Env::from_pairs(&[
            ("AWS_PROFILE", "work"),
            ("AWS_SHARED_CREDENTIALS_FILE", file.to_str().unwrap()),
        ]);
        assert_eq!(load_credentials(&env).unwrap().access_key_id, "W");
        let env = Env::from_pairs(&[
            ("AWS_PROFILE", "nope"),
            ("AWS_SHARED_CREDENTIALS_FILE", file.to_str().unwrap()),
        ]);
        let err = load_credentials(&env).unwrap_err().message;
        assert!(
            err.contains("\"nope\"") && err.contains("AWS_ACCESS_KEY_ID"),
            "{err}"
        );
    }
}
