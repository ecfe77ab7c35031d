//! [`TimeToLive`]: the types a `#[stamp(ttl)]` field may have.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Utc};

/// A type that can be an item's TTL: DynamoDB deletes the item some time
/// after this moment. It is stored as a Number of whole seconds since the
/// Unix epoch; a fraction of a second is dropped, so a value with one reads
/// back without it (`2100-01-01T10:00:00.750Z` is stored as `4102480800`
/// and reads back as `2100-01-01T10:00:00Z`), and an entity holding it is
/// not equal to itself after a round trip. A `#[stamp(ttl)]` field of type
/// `Option<T>` stores no attribute for `None`: the item never expires.
///
/// Implemented for `chrono::DateTime<Utc>`, `std::time::SystemTime`, and
/// `i64`/`u64` epoch seconds. See
/// <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TTL.html>.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[stamp(ttl)]` field",
    label = "a TTL is stored as epoch seconds: use `chrono::DateTime<Utc>`, `std::time::SystemTime`, or `i64`/`u64` seconds",
    note = "see https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TTL.html"
)]
pub trait TimeToLive: Sized {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before it).
    fn epoch_seconds(&self) -> i64;

    /// The value for `seconds` since the epoch; `None` when the type cannot
    /// hold it.
    fn from_epoch_seconds(seconds: i64) -> Option<Self>;
}

impl TimeToLive for DateTime<Utc> {
    fn epoch_seconds(&self) -> i64 {
        self.timestamp()
    }

    fn from_epoch_seconds(seconds: i64) -> Option<Self> {
        DateTime::from_timestamp(seconds, 0)
    }
}

impl TimeToLive for SystemTime {
    fn epoch_seconds(&self) -> i64 {
        match self.duration_since(UNIX_EPOCH) {
            Ok(after) => after.as_secs() as i64,
            Err(before) => -(before.duration().as_secs() as i64),
        }
    }

    fn from_epoch_seconds(seconds: i64) -> Option<Self> {
        if seconds >= 0 {
            UNIX_EPOCH.checked_add(Duration::from_secs(seconds as u64))
        } else {
            UNIX_EPOCH.checked_sub(Duration::from_secs(seconds.unsigned_abs()))
        }
    }
}

impl TimeToLive for i64 {
    fn epoch_seconds(&self) -> i64 {
        *self
    }

    fn from_epoch_seconds(seconds: i64) -> Option<Self> {
        Some(seconds)
    }
}

impl TimeToLive for u64 {
    fn epoch_seconds(&self) -> i64 {
        i64::try_from(*self).unwrap_or(i64::MAX)
    }

    fn from_epoch_seconds(seconds: i64) -> Option<Self> {
        u64::try_from(seconds).ok()
    }
}
