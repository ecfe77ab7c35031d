//! The requests and answers on the wire: what a request is (its operation
//! and tables), DynamoDB's error answers, and the batch requests and
//! answers rewritten for unprocessed items.

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine;
use serde_json::{Map, Value, json};

use crate::model::entity::AttributeMap;

/// What the kit reads of a request.
#[derive(Debug, Clone)]
pub(super) struct Request {
    /// DynamoDB's operation name, from `X-Amz-Target`
    /// (`DynamoDB_20120810.PutItem`), or `unknown`.
    pub(super) operation: String,
    /// The tables the request names.
    pub(super) tables: Vec<String>,
    /// The JSON body, when it is JSON.
    pub(super) body: Option<Value>,
}

impl Request {
    pub(super) fn read(target: Option<&str>, body: Option<&[u8]>) -> Request {
        let target = target.unwrap_or("unknown");
        let operation = target.rsplit('.').next().unwrap_or(target).to_owned();
        let body: Option<Value> = body.and_then(|bytes| serde_json::from_slice(bytes).ok());
        let mut tables = Vec::new();
        if let Some(body) = &body {
            if let Some(name) = body.get("TableName").and_then(Value::as_str) {
                tables.push(name.to_owned());
            }
            if let Some(items) = body.get("RequestItems").and_then(Value::as_object) {
                tables.extend(items.keys().cloned());
            }
            for action in body
                .get("TransactItems")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                for kind in ["Put", "Update", "Delete", "ConditionCheck", "Get"] {
                    if let Some(name) = action
                        .get(kind)
                        .and_then(|action| action.get("TableName"))
                        .and_then(Value::as_str)
                    {
                        tables.push(name.to_owned());
                    }
                }
            }
        }
        Request {
            operation,
            tables,
            body,
        }
    }

    /// Whether the request reads (its throttling reason says `Read`).
    pub(super) fn reads(&self) -> bool {
        matches!(
            self.operation.as_str(),
            "GetItem" | "Query" | "Scan" | "BatchGetItem" | "TransactGetItems"
        )
    }

    /// The ARN of the first table named, for a throttling reason's
    /// `resource` (account `123456789012`, region `us-east-1`).
    pub(super) fn resource(&self) -> String {
        let table = self.tables.first().map_or("unknown", String::as_str);
        format!("arn:aws:dynamodb:us-east-1:123456789012:table/{table}")
    }
}

/// DynamoDB's JSON 1.0 content type.
pub(super) const JSON: &str = "application/x-amz-json-1.0";

/// The `__type` of DynamoDB's exception `name`.
fn error_type(name: &str) -> String {
    format!("com.amazonaws.dynamodb.v20120810#{name}")
}

/// The body of a throttled request's answer (HTTP 400).
pub(super) fn throttled(
    exception: super::ThrottlingException,
    reason: &str,
    resource: &str,
) -> String {
    use super::ThrottlingException as E;
    let (name, member, message) = match exception {
        E::Throttling => (
            "ThrottlingException",
            "throttlingReasons",
            "Throughput exceeds the current throughput limit for your key range",
        ),
        E::ProvisionedThroughputExceeded => (
            "ProvisionedThroughputExceededException",
            "ThrottlingReasons",
            "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
        ),
        E::RequestLimitExceeded => (
            "RequestLimitExceeded",
            "ThrottlingReasons",
            "Throughput exceeds the current throughput limit for your account.",
        ),
    };
    let mut body = Map::new();
    body.insert("__type".into(), json!(error_type(name)));
    body.insert("message".into(), json!(message));
    body.insert(
        member.into(),
        json!([{ "reason": reason, "resource": resource }]),
    );
    Value::Object(body).to_string()
}

/// The body of DynamoDB's `InternalServerError` (HTTP 500).
pub(super) fn internal_server_error() -> String {
    json!({
        "__type": error_type("InternalServerError"),
        "message": "Internal server error",
    })
    .to_string()
}

/// A proxy's HTML page of HTTP 502.
pub(super) const BAD_GATEWAY: &str = "<html><body><h1>502 Bad Gateway</h1></body></html>";

/// An attribute value in DynamoDB JSON (`{"S": "…"}`).
pub(super) fn value_json(value: &AttributeValue) -> Value {
    let blob = |blob: &[u8]| json!(base64::engine::general_purpose::STANDARD.encode(blob));
    match value {
        AttributeValue::S(text) => json!({ "S": text }),
        AttributeValue::N(number) => json!({ "N": number }),
        AttributeValue::B(value) => json!({ "B": blob(value.as_ref()) }),
        AttributeValue::Bool(value) => json!({ "BOOL": value }),
        AttributeValue::Null(value) => json!({ "NULL": value }),
        AttributeValue::Ss(values) => json!({ "SS": values }),
        AttributeValue::Ns(values) => json!({ "NS": values }),
        AttributeValue::Bs(values) => {
            json!({ "BS": values.iter().map(|value| blob(value.as_ref())).collect::<Vec<_>>() })
        }
        AttributeValue::L(values) => {
            json!({ "L": values.iter().map(value_json).collect::<Vec<_>>() })
        }
        AttributeValue::M(map) => json!({ "M": map_json(map) }),
        _ => json!({ "NULL": true }),
    }
}

fn map_json(map: &AttributeMap) -> Map<String, Value> {
    map.iter()
        .map(|(name, value)| (name.clone(), value_json(value)))
        .collect()
}

/// Whether the item or key `candidate` (DynamoDB JSON) has every attribute
/// of `key` with the same value.
fn has_key(candidate: Option<&Value>, key: &Map<String, Value>) -> bool {
    let Some(candidate) = candidate.and_then(Value::as_object) else {
        return false;
    };
    !key.is_empty()
        && key
            .iter()
            .all(|(name, value)| candidate.get(name) == Some(value))
}

/// A batch request with the entries of `keys` taken out: the request to
/// send (`None` when nothing is left) and what goes into the answer's
/// `UnprocessedItems` (`BatchWriteItem`) or `UnprocessedKeys`
/// (`BatchGetItem`).
pub(super) struct Split {
    pub(super) send: Option<Value>,
    pub(super) unprocessed: Map<String, Value>,
}

pub(super) fn split_batch(operation: &str, body: &Value, keys: &[AttributeMap]) -> Split {
    let keys: Vec<Map<String, Value>> = keys.iter().map(map_json).collect();
    let mut send = body.clone();
    let mut unprocessed = Map::new();
    let Some(items) = send.get_mut("RequestItems").and_then(Value::as_object_mut) else {
        return Split {
            send: Some(body.clone()),
            unprocessed,
        };
    };
    let write = operation == "BatchWriteItem";
    let mut emptied = Vec::new();
    for (table, entry) in items.iter_mut() {
        let taken: Vec<Value> = if write {
            let Some(requests) = entry.as_array_mut() else {
                continue;
            };
            let (out, kept): (Vec<Value>, Vec<Value>) = requests.drain(..).partition(|request| {
                let candidate = request
                    .pointer("/PutRequest/Item")
                    .or_else(|| request.pointer("/DeleteRequest/Key"));
                keys.iter().any(|key| has_key(candidate, key))
            });
            *requests = kept;
            if requests.is_empty() {
                emptied.push(table.clone());
            }
            out
        } else {
            let Some(requested) = entry.get_mut("Keys").and_then(Value::as_array_mut) else {
                continue;
            };
            let (out, kept): (Vec<Value>, Vec<Value>) = requested
                .drain(..)
                .partition(|candidate| keys.iter().any(|key| has_key(Some(candidate), key)));
            *requested = kept;
            if requested.is_empty() {
                emptied.push(table.clone());
            }
            out
        };
        if taken.is_empty() {
            continue;
        }
        let value = if write {
            Value::Array(taken)
        } else {
            // The table's other parameters (projection, consistency) come along.
            let mut unprocessed_entry = entry.as_object().cloned().unwrap_or_default();
            unprocessed_entry.insert("Keys".into(), Value::Array(taken));
            Value::Object(unprocessed_entry)
        };
        unprocessed.insert(table.clone(), value);
    }
    for table in emptied {
        items.remove(&table);
    }
    let send = (!items.is_empty()).then_some(send);
    Split { send, unprocessed }
}

/// The answer of a batch with `unprocessed` added to its unprocessed
/// entries; `answer` is the server's (`None` when nothing was sent).
pub(super) fn with_unprocessed(
    operation: &str,
    answer: Option<Value>,
    unprocessed: Map<String, Value>,
) -> Value {
    let member = if operation == "BatchWriteItem" {
        "UnprocessedItems"
    } else {
        "UnprocessedKeys"
    };
    let mut answer = answer.unwrap_or_else(|| {
        if operation == "BatchWriteItem" {
            json!({})
        } else {
            json!({ "Responses": {} })
        }
    });
    let Some(object) = answer.as_object_mut() else {
        return answer;
    };
    let entry = object
        .entry(member)
        .or_insert_with(|| Value::Object(Map::new()));
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    let entries = entry.as_object_mut().expect("made an object");
    for (table, value) in unprocessed {
        match (entries.get_mut(&table), value) {
            (Some(Value::Array(existing)), Value::Array(more)) => existing.extend(more),
            (Some(Value::Object(existing)), Value::Object(more)) => {
                if let (Some(Value::Array(keys)), Some(Value::Array(more_keys))) =
                    (existing.get_mut("Keys"), more.get("Keys"))
                {
                    keys.extend(more_keys.iter().cloned());
                }
            }
            (_, value) => {
                entries.insert(table, value);
            }
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key(pk: &str, sk: u8) -> AttributeMap {
        [
            ("PK".to_owned(), AttributeValue::S(pk.to_owned())),
            ("SK".to_owned(), AttributeValue::N(sk.to_string())),
        ]
        .into_iter()
        .collect()
    }

    fn write_request((pk, sk, put): &(String, u8, bool)) -> Value {
        let key = Value::Object(map_json(&key(pk, *sk)));
        if *put {
            let mut item = key.as_object().cloned().unwrap();
            item.insert("note".into(), json!({ "S": "x" }));
            json!({ "PutRequest": { "Item": item } })
        } else {
            json!({ "DeleteRequest": { "Key": key } })
        }
    }

    proptest! {
        /// A plain model of a batch left partly unprocessed: every request
        /// is either sent or unprocessed, in its order; the unprocessed
        /// ones are exactly those whose key was named; nothing is sent when
        /// nothing is left; the answer carries the server's unprocessed
        /// requests and the kit's.
        #[test]
        fn a_batch_write_splits_exactly_by_the_keys_named(
            requests in proptest::collection::vec(("[ab]", 0u8..4, any::<bool>()), 1..12),
            named in proptest::collection::vec(("[ab]", 0u8..4), 0..6),
        ) {
            let body = json!({
                "RequestItems": { "t": requests.iter().map(write_request).collect::<Vec<_>>() }
            });
            let keys: Vec<AttributeMap> = named.iter().map(|(pk, sk)| key(pk, *sk)).collect();
            let split = split_batch("BatchWriteItem", &body, &keys);
            let is_named = |(pk, sk, _): &(String, u8, bool)| named.iter().any(|(p, s)| p == pk && s == sk);
            let expected_sent: Vec<Value> = requests.iter().filter(|r| !is_named(r)).map(write_request).collect();
            let expected_unprocessed: Vec<Value> = requests.iter().filter(|r| is_named(r)).map(write_request).collect();
            let sent: Vec<Value> = split
                .send
                .as_ref()
                .map(|send| send["RequestItems"]["t"].as_array().cloned().unwrap())
                .unwrap_or_default();
            prop_assert_eq!(&sent, &expected_sent);
            prop_assert_eq!(split.send.is_none(), expected_sent.is_empty());
            let unprocessed = split.unprocessed.get("t").and_then(Value::as_array).cloned().unwrap_or_default();
            prop_assert_eq!(&unprocessed, &expected_unprocessed);
            let server = json!({ "UnprocessedItems": { "t": [write_request(&("z".to_owned(), 9, true))] } });
            let answer = with_unprocessed("BatchWriteItem", Some(server), split.unprocessed);
            let all = answer["UnprocessedItems"]["t"].as_array().cloned().unwrap();
            prop_assert_eq!(all.len(), 1 + expected_unprocessed.len());
        }
    }

    #[test]
    fn a_batch_get_keeps_the_tables_parameters_for_its_unprocessed_keys() {
        let body = json!({
            "RequestItems": { "t": {
                "Keys": [map_json(&key("a", 1)), map_json(&key("a", 2))],
                "ConsistentRead": true,
            }}
        });
        let split = split_batch("BatchGetItem", &body, &[key("a", 2)]);
        assert_eq!(
            split.send.unwrap(),
            json!({ "RequestItems": { "t": { "Keys": [map_json(&key("a", 1))], "ConsistentRead": true } } })
        );
        let answer = with_unprocessed("BatchGetItem", None, split.unprocessed);
        assert_eq!(
            answer,
            json!({
                "Responses": {},
                "UnprocessedKeys": { "t": { "Keys": [map_json(&key("a", 2))], "ConsistentRead": true } }
            })
        );
    }

    #[test]
    fn a_throttled_body_is_dynamodbs() {
        let body: Value = serde_json::from_str(&throttled(
            super::super::ThrottlingException::Throttling,
            "TableWriteKeyRangeThroughputExceeded",
            "arn:aws:dynamodb:us-east-1:123456789012:table/t",
        ))
        .unwrap();
        assert_eq!(
            body,
            json!({
                "__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException",
                "message": "Throughput exceeds the current throughput limit for your key range",
                "throttlingReasons": [{
                    "reason": "TableWriteKeyRangeThroughputExceeded",
                    "resource": "arn:aws:dynamodb:us-east-1:123456789012:table/t",
                }],
            })
        );
    }
}
