//! Choosing the DynamoDB endpoint a task talks to.

use std::path::Path;

use crate::Result;
use crate::local_server::LocalServer;
use crate::venv::{MOTO_VERSION, Venv};

/// The environment variable that names the DynamoDB endpoint for tests and
/// the demo.
pub const ENV: &str = "STAMP_DYNAMODB_ENDPOINT";

/// A DynamoDB endpoint, plus the local server behind it if this task started
/// one; dropping it stops that server.
#[derive(Debug)]
pub struct Endpoint {
    url: String,
    _server: Option<LocalServer>,
}

impl Endpoint {
    /// `explicit` if given, else `$STAMP_DYNAMODB_ENDPOINT` if set, else a
    /// freshly started moto server from the venv below `root`. Prints one line
    /// saying which endpoint is used.
    pub fn resolve(explicit: Option<String>, root: &Path) -> Result<Self> {
        let given = explicit
            .map(|url| (url, "--endpoint"))
            .or_else(|| from_env().map(|url| (url, ENV)));
        if let Some((url, source)) = given {
            println!("DynamoDB endpoint: {url} (from {source})");
            return Ok(Self { url, _server: None });
        }
        let server = LocalServer::start(&Venv::ensure(root)?)?;
        let url = server.endpoint().to_owned();
        let log = server.log().strip_prefix(root).unwrap_or(server.log());
        println!(
            "DynamoDB endpoint: {url} (moto {MOTO_VERSION}, log in {})",
            log.display()
        );
        Ok(Self {
            url,
            _server: Some(server),
        })
    }

    /// The endpoint URL.
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// `$STAMP_DYNAMODB_ENDPOINT`, unless unset or empty.
fn from_env() -> Option<String> {
    std::env::var(ENV).ok().filter(|url| !url.is_empty())
}
