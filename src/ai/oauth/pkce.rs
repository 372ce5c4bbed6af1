//! PKCE (RFC 7636, S256), OAuth `state` values, and parsing what a user pastes
//! after authorizing in a browser.

use super::OAuthError;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// A PKCE verifier and its S256 challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pkce {
    /// The secret sent with the token exchange.
    pub verifier: String,
    /// `BASE64URL(SHA256(verifier))`, sent with the authorize request.
    pub challenge: String,
}

impl Pkce {
    /// A fresh verifier from 32 random bytes (43 base64url characters).
    pub fn generate() -> Result<Pkce, OAuthError> {
        let bytes = random_bytes::<32>()?;
        Ok(Pkce::from_verifier(&URL_SAFE_NO_PAD.encode(bytes)))
    }

    /// The pair for a known verifier.
    pub fn from_verifier(verifier: &str) -> Pkce {
        Pkce {
            verifier: verifier.to_string(),
            challenge: s256_challenge(verifier),
        }
    }
}

/// The S256 code challenge of a verifier.
pub fn s256_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// A random `state` value: 16 random bytes as lower-case hex.
pub fn random_state() -> Result<String, OAuthError> {
    let bytes = random_bytes::<16>()?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn random_bytes<const N: usize>() -> Result<[u8; N], OAuthError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| OAuthError::NoRandom {
        detail: e.to_string(),
    })?;
    Ok(bytes)
}

/// A code and state the user pasted: a full redirect URL, `code#state`,
/// a query string (`code=...&state=...`), or a bare code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PastedAuthorization {
    /// The authorization code.
    pub code: Option<String>,
    /// The state, when the pasted text carried one.
    pub state: Option<String>,
}

/// Parse pasted authorization input (see [`PastedAuthorization`]).
pub fn parse_pasted(input: &str) -> PastedAuthorization {
    let value = input.trim();
    if value.is_empty() {
        return PastedAuthorization::default();
    }
    let from_pairs = |pairs: url::form_urlencoded::Parse<'_>| {
        let mut out = PastedAuthorization::default();
        for (k, v) in pairs {
            match k.as_ref() {
                "code" if out.code.is_none() => out.code = Some(v.into_owned()),
                "state" if out.state.is_none() => out.state = Some(v.into_owned()),
                _ => {}
            }
        }
        out
    };
    if let Ok(url) = url::Url::parse(value)
        && url.has_host()
    {
        return from_pairs(url.query_pairs());
    }
    if let Some((code, state)) = value.split_once('#') {
        return PastedAuthorization {
            code: Some(code.to_string()).filter(|c| !c.is_empty()),
            state: Some(state.to_string()).filter(|s| !s.is_empty()),
        };
    }
    if value.contains("code=") {
        return from_pairs(url::form_urlencoded::parse(
            value.trim_start_matches('?').as_bytes(),
        ));
    }
    PastedAuthorization {
        code: Some(value.to_string()),
        state: None,
    }
}

/// The code from pasted input, checking its state (when present) against
/// `expected_state`.
pub fn code_from_pasted(input: &str, expected_state: &str) -> Result<String, OAuthError> {
    let pasted = parse_pasted(input);
    if let Some(state) = &pasted.state
        && state != expected_state
    {
        return Err(OAuthError::StateMismatch);
    }
    pasted.code.ok_or(OAuthError::NoCode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7636_appendix_b_vector() {
        let pkce = Pkce::from_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert_eq!(
            pkce.challenge,
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn generated_verifiers_are_long_random_and_url_safe() {
        let a = Pkce::generate().unwrap();
        let b = Pkce::generate().unwrap();
        assert_ne!(a.verifier, b.verifier);
        assert_eq!(a.verifier.len(), 43);
        assert!(
            a.verifier
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_eq!(a.challenge, s256_challenge(&a.verifier));
        let state = random_state().unwrap();
        assert_eq!(state.len(), 32);
        assert_ne!(state, random_state().unwrap());
    }

    #[test]
    fn pasted_input_forms() {
        let url = parse_pasted("http://localhost:1455/auth/callback?code=abc&state=xyz");
        assert_eq!(
            (url.code.as_deref(), url.state.as_deref()),
            (Some("abc"), Some("xyz"))
        );
        let hash = parse_pasted("  abc#xyz ");
        assert_eq!(
            (hash.code.as_deref(), hash.state.as_deref()),
            (Some("abc"), Some("xyz"))
        );
        let query = parse_pasted("code=abc&state=xyz");
        assert_eq!(query.code.as_deref(), Some("abc"));
        let bare = parse_pasted("abc");
        assert_eq!((bare.code.as_deref(), bare.state), (Some("abc"), None));
        assert_eq!(parse_pasted("  "), PastedAuthorization::default());
    }

    #[test]
    fn pasted_state_must_match() {
        assert_eq!(code_from_pasted("abc#s1", "s1").unwrap(), "abc");
        assert_eq!(code_from_pasted("abc", "s1").unwrap(), "abc");
        let err = code_from_pasted("abc#other", "s1").unwrap_err();
        assert_eq!(err, OAuthError::StateMismatch);
        assert_eq!(code_from_pasted(" ", "s1").unwrap_err(), OAuthError::NoCode);
    }
}
