//! Transactions against the local server: every action kind, typed
//! cancellation reasons with the old items, a cancelled transaction that
//! leaves everything as it was, reads by position, and the refusals found
//! before sending.

use crate::common;
use stamp::AttributeMap;
use stamp::error::Refusal;

use stamp::{TransactGet, TransactWrite};
use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};
use stamp::{
    Condition, Delete, Entity, Error, Item, Put, Table, TableDefinition, Update,
    error::{CancellationCode, CancellationReason},
};
use stamp_examples::{Customer, Product, Session, examples};

/// Its own order entity: `note` makes an item of any size, for the size
/// refusals.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CUST#<customer_id>"]
#[sk = "ORDER#<order_id>"]
struct Order {
    customer_id: String,
    order_id: String,
    total_cents: u64,
    note: String,
}

fn definition() -> TableDefinition {
    TableDefinition::new()
        .entity::<Customer>()
        .entity::<Order>()
        .entity::<Product>()
        .entity::<Session>()
}

/// The reference model's customer, as `c-1`, with one order counted.
fn customer() -> Customer {
    Customer {
        customer_id: "c-1".into(),
        order_count: 1,
        ..examples::customer()
    }
}

fn order(order_id: &str, total_cents: u64) -> Order {
    Order {
        customer_id: "c-1".into(),
        order_id: order_id.into(),
        total_cents,
        note: format!("order {order_id}"),
    }
}

/// The reference model's product, as `sku`, with `stock` in stock.
fn product(sku: &str, stock: u32) -> Product {
    Product {
        sku: sku.into(),
        stock,
        ..examples::product()
    }
}

/// The reference model's session `s-1` of customer `c-1`, expiring long
/// after the test (an expired item may be deleted by TTL at any time).
fn session() -> Session {
    Session {
        token: "s-1".into(),
        customer_id: "c-1".into(),
        expires_at: "2100-01-01T00:00:00Z".parse().unwrap(),
    }
}

/// `order_count + 1` on customer `c-1`.
fn count_order() -> Update<Customer> {
    Customer::update("c-1").add(Customer::ORDER_COUNT, &1)
}

/// `stock - quantity` on product `sku`, if `stock >= quantity`.
fn take_stock(sku: &str, quantity: u32) -> Update<Product> {
    Product::update(sku)
        .subtract(Product::STOCK, &quantity)
        .condition(Product::STOCK.ge(&quantity))
}

/// A reading DynamoDB cannot store as a number (NaN), for the refusal of an
/// update value.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "GAUGE#<gauge_id>"]
#[sk = "GAUGE"]
struct Gauge {
    gauge_id: String,
    reading: f64,
}

async fn shop(test: &str) -> (Table, common::RequestCounter) {
    let (table, counter) = common::fresh_counted_table(test, &definition()).await;
    table.put(&customer()).await.unwrap();
    table.put(&order("o-1", 1500)).await.unwrap();
    table.put(&product("A", 5)).await.unwrap();
    table.put(&product("B", 1)).await.unwrap();
    table.put(&session()).await.unwrap();
    counter.reset();
    (table, counter)
}

#[tokio::test]
async fn a_transaction_applies_all_its_actions() {
    let (table, counter) = shop("tx-applies").await;
    TransactWrite::new()
        .create(&order("o-2", 2500))
        .update(count_order())
        .update(take_stock("A", 2))
        .check(Product::key("B").unwrap(), Product::STOCK.ge(&1))
        .delete(Session::key("s-1").unwrap())
        .put(Put::new(&product("C", 10)).condition(Condition::attribute_not_exists("PK")))
        .client_request_token("place-order-o-2")
        .send(&table)
        .await
        .unwrap();
    assert_eq!(counter.operations(), ["TransactWriteItems"]);

    assert_eq!(
        table
            .get(
                &Order::key(OrderKey {
                    customer_id: "c-1",
                    order_id: "o-2"
                })
                .unwrap()
            )
            .await
            .unwrap(),
        Some(order("o-2", 2500))
    );
    assert_eq!(
        table
            .get(&Customer::key("c-1").unwrap())
            .await
            .unwrap()
            .unwrap()
            .order_count,
        2
    );
    assert_eq!(
        table.get(&Product::key("A").unwrap()).await.unwrap(),
        Some(product("A", 3))
    );
    assert_eq!(
        table.get(&Product::key("B").unwrap()).await.unwrap(),
        Some(product("B", 1))
    );
    assert_eq!(
        table.get(&Product::key("C").unwrap()).await.unwrap(),
        Some(product("C", 10))
    );
    assert_eq!(
        table.get(&Session::key("s-1").unwrap()).await.unwrap(),
        None
    );
}

/// What a cancelled transaction left: the table, every item before it, and
/// the error's table name and reasons.
struct Cancelled {
    table: Table,
    before: BTreeMap<(String, String), AttributeMap>,
    table_name: String,
    reasons: Vec<CancellationReason>,
}

/// Sends, in a fresh shop, a transaction of seven actions of which three
/// fail (actions 0, 3 and 5), in one request, and returns its cancellation.
async fn cancel_a_transaction(test: &str) -> Cancelled {
    let (table, counter) = shop(test).await;
    let before = common::items_by_key(&table).await;
    counter.reset();

    let result = TransactWrite::new()
        .create(&order("o-1", 9999)) // exists: fails
        .update(count_order())
        .update(take_stock("A", 2))
        .update(take_stock("B", 3)) // only 1 in stock: fails
        .delete(Session::key("s-1").unwrap())
        .check(
            Product::key("Z").unwrap(),
            Condition::attribute_exists("PK"),
        ) // no such item: fails
        .put(&product("C", 10))
        .client_request_token("place-order-o-1")
        .send(&table)
        .await;
    assert_eq!(counter.operations(), ["TransactWriteItems"]);
    let Err(Error::TransactionCanceled {
        table: table_name,
        reasons,
    }) = result
    else {
        panic!("expected TransactionCanceled, got {result:?}");
    };
    assert_eq!(table_name, table.name());
    Cancelled {
        table,
        before,
        table_name,
        reasons,
    }
}

/// One cancellation reason as a comparable tuple: action index, entity,
/// key, code, old item.
type ReasonTuple = (
    usize,
    &'static str,
    AttributeMap,
    CancellationCode,
    Option<AttributeMap>,
);

/// The reasons of [`cancel_a_transaction`]'s seven actions, the failed
/// conditions with the old item where there is one.
fn expected_reasons(before: &BTreeMap<(String, String), AttributeMap>) -> Vec<ReasonTuple> {
    let existing_order = before[&("CUST#c-1".to_owned(), "ORDER#o-1".to_owned())].clone();
    let product_b = before[&("PRODUCT#B".to_owned(), "PRODUCT".to_owned())].clone();
    let reason =
        |index: usize,
         entity: &'static str,
         key: AttributeMap,
         code: CancellationCode,
         old_item: Option<AttributeMap>| { (index, entity, key, code, old_item) };
    let failed = CancellationCode::ConditionalCheckFailed;
    vec![
        reason(
            0,
            "Order",
            Order::key(OrderKey {
                customer_id: "c-1",
                order_id: "o-1",
            })
            .unwrap()
            .to_attribute_map(),
            failed.clone(),
            Some(existing_order),
        ),
        reason(
            1,
            "Customer",
            Customer::key("c-1").unwrap().to_attribute_map(),
            CancellationCode::None,
            None,
        ),
        reason(
            2,
            "Product",
            Product::key("A").unwrap().to_attribute_map(),
            CancellationCode::None,
            None,
        ),
        reason(
            3,
            "Product",
            Product::key("B").unwrap().to_attribute_map(),
            failed.clone(),
            Some(product_b),
        ),
        reason(
            4,
            "Session",
            Session::key("s-1").unwrap().to_attribute_map(),
            CancellationCode::None,
            None,
        ),
        reason(
            5,
            "Product",
            Product::key("Z").unwrap().to_attribute_map(),
            failed,
            None,
        ),
        reason(
            6,
            "Product",
            Product::key("C").unwrap().to_attribute_map(),
            CancellationCode::None,
            None,
        ),
    ]
}

#[tokio::test]
async fn a_cancelled_transaction_gives_each_actions_code_key_and_old_item() {
    let cancelled = cancel_a_transaction("tx-cancelled-reasons").await;
    let got: Vec<ReasonTuple> = cancelled
        .reasons
        .iter()
        .map(
            |CancellationReason {
                 index,
                 entity,
                 key,
                 code,
                 old_item,
                 ..
             }| {
                (
                    *index,
                    *entity,
                    key.to_attribute_map(),
                    code.clone(),
                    old_item.clone(),
                )
            },
        )
        .collect();
    assert_eq!(got, expected_reasons(&cancelled.before));
}

#[tokio::test]
async fn a_cancelled_transaction_has_a_message_for_each_failed_action_and_says_why() {
    let Cancelled {
        table_name,
        reasons,
        ..
    } = cancel_a_transaction("tx-cancelled-message").await;
    for reason in &reasons {
        assert_eq!(
            reason.message.is_some(),
            reason.code != CancellationCode::None,
            "{reason:?}"
        );
    }
    let text = Error::TransactionCanceled {
        table: table_name,
        reasons,
    }
    .to_string();
    assert!(
        text.contains("action 0 (Order PK=CUST#c-1, SK=ORDER#o-1) ConditionalCheckFailed"),
        "{text}"
    );
}

#[tokio::test]
async fn a_cancelled_transaction_leaves_every_item_as_it_was() {
    let cancelled = cancel_a_transaction("tx-cancelled-nothing").await;
    // Nothing of it was applied.
    assert_eq!(
        common::items_by_key(&cancelled.table).await,
        cancelled.before
    );
}

#[tokio::test]
async fn the_request_renders_conditions_with_placeholders() {
    let (table, counter) = shop("tx-request").await;
    let transaction = TransactWrite::new()
        .create(&order("o-2", 1))
        .delete(
            Delete::new(Session::key("s-1").unwrap())
                .condition(Session::CUSTOMER_ID.eq(&"c-1".to_owned())),
        )
        .put(&product("D", 1));
    let request = transaction
        .request(table.name())
        .unwrap()
        .transact_items
        .unwrap();
    assert_eq!(request.len(), 3);
    let put = request[0].put.as_ref().unwrap();
    assert_eq!(
        put.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    assert_eq!(
        put.expression_attribute_names,
        Some(HashMap::from([("#n0".to_owned(), "PK".to_owned())]))
    );
    assert_eq!(put.item, order("o-2", 1).to_item().unwrap());
    assert_eq!(
        put.return_values_on_condition_check_failure
            .as_ref()
            .map(|value| value.as_str()),
        Some("ALL_OLD")
    );
    let delete = request[1].delete.as_ref().unwrap();
    assert_eq!(delete.condition_expression.as_deref(), Some("#n0 = :v0"));
    assert_eq!(
        delete.expression_attribute_values,
        Some(HashMap::from([(
            ":v0".to_owned(),
            AttributeValue::S("c-1".into())
        )]))
    );
    assert_eq!(delete.key, Session::key("s-1").unwrap().to_attribute_map());
    // An action without a condition asks for no old item.
    let unconditional = request[2].put.as_ref().unwrap();
    assert_eq!(unconditional.condition_expression, None);
    assert_eq!(unconditional.return_values_on_condition_check_failure, None);
    assert!(counter.operations().is_empty());

    transaction.send(&table).await.unwrap();
    assert_eq!(
        table.get(&Session::key("s-1").unwrap()).await.unwrap(),
        None
    );
}

/// The shop of a refusal test: its table and the counter that must see no
/// request.
async fn shop_for_refusal(test: &str) -> (Table, common::RequestCounter) {
    shop(&format!("tx-refuse-{test}")).await
}

/// A refusal sends nothing: the counter saw no request.
fn assert_nothing_sent(counter: &common::RequestCounter) {
    assert_eq!(counter.operations(), Vec::<String>::new());
}

#[tokio::test]
async fn an_empty_write_transaction_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("empty-write").await;
    let result = TransactWrite::new().send(&table).await;
    assert!(
        matches!(result, Err(Error::Refused(Refusal::EmptyTransaction))),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn a_write_transaction_of_101_actions_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("101-writes").await;
    let products: Vec<Product> = (0..101).map(|i| product(&format!("P{i}"), i)).collect();
    let result = products
        .iter()
        .fold(TransactWrite::new(), |tx, p| tx.put(p))
        .send(&table)
        .await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::TooManyTransactionActions {
                count: 101,
                limit: 100
            }))
        ),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn a_write_transaction_over_4_mb_is_refused_with_its_size_before_sending() {
    let (table, counter) = shop_for_refusal("over-4mb").await;
    // Eleven items of 390,000 bytes each: each fits in 400 KB, together
    // they are over 4 MB.
    let big: Vec<Order> = (0..11)
        .map(|i| Order {
            note: "x".repeat(390_000),
            ..order(&format!("big-{i}"), 1)
        })
        .collect();
    let result = big
        .iter()
        .fold(TransactWrite::new(), |tx, o| tx.put(o))
        .send(&table)
        .await;
    match result {
        Err(Error::Refused(Refusal::TransactionTooLarge {
            size,
            limit: 4_194_304,
        })) => {
            let expected: usize = big
                .iter()
                .map(|o| stamp::item::item_size(&o.to_item().unwrap()))
                .sum();
            assert_eq!(size, expected);
        }
        other => panic!("expected TransactionTooLarge, got {other:?}"),
    }
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn a_put_and_a_check_on_one_item_are_refused_naming_both_and_the_key() {
    let (table, counter) = shop_for_refusal("put-and-check").await;
    // Two actions on one item: a put and a condition check.
    let result = TransactWrite::new()
        .put(&product("A", 1))
        .delete(Session::key("s-1").unwrap())
        .check(Product::key("A").unwrap(), Product::STOCK.gt(&0))
        .send(&table)
        .await;
    match result {
        Err(Error::Refused(Refusal::DuplicateTransactionItem {
            first: 0,
            second: 2,
            entity: "Product",
            key,
        })) => {
            assert_eq!(
                key.to_attribute_map(),
                Product::key("A").unwrap().to_attribute_map()
            );
            // The key is an `ItemKey`: attribute names and values, one
            // formatter.
            assert_eq!(key.partition_key(), ("PK", "PRODUCT#A"));
            assert_eq!(key.to_string(), "PK=PRODUCT#A, SK=PRODUCT");
        }
        other => panic!("expected DuplicateTransactionItem, got {other:?}"),
    }
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn an_update_and_a_put_on_one_item_are_refused_before_sending() {
    let (table, counter) = shop_for_refusal("update-and-put").await;
    // An update on an item another action names.
    let result = TransactWrite::new()
        .update(take_stock("A", 1))
        .put(&product("A", 1))
        .send(&table)
        .await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::DuplicateTransactionItem {
                first: 0,
                second: 1,
                ..
            }))
        ),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn an_empty_or_37_character_client_request_token_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("token").await;
    for token in ["", "0123456789012345678901234567890123456"] {
        let result = TransactWrite::new()
            .put(&product("A", 1))
            .client_request_token(token)
            .send(&table)
            .await;
        assert!(
            matches!(&result, Err(Error::Refused(Refusal::InvalidClientRequestToken { token: found })) if found == token),
            "{result:?}"
        );
    }
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn an_item_over_400_kb_in_a_transaction_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("over-400kb").await;
    // One item over 400 KB.
    let result = TransactWrite::new()
        .put(&Order {
            note: "x".repeat(410_000),
            ..order("huge", 1)
        })
        .send(&table)
        .await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::ItemTooLarge {
                entity: "Order",
                ..
            }))
        ),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn a_nan_update_value_in_a_transaction_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("nan").await;
    // An update value DynamoDB cannot store.
    let update = Gauge::update("g-1").set(Gauge::READING, &f64::NAN);
    let result = TransactWrite::new().update(update).send(&table).await;
    assert!(
        matches!(&result, Err(Error::Refused(Refusal::InvalidNumber { entity: "Gauge", attribute, value, .. })) if attribute == "reading" && value == "NaN"),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn an_empty_read_transaction_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("empty-read").await;
    let result = TransactGet::new().send(&table).await;
    assert!(
        matches!(result, Err(Error::Refused(Refusal::EmptyTransaction))),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn a_read_transaction_of_101_items_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("101-reads").await;
    let mut read = TransactGet::new();
    for i in 0..101 {
        read.get(&Product::key(&format!("P{i}")).unwrap());
    }
    let result = read.send(&table).await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::TooManyTransactionActions {
                count: 101,
                limit: 100
            }))
        ),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn a_read_transaction_naming_one_item_twice_is_refused_before_sending() {
    let (table, counter) = shop_for_refusal("read-twice").await;
    let mut read = TransactGet::new();
    read.get(&Customer::key("c-1").unwrap());
    read.get(&Customer::key("c-1").unwrap());
    let result = read.send(&table).await;
    assert!(
        matches!(
            result,
            Err(Error::Refused(Refusal::DuplicateTransactionItem {
                first: 0,
                second: 1,
                entity: "Customer",
                ..
            }))
        ),
        "{result:?}"
    );
    assert_nothing_sent(&counter);
}

#[tokio::test]
async fn transact_get_decodes_each_item_by_position() {
    let (table, counter) = shop("tx-get").await;
    let mut read = TransactGet::new();
    let customer_slot = read.get(&Customer::key("c-1").unwrap());
    let missing = read.get(&Product::key("nope").unwrap());
    let order_slot = read.get(
        &Order::key(OrderKey {
            customer_id: "c-1",
            order_id: "o-1",
        })
        .unwrap(),
    );
    let product_slot = read.get(&Product::key("A").unwrap());
    let mut items = read.send(&table).await.unwrap();
    assert_eq!(counter.operations(), ["TransactGetItems"]);
    assert_eq!(items.take(product_slot).unwrap(), Some(product("A", 5)));
    assert_eq!(items.take(customer_slot).unwrap(), Some(customer()));
    assert_eq!(items.take(missing).unwrap(), None);
    assert_eq!(items.take(order_slot).unwrap(), Some(order("o-1", 1500)));
    // Taken once.
    assert_eq!(items.take(order_slot).unwrap(), None);
}

#[tokio::test]
async fn a_repeated_client_request_token_is_applied_once() {
    // TransactWriteItems is idempotent for 10 minutes per ClientRequestToken:
    // a repeat with the same token and the same actions succeeds and changes
    // nothing; a repeat with other actions is refused with
    // IdempotentParameterMismatchException (API reference,
    // TransactWriteItems, "ClientRequestToken").
    let (table, counter) = shop("tx-token").await;
    let place = || {
        TransactWrite::new()
            .create(&order("o-2", 2500))
            .update(count_order())
            .update(take_stock("A", 2))
            .client_request_token("place-order-o-2-token")
    };
    place().send(&table).await.unwrap();
    place().send(&table).await.unwrap();
    assert_eq!(counter.count("TransactWriteItems"), 2);
    let customer = table.get(&Customer::key("c-1").unwrap()).await.unwrap();
    assert_eq!(customer.unwrap().order_count, 2, "counted once, from 1");
    assert_eq!(
        table.get(&Product::key("A").unwrap()).await.unwrap(),
        Some(product("A", 3)),
        "stock taken once, from 5"
    );

    let other = TransactWrite::new()
        .update(take_stock("A", 1))
        .client_request_token("place-order-o-2-token")
        .send(&table)
        .await;
    let Err(Error::DynamoDb { source, .. }) = &other else {
        panic!("expected the service's refusal, got {other:?}");
    };
    assert!(
        matches!(
            source.as_ref(),
            aws_sdk_dynamodb::Error::IdempotentParameterMismatchException(_)
        ),
        "{source:?}"
    );
    assert_eq!(
        table.get(&Product::key("A").unwrap()).await.unwrap(),
        Some(product("A", 3)),
        "the refused transaction changed nothing"
    );
}

/// An entity whose sort key attribute's name comes first alphabetically.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[stamp(pk_attribute = "Zone", sk_attribute = "At")]
#[pk = "LEDGER#<ledger_id>"]
#[sk = "ENTRY#<entry_id>"]
struct Entry {
    ledger_id: String,
    entry_id: String,
}

/// The key in a transaction error names the partition and sort key by the
/// entity's own key attributes, whatever their names' order; nothing is
/// sent.
#[tokio::test]
async fn a_transaction_error_names_the_item_by_its_entitys_key_attributes() {
    let (client, counter) = common::counting_client();
    let table = Table::new(client, "never-created");
    let entry = Entry {
        ledger_id: "l-1".into(),
        entry_id: "e-1".into(),
    };
    let result = TransactWrite::new()
        .put(&entry)
        .delete(Delete::new(
            Entry::key(EntryKey {
                ledger_id: "l-1",
                entry_id: "e-1",
            })
            .unwrap(),
        ))
        .send(&table)
        .await;
    match result {
        Err(Error::Refused(Refusal::DuplicateTransactionItem {
            first: 0,
            second: 1,
            entity: "Entry",
            key,
        })) => {
            assert_eq!(key.partition_key(), ("Zone", "LEDGER#l-1"));
            assert_eq!(key.sort_key(), ("At", "ENTRY#e-1"));
            assert_eq!(key.to_string(), "Zone=LEDGER#l-1, At=ENTRY#e-1");
        }
        other => panic!("expected DuplicateTransactionItem, got {other:?}"),
    }
    let mut read = TransactGet::new();
    read.get(
        &Entry::key(EntryKey {
            ledger_id: "l-1",
            entry_id: "e-1",
        })
        .unwrap(),
    );
    read.get(
        &Entry::key(EntryKey {
            ledger_id: "l-1",
            entry_id: "e-1",
        })
        .unwrap(),
    );
    match read.send(&table).await {
        Err(Error::Refused(Refusal::DuplicateTransactionItem { key, .. })) => {
            assert_eq!(key.to_string(), "Zone=LEDGER#l-1, At=ENTRY#e-1");
        }
        other => panic!("expected DuplicateTransactionItem, got {other:?}"),
    }
    assert_eq!(counter.operations(), Vec::<String>::new());
}
