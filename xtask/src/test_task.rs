//! `cargo xtask test`: every test, then the server tests again on ministack.

use std::fs;
use std::path::Path;
use std::process::{ExitCode, ExitStatus};

use crate::endpoint::{self, ENV, Ministack, SERVER_ENV};
use crate::venv::Venv;
use crate::{Result, workspace};

/// The environment variable that gives the tests the path of `cfn-lint`.
pub const CFN_LINT_ENV: &str = "STAMP_CFN_LINT";

/// The directories of integration tests that may hold server tests (of
/// `stamp` and `stamp-examples`; test target names are unique across the
/// workspace).
const SERVER_TEST_DIRS: &[&str] = &["tests", "stamp-examples/tests"];

/// Makes the venv (ministack and cfn-lint), then runs, each even if an
/// earlier one failed:
///
/// 1. `cargo test --no-fail-fast --workspace --all-targets ARGS` on the embedded DynamoDB
///    (or `$STAMP_DYNAMODB_ENDPOINT` when set);
/// 2. `cargo test --workspace --doc ARGS`, then the tests that need
///    Python's cfn-lint (`schema_cfn_lint`, ignored by plain `cargo test`)
///    with `--ignored`;
/// 3. the server tests ([`server_tests`]) once more against a ministack
///    started for the run, stopped by its process id afterwards.
///
/// Fails if any failed.
pub fn run(args: &[String]) -> Result<ExitCode> {
    let root = workspace::root();
    let venv = Venv::ensure(&root)?;
    let cfn_lint = venv.bin("cfn-lint");
    let endpoint = endpoint::given(None);
    let cargo_test = |selection: &[String], url: Option<(&str, &str)>| -> Result<ExitStatus> {
        let mut command = workspace::cargo(&root);
        command
            .arg("test")
            .args(selection)
            .args(args)
            .env(CFN_LINT_ENV, &cfn_lint);
        match url {
            Some((url, server)) => command.env(ENV, url).env(SERVER_ENV, server),
            None => command.env_remove(ENV).env_remove(SERVER_ENV),
        };
        Ok(command.status()?)
    };
    let given = endpoint.as_deref().map(|url| (url, "other"));
    let all_targets = cargo_test(&strings(&["--workspace", "--all-targets"]), given)?;
    let doc = cargo_test(&strings(&["--workspace", "--doc"]), given)?;
    println!("\n==> the tests that need the venv's cfn-lint");
    let cfn_lint_tests = cargo_test(
        &strings(&[
            "-p",
            "stamp",
            "--test",
            "schema_cfn_lint",
            "--",
            "--ignored",
        ]),
        given,
    )?;
    let ministack = Ministack::start(&root)?;
    // `--workspace` with `--test` filters, never `-p`: another package
    // selection unifies features differently and rebuilds the dependencies.
    let mut selection = strings(&["--workspace"]);
    for dir in SERVER_TEST_DIRS {
        for test in server_tests(&root.join(dir))? {
            selection.extend(["--test".to_owned(), test]);
        }
    }
    println!("\n==> the server tests on ministack");
    let on_ministack = cargo_test(&selection, Some((ministack.url(), "ministack")))?.success();
    drop(ministack);
    Ok(
        if all_targets.success() && doc.success() && cfn_lint_tests.success() && on_ministack {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        },
    )
}

/// The integration tests in `dir` that talk to a server: the `*.rs` files
/// that use the shared set-up (`mod common;`) or start the embedded server
/// themselves (`LocalDynamoDb`), by target name, sorted.
pub fn server_tests(dir: &Path) -> Result<Vec<String>> {
    let mut tests = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_none_or(|extension| extension != "rs") {
            continue;
        }
        let text = fs::read_to_string(&path)?;
        if text.contains("mod common;") || text.contains("LocalDynamoDb") {
            let name = path.file_stem().expect("a file name").to_string_lossy();
            tests.push(name.into_owned());
        }
    }
    tests.sort();
    Ok(tests)
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_tests_are_found_and_the_compile_tests_are_not() {
        let tests = server_tests(&workspace::root().join("tests")).unwrap();
        assert!(tests.contains(&"writes".to_owned()), "{tests:?}");
        assert!(tests.contains(&"migration".to_owned()), "{tests:?}");
        assert!(!tests.contains(&"ui".to_owned()), "{tests:?}");
    }
}
