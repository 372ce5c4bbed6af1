//! Start-up: turn the command line, settings and files into a running mode, and the
//! `pi install`/`pi lang` sub-commands.

pub mod allocator;
pub mod config_command;
pub mod doctor;
pub mod doctor_checks;
pub mod doctor_profile;
pub mod lang_command;
pub mod luarc_command;
pub mod model_setup;
pub mod package_commands;
pub mod package_consent;
pub mod package_errors;
pub mod permission_setup;
pub mod project_trust;
pub mod prompt_setup;
pub mod resource_setup;
pub mod session_setup;
pub mod sessions_command;
pub mod startup;
pub mod startup_error;
pub mod test_runner;

pub use startup::run;
