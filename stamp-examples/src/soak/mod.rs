//! A concurrent fault soak of the reference service: many tasks do its
//! work at random over one table, through a client whose HTTP path injects
//! faults (Stamp's test kit, [`stamp::testing::Faults`]: throttling with
//! its reasons, server errors, a proxy's HTML 502, answers cut short, lost
//! or timed out after the server applied the request, slow answers), and
//! the final table is compared with a plain Rust model of what Stamp
//! acknowledged.
//!
//! The work: orders placed in one transaction each ([`place_order`]:
//! the order, its lines, the stock and the customer's count), versioned
//! changes of shared carts with a retry-on-conflict loop (updates and
//! puts), `ADD` counters, conditional creates (new and taken keys), batch
//! writes, re-keys and deletes of sessions. Every failure Stamp reports is
//! taken at its word: a write that "may have been applied"
//! ([`Error::may_have_been_applied`]) is resolved by reading the item, as a
//! caller would; any other failure means "not applied", and the final
//! comparison proves it was not.
//!
//! The invariants checked at the end (bank-style, [`verify`]):
//! - stock plus units sold is each product's initial stock;
//! - the orders stored are exactly the orders acknowledged (or found by
//!   reading after an uncertain failure), each with its lines, and its total
//!   and line count match its lines; no line item without its order;
//! - each customer's `order_count` is their number of orders;
//! - each cart holds every acknowledged change exactly once and no other,
//!   at version 1 + its changes; versions a task read never went down;
//! - each counter is at least its acknowledged increments and at most
//!   those plus the uncertain ones (an `ADD` is never applied twice);
//! - the sessions stored are exactly the model's.
//!
//! `cargo xtask soak` runs it over a sweep of seeds; a bounded run is a
//! test (`tests/soak.rs`). A failure names its seed.

mod report;
mod verify;
mod worker;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::config::retry::RetryConfig;
use chrono::{DateTime, TimeDelta, Utc};
use futures::TryStreamExt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use stamp::{BatchWrite, Delete, Entity, Error, Item, PrimaryKey, Table, TableDefinition};
use uuid::Uuid;

use crate::scenario::{OrderLine, Placement, place_order};
use crate::{Customer, LineItem, Order, Product, Session};
pub use report::{OperationCounts, SoakFailure, SoakReport};
use stamp::testing::{FaultCounts, FaultKind, Faults};
use verify::verify;
use worker::{Shared, Worker};

/// A shared shopping cart, changed only by versioned writes: each change
/// appends its operation id to `changes`, so a change applied twice, or an
/// acknowledged one lost, shows.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "CART#<cart_id>"]
#[sk = "CART"]
pub struct Cart {
    /// The cart's id, such as `cart-1`.
    pub cart_id: String,
    /// The operation ids of the changes applied, in order.
    pub changes: Vec<String>,
    /// Optimistic locking: 1 when created, one more per change.
    #[stamp(version)]
    pub version: u64,
}

/// A counter incremented with `ADD`, which is not idempotent.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "TALLY#<name>"]
#[sk = "TALLY"]
pub struct Tally {
    /// The counter's name, such as `visits-1`.
    pub name: String,
    /// Its value.
    pub count: u64,
}

/// The soak's table: the reference service's entities, carts and counters.
pub fn table_definition() -> TableDefinition {
    crate::table_definition().entity::<Cart>().entity::<Tally>()
}

/// What one soak run does.
#[derive(Debug, Clone, PartialEq)]
pub struct SoakOptions {
    /// Seeds the work of every task and the faults.
    pub seed: u64,
    /// Tasks working at once.
    pub tasks: usize,
    /// Operations each task does.
    pub operations_per_task: usize,
    /// The share of HTTP requests (0 to 1) that meet a fault.
    pub fault_rate: f64,
    /// Whether the SDK retries (standard mode, 3 attempts, 1 ms backoff) or
    /// not at all.
    pub sdk_retries: bool,
    /// Answers "throttled" after the server applied the write, which
    /// DynamoDB never does, instead of the server error of an honest fault:
    /// only for the soak's own test that its checks can fail.
    pub dishonest_throttling: bool,
}

impl Default for SoakOptions {
    fn default() -> Self {
        SoakOptions {
            seed: 1,
            tasks: 16,
            operations_per_task: 40,
            fault_rate: 0.15,
            sdk_retries: true,
            dishonest_throttling: false,
        }
    }
}

const CUSTOMERS: usize = 6;
const PRODUCTS: usize = 5;
const INITIAL_STOCK: u32 = 40;
const CARTS: usize = 3;
const TALLIES: usize = 3;
/// Attempts of one versioned change before the task gives up on it.
const CHANGE_ATTEMPTS: usize = 60;
/// Attempts of one read (resolving an uncertain write) before the run fails.
const READ_ATTEMPTS: usize = 60;

/// The operations of the soak, as reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Operation {
    PlaceOrder,
    CartUpdate,
    CartSet,
    CartPut,
    Count,
    Create,
    CreateTaken,
    BatchPut,
    Rekey,
    Delete,
    GuardedDelete,
}

impl Operation {
    fn name(self) -> &'static str {
        match self {
            Operation::PlaceOrder => "place an order (TransactWriteItems)",
            Operation::CartUpdate => "versioned update of a cart (append)",
            Operation::CartSet => "versioned update of a cart (set only)",
            Operation::CartPut => "versioned put of a cart",
            Operation::Count => "ADD to a counter",
            Operation::Create => "create a new session",
            Operation::CreateTaken => "create a taken session key",
            Operation::BatchPut => "batch put of sessions",
            Operation::Rekey => "re-key a session",
            Operation::Delete => "delete a session",
            Operation::GuardedDelete => "guarded delete of a session",
        }
    }

    fn draw(random: &mut ChaCha8Rng) -> Operation {
        match random.random_range(0..100) {
            0..20 => Operation::PlaceOrder,
            20..26 => Operation::CartUpdate,
            26..32 => Operation::CartSet,
            32..40 => Operation::CartPut,
            40..54 => Operation::Count,
            54..64 => Operation::Create,
            64..68 => Operation::CreateTaken,
            68..76 => Operation::BatchPut,
            76..84 => Operation::Rekey,
            84..92 => Operation::Delete,
            _ => Operation::GuardedDelete,
        }
    }
}

/// An order the model holds: acknowledged, or found by reading.
#[derive(Debug, Clone)]
struct PlacedOrder {
    customer_id: String,
    created_at: DateTime<Utc>,
    lines: Vec<OrderLine>,
}

/// What Stamp acknowledged, shared by the tasks.
#[derive(Debug, Default)]
struct Model {
    orders: BTreeMap<Uuid, PlacedOrder>,
    cart_changes: BTreeMap<String, BTreeSet<String>>,
    /// Per counter: (acknowledged increments, uncertain ones).
    tallies: BTreeMap<String, (u64, u64)>,
    sessions: BTreeMap<String, Session>,
    counts: BTreeMap<Operation, OperationCounts>,
    latencies: Vec<Duration>,
    violations: Vec<String>,
    /// What each write of a cart change or a session answered, by change
    /// id or token, for the violations that name them.
    history: BTreeMap<String, Vec<String>>,
}

/// Runs one soak against the DynamoDB at `endpoint` (a new table, deleted
/// at the end when the run passes), and checks the final state.
///
/// # Errors
///
/// [`SoakFailure`] with every broken invariant, or with what kept it from
/// running (the table could not be created, a read never got an answer).
pub async fn run(endpoint: &str, options: &SoakOptions) -> Result<SoakReport, SoakFailure> {
    let fail = |reason: String| SoakFailure {
        seed: options.seed,
        could_not_run: Some(reason),
        violations: Vec::new(),
    };
    let plain = Table::new(
        aws_sdk_dynamodb::Client::from_conf(
            stamp::local::config(endpoint)
                .retry_config(RetryConfig::standard())
                .build(),
        ),
        format!("stamp-soak-{}-{}", options.seed, Uuid::new_v4().simple()),
    );
    plain
        .create_table(&table_definition())
        .await
        .map_err(|error| fail(format!("creating the table: {error}")))?;
    let products = seed_items(&plain)
        .await
        .map_err(|error| fail(format!("writing the initial items: {error}")))?;
    let faults = soak_faults(options);
    let retry = if options.sdk_retries {
        RetryConfig::standard()
            .with_max_attempts(3)
            .with_initial_backoff(Duration::from_millis(1))
    } else {
        RetryConfig::disabled()
    };
    let faulty = Table::new(
        aws_sdk_dynamodb::Client::from_conf(
            faults
                .configure(stamp::local::config(endpoint))
                .retry_config(retry)
                .build(),
        ),
        plain.name(),
    );
    let shared = Arc::new(Shared {
        table: faulty,
        products,
        model: Mutex::new(Model::default()),
    });
    let started = Instant::now();
    let workers = (0..options.tasks).map(|task| {
        let worker = Worker {
            task,
            shared: Arc::clone(&shared),
            random: ChaCha8Rng::seed_from_u64(options.seed.wrapping_mul(1_000_003) + task as u64),
            serial: 0,
            versions_seen: BTreeMap::new(),
        };
        tokio::spawn(worker.work(options.operations_per_task))
    });
    for outcome in futures::future::join_all(workers).await {
        if let Err(error) = outcome {
            shared
                .model
                .lock()
                .unwrap()
                .violations
                .push(format!("a task panicked: {error}"));
        }
    }
    let elapsed = started.elapsed();
    let mut model = std::mem::take(&mut *shared.model.lock().unwrap());
    let invariants_checked = verify(&plain, &shared.products, &mut model).await;
    if !model.violations.is_empty() {
        return Err(SoakFailure {
            seed: options.seed,
            could_not_run: None,
            violations: model.violations,
        });
    }
    let _ = plain.delete_table().await;
    model.latencies.sort();
    Ok(SoakReport {
        options: options.clone(),
        elapsed,
        operations: model.latencies.len() as u64,
        faults: faults.counts(),
        by_operation: model
            .counts
            .iter()
            .map(|(operation, counts)| (operation.name(), *counts))
            .collect(),
        latencies: model.latencies,
        invariants_checked,
    })
}

/// The faults of a run: `fault_rate` of the requests, each of the kit's
/// honest kinds equally often, drawn from the seed; a dishonest run answers
/// "throttled" where an honest one answers a server error after applying.
fn soak_faults(options: &SoakOptions) -> Faults {
    let faults = Faults::seeded(options.seed).rate_each(options.fault_rate);
    if options.dishonest_throttling {
        let share = options.fault_rate / FaultKind::HONEST.len() as f64;
        faults
            .rate(FaultKind::ServerErrorAfterApplied, 0.0)
            .rate(FaultKind::ThrottledAfterApplied, share)
    } else {
        faults
    }
}

fn customer_id(number: usize) -> String {
    format!("c-{number}")
}

fn sku(number: usize) -> String {
    format!("SKU-{number}")
}

/// The customers, products, carts and counters the work starts from.
async fn seed_items(table: &Table) -> Result<Vec<Product>, Error> {
    let customers: Vec<Customer> = (0..CUSTOMERS)
        .map(|number| Customer {
            customer_id: customer_id(number),
            name: format!("Customer {number}"),
            email: format!("c{number}@example.com"),
            order_count: 0,
            created_at: crate::data::epoch(),
        })
        .collect();
    let products: Vec<Product> = (0..PRODUCTS)
        .map(|number| {
            Product::new(
                &sku(number),
                &format!("mug {number}"),
                "kitchen",
                100 * (number as u64 + 1),
                INITIAL_STOCK,
            )
        })
        .collect();
    let carts: Vec<Cart> = (0..CARTS)
        .map(|number| Cart {
            cart_id: format!("cart-{number}"),
            changes: Vec::new(),
            version: 0,
        })
        .collect();
    let tallies: Vec<Tally> = (0..TALLIES)
        .map(|number| Tally {
            name: format!("visits-{number}"),
            count: 0,
        })
        .collect();
    // Unique e-mails: a batch cannot claim their guards.
    crate::scenario::create_customers(table, &customers, 50, |_| {}).await?;
    BatchWrite::new()
        .put_all(&products)
        .put_all(&tallies)
        .send(table)
        .await?;
    // A versioned entity is written with a condition, which a batch
    // cannot carry.
    for cart in &carts {
        table.create(cart).await?;
    }
    Ok(products)
}
