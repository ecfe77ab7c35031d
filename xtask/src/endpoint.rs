//! Choosing the DynamoDB the tasks talk to.
//!
//! By default nothing is started here: the tests, the demo and the benches
//! start the embedded DynamoDB (`stamp::local`, dynoxide) in their own
//! process. `$STAMP_DYNAMODB_ENDPOINT` (or a task's `--endpoint`) points them
//! at another server instead. [`Ministack`] is the second implementation
//! that `cargo xtask test` runs the server tests against.

use std::path::Path;

use crate::Result;
use crate::local_server::LocalServer;
use crate::venv::{MINISTACK_VERSION, Venv};

/// The environment variable that names the DynamoDB endpoint for tests, the
/// demo and the benches; unset, they use the embedded server.
pub const ENV: &str = "STAMP_DYNAMODB_ENDPOINT";

/// The environment variable that names the S3 endpoint of the S3 export
/// tests (`tests/it/export/s3.rs`), set to ministack's by `cargo xtask test`.
pub const S3_ENV: &str = "STAMP_S3_ENDPOINT";

/// The environment variable that tells the tests which implementation is
/// behind [`ENV`] (for the deviations listed in docs/design-notes.md, "Servers").
pub const SERVER_ENV: &str = "STAMP_DYNAMODB_SERVER";

/// `explicit` if given, else `$STAMP_DYNAMODB_ENDPOINT` if set and not
/// empty; `None` means "the embedded server". Prints which one is used.
pub fn given(explicit: Option<String>) -> Option<String> {
    let given = explicit
        .map(|url| (url, "--endpoint"))
        .or_else(|| from_env().map(|url| (url, ENV)));
    match given {
        Some((url, source)) => {
            println!("DynamoDB endpoint: {url} (from {source})");
            Some(url)
        }
        None => {
            println!(
                "DynamoDB: embedded (dynoxide, in the process; set {ENV} to use another server)"
            );
            None
        }
    }
}

/// A ministack server from the venv below `root`, started on a free port;
/// dropping it stops the server (by its process id).
#[derive(Debug)]
pub struct Ministack {
    server: LocalServer,
}

impl Ministack {
    /// Starts it and prints its URL and log file.
    pub fn start(root: &Path) -> Result<Self> {
        let server = LocalServer::start(&Venv::ensure(root)?)?;
        let log = server.log().strip_prefix(root).unwrap_or(server.log());
        println!(
            "DynamoDB and S3 endpoint: {} (ministack {MINISTACK_VERSION}, log in {})",
            server.endpoint(),
            log.display()
        );
        Ok(Self { server })
    }

    /// The endpoint URL.
    pub fn url(&self) -> &str {
        self.server.endpoint()
    }
}

/// `$STAMP_DYNAMODB_ENDPOINT`, unless unset or empty.
fn from_env() -> Option<String> {
    std::env::var(ENV).ok().filter(|url| !url.is_empty())
}
