//! The `pi` binary: parse arguments, answer `--version`/`--help` at once,
//! otherwise start the runtime and run.

fn main() {
    pi::app::allocator::tune_allocator();
    pi::modes::output_guard::install();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    // `pi --version` needs nothing else: no settings, locale or catalog.
    if let [only] = argv.as_slice()
        && (only == "--version" || only == "-v")
    {
        println!("{}", pi::VERSION);
        return;
    }
    pi::session::index_cache::keep_in(&pi::config::paths::agent_dir());
    pi::app::session_setup::read_named_file_ahead(&argv);
    pi::config::valid_configs::remember_in(&pi::config::paths::agent_dir());
    pi::app::startup::init_locale();
    if pi::app::lang_command::is_lang_command(&argv) {
        let (text, code) = pi::app::lang_command::run(&argv[1..]);
        println!("{text}");
        std::process::exit(code);
    }
    if pi::app::luarc_command::is_luarc_command(&argv) {
        let (text, code) = pi::app::luarc_command::run(&argv[1..]);
        println!("{text}");
        std::process::exit(code);
    }
    if pi::app::test_runner::is_test_command(&argv) {
        std::process::exit(pi::app::test_runner::run(&argv[1..]));
    }
    if pi::app::test_runner::scaffold::is_new_command(&argv) {
        let (text, code) = pi::app::test_runner::scaffold::run(&argv[1..]);
        println!("{text}");
        std::process::exit(code);
    }
    if pi::app::sessions_command::is_sessions_command(&argv) {
        std::process::exit(pi::app::sessions_command::run(&argv[1..]));
    }
    if pi::app::config_command::is_config_command(&argv) {
        std::process::exit(pi::app::config_command::run());
    }
    if pi::app::doctor::is_doctor_command(&argv) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build();
        let code = match runtime {
            Ok(runtime) => runtime.block_on(pi::app::doctor::run(&argv)),
            Err(e) => {
                eprintln!("{}", pi::t!("pi.cli.error", error = e.to_string()));
                1
            }
        };
        std::process::exit(code);
    }
    if pi::app::package_commands::is_package_command(&argv) {
        std::process::exit(pi::app::package_commands::run(&argv));
    }
    let args = match pi::cli::args::Args::parse_from_argv(&argv) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{}", pi::t!("pi.cli.error", error = message.to_string()));
            std::process::exit(1);
        }
    };
    if args.version {
        println!("{}", pi::VERSION);
        return;
    }
    if args.help {
        print!("{}", pi::cli::args::help_text());
        return;
    }
    pi::app::startup::read_session_ahead(&args);
    // A one-shot run (`-p`, `--mode json`) awaits one thing at a time: it runs on this
    // thread alone, with no worker threads to start or hand work to.
    let one_shot = matches!(
        args.mode,
        Some(pi::cli::args::OutputMode::Text | pi::cli::args::OutputMode::Json)
    );
    let mut builder = if one_shot {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    let runtime = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{}", pi::t!("pi.cli.runtime_failed", error = e.to_string()));
            std::process::exit(1);
        }
    };
    let code = runtime.block_on(pi::app::run(args));
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    std::process::exit(code);
}
