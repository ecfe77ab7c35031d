//! DynamoDB Streams records, decoded into typed changes of the reference
//! model's collections. The records are the JSON files under
//! `tests/fixtures/streams/`, written from AWS's description of a stream
//! record (`eventID`, `eventName`, `eventVersion`, `eventSource`,
//! `awsRegion`, `userIdentity`, and `dynamodb`: `ApproximateCreationDateTime`,
//! `Keys`, `NewImage`, `OldImage`, `SequenceNumber`, `SizeBytes`,
//! `StreamViewType`), one file per view type plus unknown types, a TTL
//! expiry and invalid records.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Utc};
use stamp::AttributeMap;
use stamp::error::{JobError, KeyError};
use stamp::streams::{Change, ChangeKind, Event, ViewType, changes};
use stamp::{Entity, Error};
use stamp_examples::{Customer, CustomerWithOrders, Order, OrderStatus, Session};
use uuid::Uuid;

/// Sessions alone: their partition is not a customer's.
#[derive(stamp::Collection, Debug, Clone, PartialEq)]
enum Sessions {
    Session(Session),
    Unknown(AttributeMap),
}

fn event(name: &str) -> Event {
    let path = format!(
        "{}/tests/fixtures/streams/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

fn decode(name: &str) -> Vec<Change<CustomerWithOrders>> {
    changes::<CustomerWithOrders>(event(name))
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|error| panic!("{name}: {error}"))
}

fn time(text: &str) -> DateTime<Utc> {
    text.parse().unwrap()
}

fn order(status: OrderStatus, updated_at: &str) -> Order {
    Order {
        customer_id: "c-0001".into(),
        order_id: Uuid::from_u128(1),
        created_at: time("2026-06-01T10:00:00Z"),
        created_month: "2026-06".into(),
        status: Some(status),
        updated_at: time(updated_at),
        total_cents: 4_500,
        line_count: 1,
        embedding: stamp_examples::examples::order(1).embedding,
    }
}

fn placed() -> CustomerWithOrders {
    CustomerWithOrders::Order(order(OrderStatus::Pending, "2026-06-01T10:00:00Z"))
}

fn shipped() -> CustomerWithOrders {
    CustomerWithOrders::Order(order(OrderStatus::Shipped, "2026-06-02T08:30:00Z"))
}

fn customer() -> CustomerWithOrders {
    CustomerWithOrders::Customer(Customer {
        customer_id: "c-0001".into(),
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        order_count: 1,
        created_at: time("2026-05-02T09:00:00Z"),
    })
}

fn order_keys() -> AttributeMap {
    order(OrderStatus::Pending, "2026-06-01T10:00:00Z")
        .primary_key()
        .unwrap()
        .to_attribute_map()
}

fn customer_keys() -> AttributeMap {
    Customer::key("c-0001").unwrap().to_attribute_map()
}

/// What every view type has in common: the kinds, keys, entity from the
/// keys, metadata, in record order.
fn check_common(changes: &[Change<CustomerWithOrders>], view_type: ViewType) {
    let prefix = view_type.as_str().to_lowercase().replace('_', "-");
    assert_eq!(changes.len(), 3);
    let kinds: Vec<ChangeKind> = changes.iter().map(|change| change.kind).collect();
    assert_eq!(
        kinds,
        [ChangeKind::Insert, ChangeKind::Modify, ChangeKind::Remove]
    );
    assert_eq!(changes[0].keys, order_keys());
    assert_eq!(changes[1].keys, order_keys());
    assert_eq!(changes[2].keys, customer_keys());
    let entities: Vec<Option<&str>> = changes.iter().map(|change| change.key_entity).collect();
    assert_eq!(entities, [Some("Order"), Some("Order"), Some("Customer")]);
    let times: Vec<Option<DateTime<Utc>>> = changes
        .iter()
        .map(|change| change.approximate_creation_date_time)
        .collect();
    assert_eq!(
        times,
        [
            Some(time("2026-06-01T10:00:00Z")),
            Some(time("2026-06-02T08:30:00Z")),
            Some(time("2026-06-02T09:30:00Z")),
        ]
    );
    for (position, change) in changes.iter().enumerate() {
        assert_eq!(change.view_type, Some(view_type));
        assert_eq!(change.event_id, format!("{prefix}-{}", position + 1));
        assert!(change.size_bytes > 0);
        assert!(!change.removed_by_ttl);
    }
    let sequence: Vec<u128> = changes
        .iter()
        .map(|change| change.sequence_number.as_deref().unwrap().parse().unwrap())
        .collect();
    assert!(sequence.windows(2).all(|pair| pair[0] < pair[1]));
}

#[test]
fn new_and_old_images_give_both_images() {
    let changes = decode("new-and-old-images.json");
    check_common(&changes, ViewType::NewAndOldImages);
    let images: Vec<(Option<CustomerWithOrders>, Option<CustomerWithOrders>)> = changes
        .iter()
        .map(|change| (change.old.clone(), change.new.clone()))
        .collect();
    assert_eq!(
        images,
        [
            (None, Some(placed())),
            (Some(placed()), Some(shipped())),
            (Some(customer()), None),
        ]
    );
    let types: Vec<Option<&str>> = changes
        .iter()
        .map(|change| change.entity_type.as_deref())
        .collect();
    assert_eq!(types, [Some("Order"), Some("Order"), Some("Customer")]);
    assert_eq!(changes[1].image(), Some(&shipped()));
    assert_eq!(changes[2].image(), Some(&customer()));
}

#[test]
fn new_image_gives_the_item_after_the_change() {
    let changes = decode("new-image.json");
    check_common(&changes, ViewType::NewImage);
    let images: Vec<(Option<CustomerWithOrders>, Option<CustomerWithOrders>)> = changes
        .iter()
        .map(|change| (change.old.clone(), change.new.clone()))
        .collect();
    assert_eq!(
        images,
        [
            (None, Some(placed())),
            (None, Some(shipped())),
            (None, None)
        ]
    );
    // A removal in NEW_IMAGE carries the keys only.
    assert_eq!(changes[2].entity_type, None);
    assert_eq!(changes[2].image(), None);
}

#[test]
fn old_image_gives_the_item_before_the_change() {
    let changes = decode("old-image.json");
    check_common(&changes, ViewType::OldImage);
    let images: Vec<(Option<CustomerWithOrders>, Option<CustomerWithOrders>)> = changes
        .iter()
        .map(|change| (change.old.clone(), change.new.clone()))
        .collect();
    assert_eq!(
        images,
        [
            (None, None),
            (Some(placed()), None),
            (Some(customer()), None)
        ]
    );
    assert_eq!(changes[0].entity_type, None);
}

#[test]
fn keys_only_gives_typed_keys_and_the_entity_from_the_key_shape() {
    let changes = decode("keys-only.json");
    check_common(&changes, ViewType::KeysOnly);
    for change in &changes {
        assert_eq!((&change.old, &change.new), (&None, &None));
        assert_eq!(change.entity_type, None);
    }
    // The typed key, and its fields parsed back.
    let key = changes[0].primary_key::<Order>().unwrap();
    assert_eq!(key, order_keys_typed());
    let (created_at, order_id) = Order::parse_sort_key(key.sort_key()).unwrap();
    assert_eq!(
        (created_at, order_id),
        (time("2026-06-01T10:00:00Z"), Uuid::from_u128(1))
    );
    assert_eq!(
        changes[2].primary_key::<Customer>().unwrap(),
        Customer::key("c-0001").unwrap()
    );
    // The keys of a customer are not an order's.
    let error = changes[2].primary_key::<Order>().unwrap_err();
    assert!(
        matches!(&error, Error::Key(KeyError::KeyMismatch { entity: "Order", key, .. }) if key == "PROFILE"),
        "{error:?}"
    );
    let error = changes[2].primary_key::<Session>().unwrap_err();
    assert!(
        matches!(&error, Error::Key(KeyError::KeyMismatch { entity: "Session", key, .. }) if key == "CUST#c-0001"),
        "{error:?}"
    );
}

fn order_keys_typed() -> stamp::PrimaryKey<Order> {
    Order::key("c-0001", &time("2026-06-01T10:00:00Z"), &Uuid::from_u128(1)).unwrap()
}

#[test]
fn an_unknown_type_is_reported_as_unknown_never_a_panic() {
    let changes = decode("unknown-type.json");
    assert_eq!(changes.len(), 4);
    let invoice = |amount: &str| -> AttributeMap {
        AttributeMap::from([
            ("PK".into(), AttributeValue::S("CUST#c-0001".into())),
            ("SK".into(), AttributeValue::S("INVOICE#2026-06".into())),
            ("Type".into(), AttributeValue::S("Invoice".into())),
            ("month".into(), AttributeValue::S("2026-06".into())),
            ("amount_cents".into(), AttributeValue::N(amount.into())),
        ])
    };
    assert_eq!(changes[0].kind, ChangeKind::Insert);
    assert_eq!(changes[0].entity_type.as_deref(), Some("Invoice"));
    assert_eq!(
        changes[0].new,
        Some(CustomerWithOrders::Unknown(invoice("4500")))
    );
    assert_eq!(changes[1].kind, ChangeKind::Modify);
    assert_eq!(
        changes[1].old,
        Some(CustomerWithOrders::Unknown(invoice("4500")))
    );
    assert_eq!(
        changes[1].new,
        Some(CustomerWithOrders::Unknown(invoice("5000")))
    );
    // Keys only: no member's templates fit `INVOICE#…`, so no entity.
    assert_eq!(changes[2].kind, ChangeKind::Remove);
    assert_eq!(changes[2].key_entity, None);
    assert_eq!(changes[2].entity_type, None);
    assert!(changes[2].primary_key::<Order>().is_err());
    assert!(changes[2].primary_key::<Customer>().is_err());
    // No type attribute at all, and a partition no member has.
    assert_eq!(changes[3].entity_type, None);
    assert_eq!(changes[3].key_entity, None);
    let Some(CustomerWithOrders::Unknown(item)) = &changes[3].new else {
        panic!("{:?}", changes[3].new);
    };
    assert_eq!(item.get("PK"), Some(&AttributeValue::S("LEGACY#17".into())));
    assert!(matches!(item.get("payload"), Some(AttributeValue::M(_))));
}

#[test]
fn a_ttl_expiry_is_a_removal_by_the_service() {
    let mut changes = changes::<Sessions>(event("ttl-expiry.json"));
    let change = changes.next().unwrap().unwrap();
    assert!(changes.next().is_none());
    assert_eq!(change.kind, ChangeKind::Remove);
    assert!(change.removed_by_ttl);
    assert_eq!(change.key_entity, Some("Session"));
    assert_eq!(
        change.old,
        Some(Sessions::Session(Session {
            token: "tok-7f3a".into(),
            customer_id: "c-0001".into(),
            expires_at: time("2026-06-02T10:00:00Z"),
        }))
    );
    assert_eq!(
        change.approximate_creation_date_time,
        Some(time("2026-06-02T10:10:00Z"))
    );
}

#[test]
fn invalid_records_are_typed_errors_next_to_the_others() {
    let results: Vec<Result<Change<CustomerWithOrders>, Error>> =
        changes(event("invalid.json")).collect();
    assert_eq!(results.len(), 5);
    let reason = |position: usize| match &results[position] {
        Err(Error::Job(JobError::InvalidStreamRecord {
            event_id,
            reason,
            key,
            entity,
        })) => {
            let view = ["new-image", "new-image", "new-and-old-images", "keys-only"][position];
            assert_eq!(event_id, &format!("{view}-{}", position + 1));
            (reason.to_string(), key.clone(), entity.clone())
        }
        other => panic!("record {position}: {other:?}"),
    };
    let (text, key, entity) = reason(0);
    assert_eq!(
        text,
        "the eventName is `UPSERT`, not INSERT, MODIFY or REMOVE"
    );
    assert_eq!(key.map(|key| key.to_attribute_map()), Some(order_keys()));
    assert_eq!(entity.as_deref(), Some("Order"));
    let (text, _, entity) = reason(1);
    assert!(
        text.starts_with("its NewImage cannot be read: ") && text.contains("Order"),
        "{text}"
    );
    assert_eq!(entity.as_deref(), Some("Order"));
    let (text, _, _) = reason(2);
    assert_eq!(
        text,
        "an INSERT record has an OldImage, which DynamoDB never writes"
    );
    let (text, key, _) = reason(3);
    assert_eq!(text, "the record has no Keys");
    assert_eq!(key, None);
    // A valid record among them still decodes.
    let change = results[4].as_ref().unwrap();
    assert_eq!(change.kind, ChangeKind::Insert);
    assert_eq!(change.key_entity, Some("Order"));
    // The message names the record, its key and what is wrong.
    let message = results[0].as_ref().unwrap_err().to_string();
    assert!(
        message.starts_with("stream record `new-image-1` with key PK=CUST#c-0001, SK=")
            && message.ends_with(
                "cannot be decoded as entity `Order`: the eventName is `UPSERT`, not INSERT, MODIFY or REMOVE"
            ),
        "{message}"
    );
}
