//! Splitting bash commands into the simple commands they run.

use super::bash_words::split;

fn texts(script: &str) -> Vec<String> {
    split(script).unwrap().iter().map(|c| c.text()).collect()
}

#[test]
fn lists_pipelines_and_subshells_give_each_command() {
    assert_eq!(texts("true && git push"), ["true", "git push"]);
    assert_eq!(
        texts("a | b -x; (c 'd e') || { f; }"),
        ["a", "b -x", "c d e", "f"]
    );
    assert_eq!(texts("if a; then b; else c; fi"), ["a", "b", "c"]);
    assert_eq!(texts("for i in 1 2; do echo \"$i\"; done"), ["echo $"]);
}

#[test]
fn substitutions_run_their_commands() {
    assert_eq!(texts("x=$(git push)"), ["git push"]);
    assert_eq!(
        texts("echo `git push` \"$(rm -rf x)\""),
        ["git push", "rm -rf x", "echo $(…) $(…)"]
    );
    assert_eq!(texts("diff <(git show) b"), ["git show", "diff b"]);
}

#[test]
fn wrappers_give_what_they_run() {
    assert_eq!(texts("sudo git push"), ["sudo git push", "git push"]);
    assert_eq!(
        texts("sudo -u root git push"),
        ["sudo -u root git push", "git push"]
    );
    assert_eq!(texts("env A=1 git push"), ["env A=1 git push", "git push"]);
    assert_eq!(texts("A=1 git push"), ["git push"]);
    assert_eq!(
        texts("echo | xargs git push"),
        ["echo", "xargs git push", "git push"]
    );
    assert_eq!(
        texts("echo | xargs -0 -n 1 git push"),
        ["echo", "xargs -0 -n 1 git push", "git push"]
    );
    assert_eq!(
        texts("nice -n 5 timeout 10 git push"),
        [
            "nice -n 5 timeout 10 git push",
            "timeout 10 git push",
            "git push"
        ]
    );
    assert_eq!(
        texts("bash -c 'git push'"),
        ["bash -c git push", "git push"]
    );
    assert_eq!(
        texts("sh -c \"bash -c 'git push && ls'\""),
        [
            "sh -c bash -c 'git push && ls'",
            "bash -c git push && ls",
            "git push",
            "ls"
        ]
    );
    assert_eq!(texts("eval 'git push'"), ["eval git push", "git push"]);
}

#[test]
fn redirections_are_writes_and_names_can_be_computed() {
    let c = split("echo x >> ~/.bashrc 2>/dev/null").unwrap();
    assert_eq!(c[0].writes, ["~/.bashrc", "/dev/null"]);
    let c = split("$CMD push").unwrap();
    assert!(c[0].dynamic_name);
    let c = split("git push").unwrap();
    assert!(!c[0].dynamic_name);
}

#[test]
fn what_cannot_be_parsed_is_an_error() {
    assert!(split("echo 'unterminated").is_err());
    assert!(split("if then fi (").is_err());
    assert!(split("echo fine").is_ok());
}
