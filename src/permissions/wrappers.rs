//! Commands that run another command: `sudo`, `doas`, `env`, `xargs`, `nice`, `nohup`,
//! `timeout`, `stdbuf`, `command`, `exec`, `time`, and shells given a script (`bash -c`,
//! `sh -c`, `eval`). What they start is judged like any other command.

/// What a wrapper runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inner {
    /// A command given as words (`sudo git push` → `git push`).
    Words(Vec<String>),
    /// A script given as text (`bash -c 'git push'`), parsed again.
    Script(String),
}

/// What the command `words` runs in turn, if it is a wrapper.
pub fn unwrap(words: &[String]) -> Option<Inner> {
    let name = words.first()?.rsplit('/').next()?;
    let rest = &words[1..];
    match name {
        "sudo" | "doas" => Some(after_options(
            rest,
            &[
                "-u",
                "-g",
                "-C",
                "-D",
                "-h",
                "-p",
                "-r",
                "-t",
                "-U",
                "-T",
                "--user",
                "--group",
                "--chdir",
                "--prompt",
                "--host",
                "--role",
                "--type",
                "--other-user",
                "--close-from",
                "--command-timeout",
            ],
            false,
        )),
        "env" => Some(env(rest)),
        "xargs" => Some(after_options(
            rest,
            &[
                "-I",
                "-L",
                "-n",
                "-P",
                "-s",
                "-d",
                "-E",
                "-a",
                "-i",
                "-l",
                "--max-args",
                "--max-procs",
                "--delimiter",
                "--arg-file",
                "--max-lines",
                "--replace",
                "--eof",
                "--max-chars",
                "--process-slot-var",
            ],
            false,
        )),
        "nice" => Some(after_options(rest, &["-n", "--adjustment"], false)),
        "ionice" => Some(after_options(rest, &["-c", "-n", "-p", "-P", "-u"], false)),
        "timeout" => Some(after_options(
            rest,
            &["-s", "-k", "--signal", "--kill-after"],
            true,
        )),
        "stdbuf" => Some(after_options(rest, &["-i", "-o", "-e"], false)),
        "nohup" | "exec" | "time" | "command" | "builtin" | "setsid" | "chronic" => {
            Some(after_options(rest, &["-a"], false))
        }
        "eval" => Some(Inner::Script(rest.join(" "))),
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "fish" | "ash" | "busybox" => shell(rest),
        _ => None,
    }
}

/// The words after the wrapper's options; `options_with_value` take the next word (or
/// `--opt=value`); with `skip_one`, one more operand comes first (`timeout 10 cmd`).
fn after_options(words: &[String], options_with_value: &[&str], skip_one: bool) -> Inner {
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if !w.starts_with('-') || w == "-" {
            break;
        }
        let takes_value = options_with_value.contains(&w)
            // `-n10`, `-uroot`: the value is glued on.
            && !w.contains('=');
        i += if takes_value { 2 } else { 1 };
    }
    if skip_one {
        i += 1;
    }
    Inner::Words(words.get(i..).map(<[String]>::to_vec).unwrap_or_default())
}

/// `env [-i] [-u NAME] [-C DIR] [NAME=VALUE]… [command]`, and `env -S 'cmd args'`.
fn env(words: &[String]) -> Inner {
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        match w {
            "-S" | "--split-string" => {
                return Inner::Script(words[i + 1..].join(" "));
            }
            "-u" | "--unset" | "-C" | "--chdir" => i += 2,
            "--" => {
                i += 1;
                break;
            }
            _ if w.starts_with('-') => i += 1,
            _ if w.contains('=') && !w.starts_with('=') => i += 1,
            _ => break,
        }
    }
    Inner::Words(words.get(i..).map(<[String]>::to_vec).unwrap_or_default())
}

/// `bash -c 'script'` (also `-lc`, `-ec`, `busybox sh -c`): the script.
fn shell(words: &[String]) -> Option<Inner> {
    let mut i = 0;
    if words.first().map(String::as_str) == Some("sh") {
        // `busybox sh -c …`
        i = 1;
    }
    while i < words.len() {
        let w = words[i].as_str();
        if w == "-c" || (w.starts_with('-') && !w.starts_with("--") && w.contains('c')) {
            return words.get(i + 1).map(|s| Inner::Script(s.clone()));
        }
        if w == "-o" || w == "+o" || w == "-O" || w == "+O" || w == "--rcfile" {
            i += 2;
            continue;
        }
        if !w.starts_with('-') && !w.starts_with('+') {
            // `bash script.sh`: a file pi cannot see into.
            return None;
        }
        i += 1;
    }
    None
}
