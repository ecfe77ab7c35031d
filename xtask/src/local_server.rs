//! ministack's DynamoDB, started on a free loopback port.
//!
//! [`LocalServer::start`] spawns `ministack` (DynamoDB, DynamoDB Streams and
//! S3 only) with its output in `target/stamp-venv/ministack-PORT.log` and waits
//! until it answers HTTP. The
//! returned guard kills the server when dropped, so it stops even when tests
//! fail or a task returns an error.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::Result;
use crate::venv::Venv;

/// How long the server may take to answer its first request.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

/// The pause between two readiness probes.
const PROBE_INTERVAL: Duration = Duration::from_millis(100);

/// The connect, read and write timeout of one readiness probe.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// How many log lines an error message shows.
const LOG_TAIL_LINES: usize = 20;

/// A running `ministack`; dropping it stops the server.
#[derive(Debug)]
pub struct LocalServer {
    child: Child,
    endpoint: String,
    log: PathBuf,
}

impl LocalServer {
    /// Starts `ministack` from `venv` on a free port of 127.0.0.1 and waits
    /// until it answers HTTP.
    pub fn start(venv: &Venv) -> Result<Self> {
        let port = free_port()?;
        let log = venv.dir().join(format!("ministack-{port}.log"));
        let out = File::create(&log)?;
        let child = ministack_command(venv, port)
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", venv.bin("ministack").display()))?;
        // From here on the guard owns the child, so every error path kills it.
        let mut server = Self {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
            log,
        };
        server.wait_until_ready(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
        Ok(server)
    }

    /// The server's URL, `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The file that receives the server's output.
    pub fn log(&self) -> &Path {
        &self.log
    }

    /// Probes `addr` until it answers HTTP, the child exits, or
    /// [`STARTUP_TIMEOUT`] passes.
    fn wait_until_ready(&mut self, addr: SocketAddr) -> Result<()> {
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Err(self.failure(&format!("ministack exited early ({status})")));
            }
            if answers_http(addr) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(self.failure(&format!(
                    "ministack did not answer at {} within {} s",
                    self.endpoint,
                    STARTUP_TIMEOUT.as_secs()
                )));
            }
            thread::sleep(PROBE_INTERVAL);
        }
    }

    /// An error made of `what` and the end of the server's log.
    fn failure(&self, what: &str) -> Box<dyn std::error::Error> {
        format!(
            "{what}; last lines of {}:\n{}",
            self.log.display(),
            log_tail(&self.log, LOG_TAIL_LINES)
        )
        .into()
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        // Kill (by process id) and reap; the server may already be gone.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `ministack` command serving DynamoDB, DynamoDB Streams and S3 (for
/// the S3 export tests) on 127.0.0.1:`port` in the foreground (its settings
/// are environment variables; S3 keeps its objects in memory).
pub fn ministack_command(venv: &Venv, port: u16) -> Command {
    let mut command = Command::new(venv.bin("ministack"));
    command
        .env("GATEWAY_PORT", port.to_string())
        .env("BIND_HOST", "127.0.0.1")
        .env("SERVICES", "dynamodb,dynamodbstreams,s3")
        .env("LOG_LEVEL", "WARNING");
    command
}

/// A loopback port that was free a moment ago.
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// Whether `addr` answers `GET /` with any HTTP response.
fn answers_http(addr: SocketAddr) -> bool {
    let probe = || -> io::Result<bool> {
        let mut stream = TcpStream::connect_timeout(&addr, PROBE_TIMEOUT)?;
        stream.set_read_timeout(Some(PROBE_TIMEOUT))?;
        stream.set_write_timeout(Some(PROBE_TIMEOUT))?;
        stream.write_all(b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")?;
        let mut head = [0; 5];
        stream.read_exact(&mut head)?;
        Ok(&head == b"HTTP/")
    };
    probe().unwrap_or(false)
}

/// The last `lines` lines of the file at `path`, or a note that it is unreadable.
fn log_tail(path: &Path, lines: usize) -> String {
    match fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let all: Vec<&str> = text.lines().collect();
            all[all.len().saturating_sub(lines)..].join("\n")
        }
        Err(e) => format!("(cannot read the log: {e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_tail_keeps_the_last_lines() {
        let path = std::env::temp_dir().join(format!("xtask-log-tail-{}", std::process::id()));
        let text: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        fs::write(&path, text).unwrap();
        let tail = log_tail(&path, 20);
        fs::remove_file(&path).unwrap();
        assert!(tail.starts_with("line 11\n"));
        assert!(tail.ends_with("line 30"));
        assert_eq!(tail.lines().count(), 20);
    }

    #[test]
    fn a_closed_port_does_not_answer() {
        let port = free_port().unwrap();
        assert!(!answers_http(SocketAddr::from((Ipv4Addr::LOCALHOST, port))));
    }
}
