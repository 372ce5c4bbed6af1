//! `/login` and `/logout`: a subscription login runs as a background task
//! that writes its URL, device code and progress into the transcript and
//! takes a pasted code (or the GitHub Enterprise domain) from the editor.

use crate::t;

use std::path::PathBuf;

use async_trait::async_trait;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;

use crate::ai::auth::{AuthStorage, Credential};
use crate::ai::oauth::login::{
    LoginUi, all_providers, login, logout, provider_name, save_api_key, save_login,
};
use crate::ai::oauth::{Endpoints, OAuthError, find_provider};
use crate::ai::registry::ModelRegistry;
use crate::tui::app::{App, Overlay};
use crate::tui::panels::login::{LoginDialog, LoginOutcome, LoginProvider};
use crate::tui::transcript::NoticeKind;

/// What a running login tells the UI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginEvent {
    /// Open `url`; `instructions` say what to do there.
    Auth {
        /// Page to open.
        url: String,
        /// What to do there.
        instructions: String,
    },
    /// A progress message.
    Progress(String),
    /// The next submitted line answers this question.
    Prompt(String),
    /// The login ended: the provider's display name, or the error.
    Done(Result<String, OAuthError>),
}

/// Login state of the app: where credentials live and the running flow.
#[derive(Default)]
pub struct LoginState {
    /// The agent directory holding `auth.json` (unset: logins unavailable).
    pub agent_dir: Option<PathBuf>,
    /// The running process's models; a login reads its credentials again.
    pub catalog: Option<std::sync::Arc<crate::core::model_catalog::ModelCatalog>>,
    flow: Option<LoginFlow>,
}

impl LoginState {
    /// Whether a running login waits for a line from the editor.
    pub fn wants_input(&self) -> bool {
        self.flow.as_ref().is_some_and(|f| f.awaiting_input)
    }
}

struct LoginFlow {
    events: UnboundedReceiver<LoginEvent>,
    answers: UnboundedSender<String>,
    awaiting_input: bool,
    task: JoinHandle<()>,
}

impl Drop for LoginFlow {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The next event of the running login; never resolves when none runs.
pub async fn next_event(state: &mut LoginState) -> LoginEvent {
    let event = match &mut state.flow {
        Some(flow) => flow.events.recv().await,
        None => None,
    };
    match event {
        Some(event) => event,
        None => {
            state.flow = None;
            std::future::pending().await
        }
    }
}

struct TuiLoginUi {
    events: UnboundedSender<LoginEvent>,
    answers: tokio::sync::Mutex<UnboundedReceiver<String>>,
}

#[async_trait]
impl LoginUi for TuiLoginUi {
    fn show_auth(&self, url: &str, instructions: &str) {
        let _ = self.events.send(LoginEvent::Auth {
            url: url.to_string(),
            instructions: instructions.to_string(),
        });
    }
    fn progress(&self, message: &str) {
        let _ = self.events.send(LoginEvent::Progress(message.to_string()));
    }
    async fn prompt(&self, message: &str) -> Result<String, OAuthError> {
        let mut answers = self.answers.lock().await;
        let _ = self.events.send(LoginEvent::Prompt(message.to_string()));
        answers.recv().await.ok_or(OAuthError::Cancelled)
    }
}

impl App {
    /// `/login [provider]`: start a login, or choose a provider first.
    pub(super) fn start_login(&mut self, provider: &str) {
        let Some(agent_dir) = self.login.agent_dir.clone() else {
            self.transcript
                .notice(t!("pi.login.unavailable"), NoticeKind::Warning);
            return;
        };
        if provider.is_empty() {
            self.open_login_selector();
            return;
        }
        let offered = all_providers();
        if !offered.iter().any(|(id, _)| id == provider) {
            self.transcript.notice(
                t!(
                    "pi.login.unknown_provider",
                    provider = provider,
                    providers = offered
                        .iter()
                        .map(|(id, _)| id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                NoticeKind::Error,
            );
            return;
        }
        let (events, event_rx) = unbounded_channel();
        let (answers, answer_rx) = unbounded_channel();
        let ui = TuiLoginUi {
            events: events.clone(),
            answers: tokio::sync::Mutex::new(answer_rx),
        };
        let id = provider.to_string();
        let task = tokio::spawn(async move {
            let result = match login(&id, &Endpoints::from_env(), &ui).await {
                Ok(credential) => {
                    save_login(&agent_dir, &id, credential).map(|()| provider_name(&id).to_string())
                }
                Err(e) => Err(e),
            };
            let _ = events.send(LoginEvent::Done(result));
        });
        self.transcript.notice(
            t!("pi.login.starting", provider = provider_name(provider)),
            NoticeKind::Info,
        );
        // Replacing a running flow cancels it.
        self.login.flow = Some(LoginFlow {
            events: event_rx,
            answers,
            awaiting_input: false,
            task,
        });
    }

    fn open_login_selector(&mut self) {
        self.overlay = Some(Overlay::Login(LoginDialog::method()));
    }

    /// Act on what a key did to the `/login` dialog.
    pub(super) fn login_dialog_outcome(&mut self, outcome: LoginOutcome) {
        match outcome {
            LoginOutcome::Open => {}
            LoginOutcome::Cancelled => self.overlay = None,
            LoginOutcome::Back => self.open_login_selector(),
            LoginOutcome::ChooseSubscription => {
                let providers = all_providers()
                    .into_iter()
                    .map(|(id, name)| LoginProvider {
                        detail: format!("[{id}]"),
                        id,
                        name,
                    })
                    .collect();
                self.overlay = Some(Overlay::Login(LoginDialog::subscription(providers)));
            }
            LoginOutcome::ChooseApiKey => {
                let providers = self
                    .login
                    .agent_dir
                    .as_deref()
                    .map(api_key_providers)
                    .unwrap_or_default();
                self.overlay = Some(Overlay::Login(LoginDialog::api_key_provider(providers)));
            }
            LoginOutcome::Subscribe(id) => {
                self.overlay = None;
                self.start_login(&id);
            }
            LoginOutcome::AskKey(provider) => {
                self.overlay = Some(Overlay::Login(LoginDialog::ApiKey {
                    provider,
                    key: String::new(),
                }));
            }
            LoginOutcome::SaveKey(provider, key) => {
                if key.is_empty() {
                    self.transcript
                        .notice(t!("pi.login.api_key.empty"), NoticeKind::Warning);
                    return;
                }
                self.overlay = None;
                self.save_api_key(&provider.id, &key);
            }
        }
    }

    /// Store an API key in `auth.json`; the model list and the running session
    /// use it from the next request on. On the demo model, switch to the
    /// provider's default model.
    fn save_api_key(&mut self, provider: &str, key: &str) {
        let Some(agent_dir) = self.login.agent_dir.clone() else {
            return;
        };
        if let Err(e) = save_api_key(&agent_dir, provider, key) {
            self.transcript.notice(
                t!(
                    "pi.login.api_key.failed",
                    provider = provider,
                    error = e.to_string()
                ),
                NoticeKind::Error,
            );
            return;
        }
        self.reload_available_models();
        let path = crate::config::paths::auth_path(&agent_dir);
        self.transcript.notice(
            t!(
                "pi.login.api_key.saved",
                provider = provider,
                path = path.display().to_string()
            ),
            NoticeKind::Info,
        );
        if self.footer.provider != crate::ai::providers::demo::DEMO_PROVIDER {
            return;
        }
        let default = crate::ai::catalog::default_model_id(provider);
        let model = self
            .models
            .iter()
            .find(|m| m.provider == provider && Some(m.id.as_str()) == default)
            .or_else(|| self.models.iter().find(|m| m.provider == provider))
            .cloned();
        if let Some(model) = model {
            // The demo's own level means nothing for a real model: it starts at the
            // default level (settings `defaultThinkingLevel`, else medium), as a fresh
            // start with this key would.
            let level = self
                .ui_settings
                .settings
                .default_thinking_level()
                .unwrap_or(crate::ai::model::ThinkingLevel::Medium);
            self.switch_model(model, crate::core::session_command::ModelSource::Set);
            let _ = self
                .commands
                .send(crate::tui::app::session_task::SessionCommand::SetThinking(
                    level,
                ));
        }
    }

    /// `/logout [provider]`: delete a stored credential.
    pub(super) fn run_logout(&mut self, provider: &str) {
        let Some(agent_dir) = self.login.agent_dir.clone() else {
            self.transcript
                .notice(t!("pi.login.unavailable"), NoticeKind::Warning);
            return;
        };
        if provider.is_empty() {
            let (auth, _) = AuthStorage::load(&agent_dir);
            let stored = auth.list();
            let text = if stored.is_empty() {
                t!("pi.logout.none")
            } else {
                t!("pi.logout.usage", providers = stored.join(", "))
            };
            self.transcript.notice(text, NoticeKind::Info);
            return;
        }
        let (auth, _) = AuthStorage::load(&agent_dir);
        let was_key = matches!(auth.get(provider), Some(Credential::ApiKey { .. }));
        match logout(&agent_dir, provider) {
            Ok(true) => {
                let text = match was_key {
                    true => t!("pi.logout.key_removed", provider = provider),
                    false => t!("pi.logout.done", provider = provider_name(provider)),
                };
                self.transcript.notice(text, NoticeKind::Info);
                self.reload_available_models();
            }
            Ok(false) => self.transcript.notice(
                t!("pi.logout.missing", provider = provider),
                NoticeKind::Warning,
            ),
            Err(e) => self.transcript.notice(e.to_string(), NoticeKind::Error),
        }
    }

    /// Pass a submitted line to a login waiting for one; `false` if none waits.
    pub(super) fn answer_login(&mut self, text: &str) -> bool {
        let Some(flow) = self.login.flow.as_mut().filter(|f| f.awaiting_input) else {
            return false;
        };
        flow.awaiting_input = false;
        let _ = flow.answers.send(text.to_string());
        true
    }

    /// Show what the running login reports.
    pub fn handle_login_event(&mut self, event: LoginEvent) {
        match event {
            LoginEvent::Auth { url, instructions } => {
                open_browser(&url);
                self.transcript.notice(
                    t!(
                        "pi.login.open_page",
                        url = &url,
                        instructions = &instructions
                    ),
                    NoticeKind::Info,
                );
            }
            LoginEvent::Progress(message) => self.transcript.notice(message, NoticeKind::Info),
            LoginEvent::Prompt(question) => {
                if let Some(flow) = &mut self.login.flow {
                    flow.awaiting_input = true;
                }
                self.transcript.notice(
                    t!("pi.login.prompt", question = &question),
                    NoticeKind::Info,
                );
            }
            LoginEvent::Done(result) => {
                self.login.flow = None;
                match result {
                    Ok(name) => {
                        self.transcript
                            .notice(t!("pi.login.done", provider = &name), NoticeKind::Info);
                        self.reload_available_models();
                    }
                    Err(e) => self.transcript.notice(
                        t!("pi.login.failed", error = e.to_string()),
                        NoticeKind::Error,
                    ),
                }
            }
        }
        self.dirty = true;
    }

    fn reload_available_models(&mut self) {
        if let Some(catalog) = &self.login.catalog {
            catalog.reload_from_disk();
            self.models = catalog.available();
        } else if let Some(dir) = &self.login.agent_dir {
            let (registry, _) = ModelRegistry::load(dir);
            let (auth, _) = AuthStorage::load(dir);
            self.models = registry.available(&auth);
        }
    }
}

/// Providers a key can be stored for: every provider of the model list that reads a
/// key from the environment, and those `models.json` adds, sorted by id; the detail
/// names the variables and a credential already found.
pub fn api_key_providers(agent_dir: &std::path::Path) -> Vec<LoginProvider> {
    let (registry, _) = ModelRegistry::load(agent_dir);
    let (auth, _) = AuthStorage::load(agent_dir);
    let mut ids: Vec<String> = registry
        .providers()
        .into_iter()
        .filter(|p| {
            !crate::ai::catalog::env_api_key_vars(p).is_empty()
                || (!crate::ai::catalog::is_builtin_provider(p) && find_provider(p).is_none())
        })
        .collect();
    ids.sort();
    ids.into_iter()
        .map(|id| {
            let vars = crate::ai::catalog::env_api_key_vars(&id);
            let mut detail = vars.join(", ");
            if auth.has(&id) {
                detail = format!("{detail} ✓ {}", t!("pi.login.api_key.stored"));
            } else if let Some(var) = vars.iter().find(|v| auth.env().is_set(v)) {
                detail = format!("{detail} ✓ {}", t!("pi.login.api_key.from_env", var = *var));
            }
            LoginProvider {
                name: id.clone(),
                id,
                detail: detail.trim().to_string(),
            }
        })
        .collect()
}

/// Try to open `url` in a browser; the URL is in the transcript either way.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if std::env::var_os("PI_NO_BROWSER").is_some() {
        return;
    }
    let child = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Ok(mut child) = child {
        std::thread::spawn(move || child.wait());
    }
}
