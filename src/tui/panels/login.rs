//! The `/login` dialog: how to authenticate (a subscription or an API key),
//! then the provider, then, for an API key, a masked field for the key.

use crate::t;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::text::{Line, Span};

use crate::tui::panels::selector::{Selector, SelectorItem, SelectorOutcome, title_and_field};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::truncate;
use crate::ui_kit::theme::Theme;

/// A provider offered by the dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginProvider {
    /// Provider id, e.g. `openai`.
    pub id: String,
    /// Name shown.
    pub name: String,
    /// Shown dimmed after the name: the id, the key's environment variables, where a
    /// credential already comes from.
    pub detail: String,
}

/// Which step the dialog is at.
pub enum LoginDialog {
    /// "Use a subscription" or "Use an API key".
    Method(Selector),
    /// Subscription providers.
    Subscription(Selector, Vec<LoginProvider>),
    /// Providers that take an API key.
    ApiKeyProvider(Selector, Vec<LoginProvider>),
    /// Typing the key (never shown) for a provider.
    ApiKey {
        /// The provider the key is for.
        provider: LoginProvider,
        /// The key typed or pasted so far.
        key: String,
    },
}

/// What a key did to the dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginOutcome {
    /// Still open (possibly at another step).
    Open,
    /// Closed without a choice.
    Cancelled,
    /// Go to the subscription providers.
    ChooseSubscription,
    /// Go to the API key providers.
    ChooseApiKey,
    /// Go back to the first step.
    Back,
    /// Start the subscription login of this provider.
    Subscribe(String),
    /// Ask for the key of this provider.
    AskKey(LoginProvider),
    /// Save this key for this provider.
    SaveKey(LoginProvider, String),
}

fn provider_selector(title: &'static str, providers: &[LoginProvider]) -> Selector {
    let items = providers
        .iter()
        .map(|p| SelectorItem {
            label: p.name.clone(),
            detail: p.detail.clone(),
        })
        .collect();
    Selector::keyed(title, items, 0)
}

/// What picking in a provider list leads to; Esc goes back to the first step.
fn picked(
    outcome: SelectorOutcome,
    providers: &[LoginProvider],
    then: impl Fn(&LoginProvider) -> LoginOutcome,
) -> LoginOutcome {
    match outcome {
        SelectorOutcome::Open => LoginOutcome::Open,
        SelectorOutcome::Cancelled => LoginOutcome::Back,
        SelectorOutcome::Picked(i) => providers.get(i).map_or(LoginOutcome::Open, then),
    }
}

impl LoginDialog {
    /// The first step.
    pub fn method() -> LoginDialog {
        let items = ["pi.login.method.subscription", "pi.login.method.api_key"]
            .into_iter()
            .map(|key| SelectorItem {
                label: crate::i18n::t(key, &[]),
                detail: String::new(),
            })
            .collect();
        LoginDialog::Method(Selector::keyed("pi.login.method.title", items, 0))
    }

    /// The subscription providers.
    pub fn subscription(providers: Vec<LoginProvider>) -> LoginDialog {
        LoginDialog::Subscription(provider_selector("pi.login.title", &providers), providers)
    }

    /// The providers taking an API key, searchable.
    pub fn api_key_provider(providers: Vec<LoginProvider>) -> LoginDialog {
        LoginDialog::ApiKeyProvider(
            provider_selector("pi.login.api_key.title", &providers),
            providers,
        )
    }

    /// Handle a key.
    pub fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> LoginOutcome {
        match self {
            LoginDialog::Method(s) => match s.handle_key(key, kb) {
                SelectorOutcome::Open => LoginOutcome::Open,
                SelectorOutcome::Cancelled => LoginOutcome::Cancelled,
                SelectorOutcome::Picked(0) => LoginOutcome::ChooseSubscription,
                SelectorOutcome::Picked(_) => LoginOutcome::ChooseApiKey,
            },
            LoginDialog::Subscription(s, providers) => {
                picked(s.handle_key(key, kb), providers, |p| {
                    LoginOutcome::Subscribe(p.id.clone())
                })
            }
            LoginDialog::ApiKeyProvider(s, providers) => {
                picked(s.handle_key(key, kb), providers, |p| {
                    LoginOutcome::AskKey(p.clone())
                })
            }
            LoginDialog::ApiKey {
                provider,
                key: typed,
            } => {
                if kb.matches("tui.select.cancel", key) {
                    return LoginOutcome::Cancelled;
                }
                match key.code {
                    KeyCode::Enter => {
                        return LoginOutcome::SaveKey(provider.clone(), typed.trim().to_string());
                    }
                    KeyCode::Backspace => {
                        typed.pop();
                    }
                    KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                        typed.clear()
                    }
                    KeyCode::Char(c)
                        if !key
                            .modifiers
                            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
                    {
                        typed.push(c)
                    }
                    _ => {}
                }
                LoginOutcome::Open
            }
        }
    }

    /// Pasted text goes into the key field; `false` at the other steps.
    pub fn paste(&mut self, text: &str) -> bool {
        match self {
            LoginDialog::ApiKey { key, .. } => {
                key.extend(text.chars().filter(|c| !c.is_control()));
                true
            }
            _ => false,
        }
    }

    /// Lines to draw at `width` columns.
    pub fn lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        match self {
            LoginDialog::Method(s)
            | LoginDialog::Subscription(s, _)
            | LoginDialog::ApiKeyProvider(s, _) => s.lines(theme, width),
            LoginDialog::ApiKey { provider, key } => {
                let masked = "•".repeat(key.chars().count());
                let title = t!("pi.login.api_key.prompt", provider = &provider.name);
                let mut lines = title_and_field(&title, &masked, theme, width);
                lines.push(Line::from(Span::styled(
                    truncate(&t!("pi.login.api_key.hint"), width, "…"),
                    theme.fg("dim"),
                )));
                lines
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(d: &mut LoginDialog, code: KeyCode) -> LoginOutcome {
        d.handle_key(
            &KeyEvent::new(code, KeyModifiers::NONE),
            &Keybindings::default(),
        )
    }

    fn providers() -> Vec<LoginProvider> {
        ["OpenAI", "Groq", "Mistral"]
            .iter()
            .map(|n| LoginProvider {
                id: n.to_lowercase(),
                name: n.to_string(),
                detail: String::new(),
            })
            .collect()
    }

    #[test]
    fn method_then_a_searched_provider_then_a_masked_key() {
        let mut d = LoginDialog::method();
        assert_eq!(press(&mut d, KeyCode::Down), LoginOutcome::Open);
        assert_eq!(press(&mut d, KeyCode::Enter), LoginOutcome::ChooseApiKey);
        let mut d = LoginDialog::api_key_provider(providers());
        for c in "groq".chars() {
            press(&mut d, KeyCode::Char(c));
        }
        let LoginOutcome::AskKey(p) = press(&mut d, KeyCode::Enter) else {
            panic!("a provider is picked")
        };
        assert_eq!(p.id, "groq");
        let mut d = LoginDialog::ApiKey {
            provider: p,
            key: String::new(),
        };
        assert!(d.paste("sk-secret\n"));
        press(&mut d, KeyCode::Char('9'));
        let drawn: String = d
            .lines(&Theme::plain(), 60)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert!(!drawn.contains("secret"), "{drawn}");
        assert!(drawn.contains("••••••••••"), "{drawn}");
        assert!(matches!(
            press(&mut d, KeyCode::Enter),
            LoginOutcome::SaveKey(p, k) if p.id == "groq" && k == "sk-secret9"
        ));
    }

    #[test]
    fn escape_goes_back_from_a_provider_list_and_cancels_the_key() {
        let mut d = LoginDialog::subscription(providers());
        assert_eq!(press(&mut d, KeyCode::Esc), LoginOutcome::Back);
        let mut d = LoginDialog::ApiKey {
            provider: providers()[0].clone(),
            key: "x".into(),
        };
        assert_eq!(press(&mut d, KeyCode::Esc), LoginOutcome::Cancelled);
    }
}
