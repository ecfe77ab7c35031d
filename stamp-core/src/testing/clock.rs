//! [`TestClock`]: a settable time for a test, shared by the tables that
//! stamp and judge expiry with it and by the embedded server that sweeps
//! expired items at it.

use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, TimeDelta, Utc};

/// A clock a test sets and moves: the time a [`Table`](crate::Table)
/// stamps into `created_at`/`updated_at` and judges TTLs by (the tables
/// of a server started with it, or [`Table::with_clock`](crate::Table::with_clock) with
/// [`reader`](Self::reader)), and the time the embedded server's TTL
/// sweeps delete expired items at
/// ([`LocalDynamoDb::start_with_clock`](crate::local::LocalDynamoDb::start_with_clock),
/// [`LocalDynamoDb::sweep_ttl`](crate::local::LocalDynamoDb::sweep_ttl)).
/// Clones share one time.
///
/// Times are UTC with the precision of `DateTime<Utc>`; the server reads
/// whole epoch seconds, as DynamoDB's TTL does.
///
/// # Example
///
/// ```ignore
/// use stamp::testing::TestClock;
///
/// let clock = TestClock::at("2026-06-01T10:00:00Z".parse()?);
/// let dynamodb = LocalDynamoDb::start_with_clock(&clock).await?;
/// let table = dynamodb.table("shop");       // reads the server's clock
/// table.create(&session).await?;            // created_at = 10:00:00, ttl = 10:30:00
/// clock.advance(chrono::TimeDelta::minutes(31));
/// assert_eq!(Session::get(&table, key).await?, None);   // expired: not returned
/// assert_eq!(dynamodb.sweep_ttl()?, 1);                  // and now deleted
/// ```
#[derive(Debug, Clone)]
pub struct TestClock {
    now: Arc<Mutex<DateTime<Utc>>>,
}

impl TestClock {
    /// A clock standing at `now` until set or advanced.
    pub fn at(now: DateTime<Utc>) -> Self {
        TestClock {
            now: Arc::new(Mutex::new(now)),
        }
    }

    /// The clock's time.
    pub fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sets the clock to `now` (backwards too).
    pub fn set(&self, now: DateTime<Utc>) {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner) = now;
    }

    /// Moves the clock by `by` (a negative delta moves it back).
    pub fn advance(&self, by: TimeDelta) {
        let mut now = self.now.lock().unwrap_or_else(PoisonError::into_inner);
        *now += by;
    }

    /// The clock as the function [`Table::with_clock`](crate::Table::with_clock)
    /// takes: each call reads the shared time.
    pub fn reader(&self) -> impl Fn() -> DateTime<Utc> + Send + Sync + 'static {
        let clock = self.clone();
        move || clock.now()
    }
}

/// The embedded server's TTL sweeps and stream records read whole epoch
/// seconds from the clock.
impl dynoxide::storage_backend::Clock for TestClock {
    fn now_unix_secs(&self) -> u64 {
        u64::try_from(self.now().timestamp()).unwrap_or(0)
    }

    fn now_unix_secs_f64(&self) -> f64 {
        let now = self.now();
        now.timestamp() as f64 + f64::from(now.timestamp_subsec_nanos()) / 1e9
    }
}
