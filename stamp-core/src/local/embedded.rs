//! The embedded server: dynoxide on a loopback port of this process.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use tokio::sync::oneshot;

use crate::request::table::Table;

/// Why an embedded server did not start.
#[derive(Debug, thiserror::Error)]
pub enum LocalDynamoDbError {
    /// No port of 127.0.0.1 could be bound.
    #[error("the embedded DynamoDB cannot listen on 127.0.0.1: {0}")]
    Bind(#[source] std::io::Error),
    /// The SQLite database could not be opened (a file-backed database whose
    /// file cannot be created or is not a dynoxide database).
    #[error("the embedded DynamoDB cannot open its database {location}: {message}")]
    Database {
        /// `memory` or the file's path.
        location: String,
        /// dynoxide's message.
        message: String,
    },
    /// A TTL sweep ([`LocalDynamoDb::sweep_ttl`]) failed.
    #[error("the embedded DynamoDB's TTL sweep failed: {0}")]
    Sweep(String),
    /// [`LocalDynamoDb::start`] was called outside a tokio runtime.
    #[error(
        "the embedded DynamoDB needs a tokio runtime: call LocalDynamoDb::start inside \
         #[tokio::test] or #[tokio::main], or use LocalDynamoDb::start_in_background"
    )]
    NoRuntime,
    /// The background thread of [`LocalDynamoDb::start_in_background`]
    /// could not be started or its runtime not built.
    #[error("the embedded DynamoDB cannot start its thread: {0}")]
    Thread(#[source] std::io::Error),
}

/// An in-process DynamoDB: [dynoxide](https://docs.rs/dynoxide-rs) serving
/// the DynamoDB and DynamoDB Streams HTTP APIs on `127.0.0.1` at a free
/// port. Dropping the handle stops the server (it stops accepting
/// connections and finishes the requests in flight).
///
/// Requests are answered one at a time (one SQLite connection), in about a
/// millisecond for a get or a one-partition query in an optimized build of
/// dynoxide. Give each test binary, or each heavy test, a server of its own.
///
/// Feature `local`. See the [module docs](crate::local) for what it is not.
///
/// # Example: a user's test
// (The same code runs as the facade's test `tests/it/local.rs`.)
#[cfg_attr(not(doctest), doc = include_str!("example.md"))]
pub struct LocalDynamoDb {
    endpoint: String,
    database: dynoxide::Database,
    shutdown: Option<oneshot::Sender<()>>,
    /// The test clock of [`start_with_clock`](LocalDynamoDb::start_with_clock),
    /// which [`table`](LocalDynamoDb::table) gives its tables.
    clock: Option<crate::testing::TestClock>,
    // Keeps the background runtime's thread named in the handle; it ends
    // when the shutdown signal arrives.
    _thread: Option<std::thread::JoinHandle<()>>,
}

/// Where the server keeps its data.
#[derive(Clone)]
enum Storage {
    Memory,
    /// In memory, the TTL sweeps and stream records at a test's clock.
    MemoryAt(crate::testing::TestClock),
    File(PathBuf),
}

impl Storage {
    fn open(&self) -> Result<dynoxide::Database, LocalDynamoDbError> {
        let (location, opened) = match self {
            Storage::Memory => ("memory".to_owned(), dynoxide::Database::memory()),
            Storage::MemoryAt(clock) => (
                "memory".to_owned(),
                dynoxide::Database::memory_with_clock(std::sync::Arc::new(clock.clone())),
            ),
            Storage::File(path) => (
                path.display().to_string(),
                dynoxide::Database::new(&path.to_string_lossy()),
            ),
        };
        opened.map_err(|error| LocalDynamoDbError::Database {
            location,
            message: error.to_string(),
        })
    }
}

impl LocalDynamoDb {
    /// Starts a server with an in-memory database as a task of the current
    /// tokio runtime (so it lives as long as that runtime: one
    /// `#[tokio::test]`). Ready when this returns.
    ///
    /// # Errors
    ///
    /// [`LocalDynamoDbError::NoRuntime`] outside a tokio runtime,
    /// [`LocalDynamoDbError::Bind`] when no loopback port can be bound.
    pub async fn start() -> Result<Self, LocalDynamoDbError> {
        Self::start_with(Storage::Memory).await
    }

    /// As [`start`](Self::start), with the server's time read from `clock`
    /// (a test's [`TestClock`](crate::testing::TestClock)): the time its
    /// TTL sweeps ([`sweep_ttl`](Self::sweep_ttl)) judge expiry by and its
    /// stream records carry. The tables of [`table`](Self::table) read the
    /// same clock, so that what they stamp, what reads leave out and what a
    /// sweep deletes agree; a [`Table`] made another way needs
    /// [`Table::with_clock`] with [`TestClock::reader`](crate::testing::TestClock::reader).
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start).
    pub async fn start_with_clock(
        clock: &crate::testing::TestClock,
    ) -> Result<Self, LocalDynamoDbError> {
        Self::start_with(Storage::MemoryAt(clock.clone())).await
    }

    /// As [`start`](Self::start), with the data in the SQLite file at
    /// `path` (created when missing), so that it outlives the process.
    ///
    /// # Errors
    ///
    /// As [`start`](Self::start), and [`LocalDynamoDbError::Database`] when
    /// the file cannot be opened as a dynoxide database.
    pub async fn start_with_file(path: impl AsRef<Path>) -> Result<Self, LocalDynamoDbError> {
        Self::start_with(Storage::File(path.as_ref().to_owned())).await
    }

    async fn start_with(storage: Storage) -> Result<Self, LocalDynamoDbError> {
        let runtime =
            tokio::runtime::Handle::try_current().map_err(|_| LocalDynamoDbError::NoRuntime)?;
        let database = storage.open()?;
        let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await
            .map_err(LocalDynamoDbError::Bind)?;
        let endpoint = endpoint_of(&listener)?;
        let (shutdown, stopped) = oneshot::channel::<()>();
        runtime.spawn(serve(listener, database.clone(), stopped));
        let clock = match storage {
            Storage::MemoryAt(clock) => Some(clock),
            Storage::Memory | Storage::File(_) => None,
        };
        Ok(Self {
            endpoint,
            database,
            shutdown: Some(shutdown),
            clock,
            _thread: None,
        })
    }

    /// Starts a server with an in-memory database on a thread of its own,
    /// with its own tokio runtime, so that it outlives any one runtime:
    /// the way to share one server between the `#[tokio::test]`s of a test
    /// binary (keep it in a `static` `LazyLock`). Ready when this returns.
    ///
    /// # Errors
    ///
    /// [`LocalDynamoDbError::Thread`] when the thread or its runtime cannot
    /// be made, [`LocalDynamoDbError::Bind`] when no port can be bound.
    pub fn start_in_background() -> Result<Self, LocalDynamoDbError> {
        let database = Storage::Memory.open()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(LocalDynamoDbError::Thread)?;
        let std_listener = std::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .map_err(LocalDynamoDbError::Bind)?;
        std_listener
            .set_nonblocking(true)
            .map_err(LocalDynamoDbError::Bind)?;
        let (shutdown, stopped) = oneshot::channel::<()>();
        let (ready, is_ready) = std::sync::mpsc::channel();
        let served = database.clone();
        let thread = std::thread::Builder::new()
            .name("stamp-local-dynamodb".to_owned())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(std_listener)
                        .map_err(LocalDynamoDbError::Bind)
                        .and_then(|listener| Ok((endpoint_of(&listener)?, listener)));
                    match listener {
                        Ok((endpoint, listener)) => {
                            let _ = ready.send(Ok(endpoint));
                            serve(listener, served, stopped).await;
                        }
                        Err(error) => {
                            let _ = ready.send(Err(error));
                        }
                    }
                });
            })
            .map_err(LocalDynamoDbError::Thread)?;
        let endpoint = is_ready.recv().map_err(|_| {
            LocalDynamoDbError::Thread(std::io::Error::other("the server thread ended early"))
        })??;
        Ok(Self {
            endpoint,
            database,
            shutdown: Some(shutdown),
            clock: None,
            _thread: Some(thread),
        })
    }

    /// The server's URL, `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// An SDK configuration for this server ([`super::config`]): adjust
    /// retries, timeouts or interceptors, then build a client from it.
    pub fn config(&self) -> aws_sdk_dynamodb::config::Builder {
        super::config(&self.endpoint)
    }

    /// A client for this server: region `us-east-1`, dummy credentials, the
    /// SDK's standard retries.
    pub fn client(&self) -> aws_sdk_dynamodb::Client {
        aws_sdk_dynamodb::Client::from_conf(self.config().build())
    }

    /// A DynamoDB Streams client for this server (it serves the Streams API
    /// on the same endpoint), for
    /// [`Table::changes`](crate::Table::changes). Features
    /// `local` and `streams`.
    #[cfg(feature = "streams")]
    pub fn streams_client(&self) -> aws_sdk_dynamodbstreams::Client {
        super::streams_client(&self.endpoint)
    }

    /// The records of `table`'s stream on this server as the DynamoDB
    /// events a Lambda function receives, from the oldest
    /// ([`LambdaEvents`](crate::testing::LambdaEvents)). Features `local`
    /// and `streams`.
    #[cfg(feature = "streams")]
    pub fn lambda_events(&self, table: &Table) -> crate::testing::LambdaEvents {
        crate::testing::LambdaEvents::new(table, self.streams_client())
    }

    /// A [`Table`] named `name` on [`client`](Self::client), reading the
    /// server's test clock when it was started with one
    /// ([`start_with_clock`](Self::start_with_clock)), the system clock
    /// otherwise. The table is not created: call [`Table::create_table`].
    pub fn table(&self, name: impl Into<String>) -> Table {
        let table = Table::new(self.client(), name);
        match &self.clock {
            Some(clock) => table.with_clock(clock.reader()),
            None => table,
        }
    }

    /// Deletes now the items whose TTL has passed in every table with TTL
    /// enabled, as DynamoDB does on its own within a few days of expiry,
    /// and returns how many it deleted. Each deletion reaches the table's
    /// stream as DynamoDB's TTL deletions do (a `REMOVE` by the service
    /// principal `dynamodb.amazonaws.com`), so a change feed or a Lambda
    /// consumer under test sees it.
    ///
    /// The server's clock judges expiry (the system clock, or the
    /// [`TestClock`](crate::testing::TestClock) of
    /// [`start_with_clock`](Self::start_with_clock)); dynoxide deletes an
    /// item whose TTL is before that second, while Stamp's reads already
    /// leave out an item whose TTL is at or before their clock's time.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html>.
    ///
    /// # Errors
    ///
    /// [`LocalDynamoDbError::Sweep`] with dynoxide's message when the sweep
    /// fails.
    pub fn sweep_ttl(&self) -> Result<usize, LocalDynamoDbError> {
        self.database
            .sweep_ttl()
            .map_err(|error| LocalDynamoDbError::Sweep(error.to_string()))
    }

    /// The database behind the server, for what the HTTP API does not offer
    /// (a TTL sweep is [`sweep_ttl`](Self::sweep_ttl)).
    pub fn database(&self) -> &dynoxide::Database {
        &self.database
    }
}

impl std::fmt::Debug for LocalDynamoDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalDynamoDb")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl Drop for LocalDynamoDb {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

fn endpoint_of(listener: &tokio::net::TcpListener) -> Result<String, LocalDynamoDbError> {
    let address = listener.local_addr().map_err(LocalDynamoDbError::Bind)?;
    Ok(format!("http://{address}"))
}

async fn serve(
    listener: tokio::net::TcpListener,
    database: dynoxide::Database,
    stopped: oneshot::Receiver<()>,
) {
    let shutdown = async move {
        let _ = stopped.await;
    };
    if let Err(error) = dynoxide::server::serve_with_shutdown(listener, database, shutdown).await {
        tracing::error!(%error, "the embedded DynamoDB stopped");
    }
}
