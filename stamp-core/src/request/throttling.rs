//! Throttling by its reason: DynamoDB's `ThrottlingReasons` parsed into what
//! was throttled and why ([`Throttle`]), and the retry policy of each class
//! ([`ThrottleRetries`]).
//!
//! A reason is `Resource + Operation + Limit`, such as
//! `TableWriteKeyRangeThroughputExceeded`: a table or an index, reads or
//! writes, and the limit met. A key-range limit is a hot partition (one
//! partition key value above 3,000 read or 1,000 write units per second:
//! retrying later helps, sharding the key cures it); the others are maxima
//! of the table, the index or the account (provisioned capacity, an
//! on-demand maximum, the account's per-table quota), which retrying within
//! one request rarely relieves.
//!
//! See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling.html>
//! and <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html>.

/// What DynamoDB throttled: a table or an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThrottledResource {
    /// The table (`Table…`).
    Table,
    /// A global secondary index (`Index…`).
    Index,
}

/// Which kind of access was throttled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThrottledAccess {
    /// Reads (`…Read…`).
    Read,
    /// Writes (`…Write…`).
    Write,
}

/// The limit a throttled request met.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ThrottleLimit {
    /// `KeyRangeThroughputExceeded`: one partition's throughput (a hot key).
    KeyRange,
    /// `ProvisionedThroughputExceeded`: the table's or index's provisioned
    /// read or write units.
    Provisioned,
    /// `MaxOnDemandThroughputExceeded`: the maximum throughput configured
    /// for an on-demand table or index.
    MaxOnDemand,
    /// `AccountLimitExceeded`: the account's per-table throughput quota in
    /// the Region.
    AccountLimit,
    /// A limit DynamoDB named that Stamp does not know yet, as written.
    Other(String),
}

/// One of DynamoDB's `ThrottlingReasons`, parsed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Throttle {
    /// The table or an index; `None` when the reason does not say.
    pub resource_kind: Option<ThrottledResource>,
    /// Reads or writes; `None` when the reason does not say.
    pub access: Option<ThrottledAccess>,
    /// The limit met.
    pub limit: ThrottleLimit,
    /// The ARN of the table or index throttled.
    pub resource: String,
    /// The reason as DynamoDB wrote it, such as
    /// `TableWriteKeyRangeThroughputExceeded`.
    pub reason: String,
}

impl Throttle {
    /// Parses `reason` (`Resource + Operation + Limit`) throttling
    /// `resource`.
    pub fn parse(reason: &str, resource: &str) -> Self {
        let (resource_kind, rest) = if let Some(rest) = reason.strip_prefix("Table") {
            (Some(ThrottledResource::Table), rest)
        } else if let Some(rest) = reason.strip_prefix("Index") {
            (Some(ThrottledResource::Index), rest)
        } else {
            (None, reason)
        };
        let (access, rest) = if let Some(rest) = rest.strip_prefix("Read") {
            (Some(ThrottledAccess::Read), rest)
        } else if let Some(rest) = rest.strip_prefix("Write") {
            (Some(ThrottledAccess::Write), rest)
        } else {
            (None, rest)
        };
        let limit = match rest {
            "KeyRangeThroughputExceeded" => ThrottleLimit::KeyRange,
            "ProvisionedThroughputExceeded" => ThrottleLimit::Provisioned,
            "MaxOnDemandThroughputExceeded" => ThrottleLimit::MaxOnDemand,
            "AccountLimitExceeded" => ThrottleLimit::AccountLimit,
            other => ThrottleLimit::Other(other.to_owned()),
        };
        Throttle {
            resource_kind,
            access,
            limit,
            resource: resource.to_owned(),
            reason: reason.to_owned(),
        }
    }

    /// Whether the limit is one partition's (a hot key), not a maximum of
    /// the table, index or account.
    pub fn is_hot_key(&self) -> bool {
        self.limit == ThrottleLimit::KeyRange
    }
}

/// How many times the SDK may send a request again after DynamoDB throttled
/// it, by the class of the throttling reason: a hot key, or a maximum of
/// the table, index or account. Set with [`Table::with_throttle_retries`](crate::Table::with_throttle_retries).
///
/// The retries themselves are the SDK's (its backoff, its retry token
/// bucket); these numbers cap them per class, and never raise them above
/// the SDK's `max_attempts`. A throttled request was not applied, so every
/// retry is safe. When the cap is met the request fails with
/// [`Error::DynamoDb`](crate::Error::DynamoDb), whose
/// [`throttles`](crate::Error::throttles) name the limit and the resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottleRetries {
    /// Retries after a `…KeyRangeThroughputExceeded` (a hot partition).
    /// Default: as many as the SDK makes.
    pub hot_key: u32,
    /// Retries after a provisioned, on-demand maximum or account limit
    /// (`…ProvisionedThroughputExceeded`, `…MaxOnDemandThroughputExceeded`,
    /// `…AccountLimitExceeded`), or a throttle that gives no reason.
    /// Default: as many as the SDK makes.
    pub limits: u32,
}

impl Default for ThrottleRetries {
    fn default() -> Self {
        ThrottleRetries {
            hot_key: u32::MAX,
            limits: u32::MAX,
        }
    }
}

impl ThrottleRetries {
    /// The cap of the class of `throttles` (the hot-key cap only when every
    /// reason is a hot key).
    pub(crate) fn cap(&self, throttles: &[Throttle]) -> u32 {
        if !throttles.is_empty() && throttles.iter().all(Throttle::is_hot_key) {
            self.hot_key
        } else {
            self.limits
        }
    }
}

/// The `ThrottlingReasons` of a DynamoDB error body (JSON), if any.
pub(crate) fn throttles_in_body(body: &[u8]) -> Option<Vec<Throttle>> {
    #[derive(serde::Deserialize)]
    struct Body {
        #[serde(rename = "__type")]
        kind: Option<String>,
        #[serde(rename = "ThrottlingReasons", alias = "throttlingReasons", default)]
        reasons: Vec<Reason>,
    }
    #[derive(serde::Deserialize)]
    struct Reason {
        #[serde(default)]
        reason: String,
        #[serde(default)]
        resource: String,
    }
    let body: Body = serde_json::from_slice(body).ok()?;
    let kind = body.kind?;
    let code = kind.rsplit('#').next().unwrap_or(&kind);
    let throttled = matches!(
        code,
        "ThrottlingException" | "ProvisionedThroughputExceededException" | "RequestLimitExceeded"
    );
    throttled.then(|| {
        body.reasons
            .iter()
            .map(|reason| Throttle::parse(&reason.reason, &reason.resource))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_parse_into_resource_access_and_limit() {
        let throttle = Throttle::parse("TableWriteKeyRangeThroughputExceeded", "arn:t");
        assert_eq!(
            throttle,
            Throttle {
                resource_kind: Some(ThrottledResource::Table),
                access: Some(ThrottledAccess::Write),
                limit: ThrottleLimit::KeyRange,
                resource: "arn:t".into(),
                reason: "TableWriteKeyRangeThroughputExceeded".into(),
            }
        );
        assert!(throttle.is_hot_key());
        for (reason, kind, access, limit) in [
            (
                "IndexReadProvisionedThroughputExceeded",
                ThrottledResource::Index,
                ThrottledAccess::Read,
                ThrottleLimit::Provisioned,
            ),
            (
                "TableReadMaxOnDemandThroughputExceeded",
                ThrottledResource::Table,
                ThrottledAccess::Read,
                ThrottleLimit::MaxOnDemand,
            ),
            (
                "IndexWriteAccountLimitExceeded",
                ThrottledResource::Index,
                ThrottledAccess::Write,
                ThrottleLimit::AccountLimit,
            ),
        ] {
            let throttle = Throttle::parse(reason, "arn");
            assert_eq!(
                (
                    throttle.resource_kind,
                    throttle.access,
                    throttle.limit.clone()
                ),
                (Some(kind), Some(access), limit),
                "{reason}"
            );
            assert!(!throttle.is_hot_key());
        }
        assert_eq!(
            Throttle::parse("SomethingNew", "arn").limit,
            ThrottleLimit::Other("SomethingNew".into())
        );
    }

    #[test]
    fn a_cap_is_the_hot_keys_only_when_every_reason_is_a_hot_key() {
        let retries = ThrottleRetries {
            hot_key: 5,
            limits: 1,
        };
        let hot = Throttle::parse("TableWriteKeyRangeThroughputExceeded", "arn");
        let limit = Throttle::parse("TableWriteAccountLimitExceeded", "arn");
        assert_eq!(retries.cap(std::slice::from_ref(&hot)), 5);
        assert_eq!(retries.cap(&[hot, limit]), 1);
        assert_eq!(retries.cap(&[]), 1);
    }

    #[test]
    fn a_body_gives_its_throttles_only_when_it_is_a_throttling_error() {
        let body = br#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"x","ThrottlingReasons":[{"reason":"TableWriteKeyRangeThroughputExceeded","resource":"arn:t"}]}"#;
        assert_eq!(
            throttles_in_body(body),
            Some(vec![Throttle::parse(
                "TableWriteKeyRangeThroughputExceeded",
                "arn:t"
            )])
        );
        let other = br#"{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"}"#;
        assert_eq!(throttles_in_body(other), None);
        assert_eq!(throttles_in_body(b"<html>"), None);
    }
}
