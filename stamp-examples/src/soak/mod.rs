//! A concurrent fault soak of the reference service: many tasks do its
//! work at random over one table, through a client whose HTTP path injects
//! faults ([`faults`]), and the final table is compared with a plain Rust
//! model of what Stamp acknowledged.
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

pub mod faults;

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
use faults::{FaultCounts, FaultyHttpClient};

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

/// How the operations of one kind ended.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OperationCounts {
    /// Acknowledged: Stamp returned `Ok` (or the expected refusal).
    pub acknowledged: u64,
    /// Failed with an error that says the write was not applied.
    pub refused: u64,
    /// Failed with "may have been applied", and found applied by reading.
    pub uncertain_applied: u64,
    /// Failed with "may have been applied", and found not applied.
    pub uncertain_not_applied: u64,
    /// Version conflicts met (and retried) on the way.
    pub conflicts: u64,
}

/// What a soak run did and found.
#[derive(Debug, Clone)]
pub struct SoakReport {
    /// The options it ran with.
    pub options: SoakOptions,
    /// From the first operation to the last (setup and checks excluded).
    pub elapsed: Duration,
    /// Operations done by all tasks.
    pub operations: u64,
    /// The faults injected.
    pub faults: FaultCounts,
    /// How the operations ended, by kind (its name).
    pub by_operation: BTreeMap<&'static str, OperationCounts>,
    /// The duration of each operation, resolution included, sorted.
    pub latencies: Vec<Duration>,
    /// The invariants checked at the end (one per item or model entry).
    pub invariants_checked: u64,
}

impl SoakReport {
    /// Operations per second of the run.
    pub fn operations_per_second(&self) -> f64 {
        self.operations as f64 / self.elapsed.as_secs_f64()
    }

    /// The latency at `quantile` (0 to 1) of the operations.
    pub fn latency(&self, quantile: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let index = ((self.latencies.len() - 1) as f64 * quantile).round() as usize;
        self.latencies[index]
    }
}

impl fmt::Display for SoakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let options = &self.options;
        writeln!(
            f,
            "seed {}: {} tasks, {} operations in {:.2} s ({:.0} operations/s), p50 {:.1} ms, p99 {:.1} ms; SDK retries {}",
            options.seed,
            options.tasks,
            self.operations,
            self.elapsed.as_secs_f64(),
            self.operations_per_second(),
            self.latency(0.5).as_secs_f64() * 1e3,
            self.latency(0.99).as_secs_f64() * 1e3,
            if options.sdk_retries { "on" } else { "off" },
        )?;
        writeln!(
            f,
            "  faults: {} of {} requests ({:.0} %)",
            self.faults.total(),
            self.faults.requests,
            options.fault_rate * 100.0
        )?;
        for (fault, count) in &self.faults.by_kind {
            writeln!(f, "    {count:>5}  {fault}")?;
        }
        for (operation, count) in &self.faults.resent_after_applied {
            writeln!(
                f,
                "    {count:>5}  {operation} sent again by the SDK after an applied attempt lost its answer"
            )?;
        }
        writeln!(
            f,
            "  operations (acknowledged / refused / uncertain, applied / uncertain, not applied / conflicts retried):"
        )?;
        for (name, counts) in &self.by_operation {
            writeln!(
                f,
                "    {:>5} {:>5} {:>5} {:>5} {:>5}  {name}",
                counts.acknowledged,
                counts.refused,
                counts.uncertain_applied,
                counts.uncertain_not_applied,
                counts.conflicts
            )?;
        }
        write!(
            f,
            "  invariants checked: {}, all held",
            self.invariants_checked
        )
    }
}

/// A soak run that found a broken invariant, or could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoakFailure {
    /// The seed that reproduces it.
    pub seed: u64,
    /// What kept it from running (the table or its first items could not
    /// be written), with no invariant checked.
    pub could_not_run: Option<String>,
    /// Each broken invariant, for people.
    pub violations: Vec<String>,
}

impl fmt::Display for SoakFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(reason) = &self.could_not_run {
            return write!(
                f,
                "the soak with seed {} could not run: {reason}",
                self.seed
            );
        }
        write!(
            f,
            "the soak with seed {} broke {} invariants (rerun: cargo xtask soak --seed {}):",
            self.seed,
            self.violations.len(),
            self.seed
        )?;
        for violation in self.violations.iter().take(20) {
            write!(f, "\n  - {violation}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SoakFailure {}

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
    let faulty_http = FaultyHttpClient::new(
        options.seed,
        options.fault_rate,
        options.dishonest_throttling,
    );
    let retry = if options.sdk_retries {
        RetryConfig::standard()
            .with_max_attempts(3)
            .with_initial_backoff(Duration::from_millis(1))
    } else {
        RetryConfig::disabled()
    };
    let faulty = Table::new(
        aws_sdk_dynamodb::Client::from_conf(
            stamp::local::config(endpoint)
                .http_client(faulty_http.shared())
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
        faults: faulty_http.counts(),
        by_operation: model
            .counts
            .iter()
            .map(|(operation, counts)| (operation.name(), *counts))
            .collect(),
        latencies: model.latencies,
        invariants_checked,
    })
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
    BatchWrite::new()
        .put_all(&customers)
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

struct Shared {
    table: Table,
    products: Vec<Product>,
    model: Mutex<Model>,
}

struct Worker {
    task: usize,
    shared: Arc<Shared>,
    random: ChaCha8Rng,
    serial: u64,
    /// The highest version this task read of each cart.
    versions_seen: BTreeMap<String, u64>,
}

/// How a cart change is written.
#[derive(Debug, Clone, Copy)]
enum CartWrite {
    /// A versioned put of the whole cart.
    Put,
    /// A versioned update that appends the change (not idempotent).
    Append,
    /// A versioned update that only sets `changes` to the list with the
    /// change (idempotent: the SDK sends it again after a lost answer).
    Set,
}

/// How one write ended, once resolved.
enum Ended {
    Acknowledged,
    Refused,
    UncertainApplied,
    UncertainNotApplied,
}

impl Worker {
    async fn work(mut self, operations: usize) {
        for _ in 0..operations {
            let operation = Operation::draw(&mut self.random);
            let started = Instant::now();
            let (ended, conflicts) = match self.operate(operation).await {
                Ok(outcome) => outcome,
                Err(violation) => {
                    self.violation(format!("{}: {violation}", operation.name()));
                    (Ended::Refused, 0)
                }
            };
            let mut model = self.shared.model.lock().unwrap();
            model.latencies.push(started.elapsed());
            let counts = model.counts.entry(operation).or_default();
            counts.conflicts += conflicts;
            match ended {
                Ended::Acknowledged => counts.acknowledged += 1,
                Ended::Refused => counts.refused += 1,
                Ended::UncertainApplied => counts.uncertain_applied += 1,
                Ended::UncertainNotApplied => counts.uncertain_not_applied += 1,
            }
        }
    }

    fn violation(&self, text: String) {
        let task = self.task;
        self.shared
            .model
            .lock()
            .unwrap()
            .violations
            .push(format!("task {task}: {text}"));
    }

    /// Notes what a write of `id` (a change id or a session token) answered.
    fn note(&self, id: &str, what: &str, result: &Result<(), Error>) {
        let answer = match result {
            Ok(()) => "Ok".to_owned(),
            Err(error) => format!("Err({error})"),
        };
        self.shared
            .model
            .lock()
            .unwrap()
            .history
            .entry(id.to_owned())
            .or_default()
            .push(format!("{what}: {answer}"));
    }

    fn next_id(&mut self, prefix: &str) -> String {
        self.serial += 1;
        format!("{prefix}-t{}-{}", self.task, self.serial)
    }

    fn table(&self) -> &Table {
        &self.shared.table
    }

    async fn operate(&mut self, operation: Operation) -> Result<(Ended, u64), String> {
        match operation {
            Operation::PlaceOrder => self.place_order().await.map(|ended| (ended, 0)),
            Operation::CartUpdate => self.change_cart(CartWrite::Append).await,
            Operation::CartSet => self.change_cart(CartWrite::Set).await,
            Operation::CartPut => self.change_cart(CartWrite::Put).await,
            Operation::Count => self.count().await.map(|ended| (ended, 0)),
            Operation::Create => self.create().await.map(|ended| (ended, 0)),
            Operation::CreateTaken => self.create_taken().await.map(|ended| (ended, 0)),
            Operation::BatchPut => self.batch_put().await.map(|ended| (ended, 0)),
            Operation::Rekey => self.rekey().await.map(|ended| (ended, 0)),
            Operation::Delete => self.delete(false).await.map(|ended| (ended, 0)),
            Operation::GuardedDelete => self.delete(true).await.map(|ended| (ended, 0)),
        }
    }

    /// Reads an item through the faulty client until an answer comes.
    async fn read<E: Entity>(&self, key: &PrimaryKey<E>) -> Result<Option<E>, String> {
        let mut last = None;
        for _ in 0..READ_ATTEMPTS {
            match stamp::Get::new(key.clone())
                .consistent_read()
                .send(self.table())
                .await
            {
                Ok(item) => return Ok(item),
                Err(error) => last = Some(error),
            }
        }
        Err(format!(
            "no answer to reading {key:?} in {READ_ATTEMPTS} attempts: {}",
            last.map(|error| error.to_string()).unwrap_or_default()
        ))
    }

    async fn place_order(&mut self) -> Result<Ended, String> {
        let customer = customer_id(self.random.random_range(0..CUSTOMERS));
        let mut skus: Vec<usize> = (0..PRODUCTS).collect();
        let count = self.random.random_range(1..=3);
        let lines: Vec<OrderLine> = (0..count)
            .map(|_| {
                let sku_number = skus.remove(self.random.random_range(0..skus.len()));
                OrderLine {
                    sku: sku(sku_number),
                    quantity: self.random.random_range(1..=3),
                }
            })
            .collect();
        let order_id = uuid::Builder::from_random_bytes(self.random.random()).into_uuid();
        self.serial += 1;
        let created_at = crate::data::epoch()
            + TimeDelta::seconds(self.task as i64 * 1_000_000 + self.serial as i64);
        let placed = PlacedOrder {
            customer_id: customer.clone(),
            created_at,
            lines: lines.clone(),
        };
        let outcome = place_order(
            self.table(),
            &customer,
            order_id,
            created_at,
            &lines,
            &self.shared.products,
        )
        .await;
        let applied = match outcome {
            Ok(Placement::Placed { .. }) => Ended::Acknowledged,
            Ok(Placement::OutOfStock { .. }) => Ended::Refused,
            // The order's id is new: "already placed" can only be this
            // placement's earlier attempt.
            Ok(Placement::AlreadyPlaced) => match self.order_is_stored(&placed, order_id).await? {
                true => Ended::UncertainApplied,
                false => {
                    return Err(format!(
                        "order {order_id} said already placed, but is not stored"
                    ));
                }
            },
            Err(error) if error.may_have_been_applied() => {
                match self.order_is_stored(&placed, order_id).await? {
                    true => Ended::UncertainApplied,
                    false => Ended::UncertainNotApplied,
                }
            }
            Err(_) => Ended::Refused,
        };
        if matches!(applied, Ended::Acknowledged | Ended::UncertainApplied) {
            self.shared
                .model
                .lock()
                .unwrap()
                .orders
                .insert(order_id, placed);
        }
        Ok(applied)
    }

    async fn order_is_stored(&self, placed: &PlacedOrder, order_id: Uuid) -> Result<bool, String> {
        let key = Order::key(&placed.customer_id, &placed.created_at, &order_id)
            .map_err(|error| error.to_string())?;
        Ok(self.read(&key).await?.is_some())
    }

    async fn change_cart(&mut self, how: CartWrite) -> Result<(Ended, u64), String> {
        let cart_id = format!("cart-{}", self.random.random_range(0..CARTS));
        let change = self.next_id("change");
        let key = Cart::key(&cart_id).map_err(|error| error.to_string())?;
        let mut conflicts = 0;
        let mut uncertain = false;
        for _ in 0..CHANGE_ATTEMPTS {
            let cart = self.read_cart(&key).await?;
            if uncertain && cart.changes.contains(&change) {
                return self.cart_changed(&cart_id, change, Ended::UncertainApplied, conflicts);
            }
            let mut changed = cart.clone();
            changed.changes.push(change.clone());
            let result = match how {
                CartWrite::Put => self.table().put(&changed).await,
                // Not idempotent: the SDK does not send it again after an
                // attempt that may have been applied.
                CartWrite::Append => {
                    Cart::update(&cart_id)
                        .append(Cart::CHANGES, std::slice::from_ref(&change))
                        .expect_version(cart.version)
                        .send(self.table())
                        .await
                }
                // Idempotent: sent again by the SDK after a lost answer,
                // its condition then fails against its own write, which
                // the stored item shows (its changes and next version).
                CartWrite::Set => {
                    Cart::update(&cart_id)
                        .set(Cart::CHANGES, &changed.changes)
                        .expect_version(cart.version)
                        .send(self.table())
                        .await
                }
            };
            let what = match how {
                CartWrite::Put => "put",
                CartWrite::Append => "append update",
                CartWrite::Set => "set update",
            };
            self.note(
                &change,
                &format!("{what} at version {}", cart.version),
                &result,
            );
            match result {
                Ok(()) => {
                    return self.cart_changed(&cart_id, change, Ended::Acknowledged, conflicts);
                }
                Err(Error::VersionConflict { .. }) => conflicts += 1,
                // Resolved by the next read: applied, or sent again.
                Err(error) if error.may_have_been_applied() => uncertain = true,
                // Not applied: try again, as a caller would after throttling.
                Err(_) => {}
            }
        }
        let cart = self.read_cart(&key).await?;
        if cart.changes.contains(&change) {
            return self.cart_changed(&cart_id, change, Ended::UncertainApplied, conflicts);
        }
        Ok((Ended::Refused, conflicts))
    }

    async fn read_cart(&mut self, key: &PrimaryKey<Cart>) -> Result<Cart, String> {
        let cart = self
            .read(key)
            .await?
            .ok_or_else(|| format!("{key:?}: the cart is gone"))?;
        let seen = self.versions_seen.entry(cart.cart_id.clone()).or_default();
        if cart.version < *seen {
            return Err(format!(
                "{}: read at version {} after version {seen}",
                cart.cart_id, cart.version
            ));
        }
        *seen = cart.version;
        Ok(cart)
    }

    fn cart_changed(
        &self,
        cart_id: &str,
        change: String,
        ended: Ended,
        conflicts: u64,
    ) -> Result<(Ended, u64), String> {
        self.shared
            .model
            .lock()
            .unwrap()
            .cart_changes
            .entry(cart_id.to_owned())
            .or_default()
            .insert(change);
        Ok((ended, conflicts))
    }

    async fn count(&mut self) -> Result<Ended, String> {
        let name = format!("visits-{}", self.random.random_range(0..TALLIES));
        let result = Tally::update(&name)
            .add(Tally::COUNT, &1)
            .send(self.table())
            .await;
        let mut model = self.shared.model.lock().unwrap();
        let (acknowledged, uncertain) = model.tallies.entry(name).or_default();
        // An uncertain ADD cannot be resolved by reading: its bounds are
        // checked at the end (at most once, never twice).
        Ok(match result {
            Ok(()) => {
                *acknowledged += 1;
                Ended::Acknowledged
            }
            Err(error) if error.may_have_been_applied() => {
                *uncertain += 1;
                Ended::UncertainNotApplied
            }
            Err(_) => Ended::Refused,
        })
    }

    fn session(&mut self) -> Session {
        Session {
            token: self.next_id("s"),
            customer_id: customer_id(self.random.random_range(0..CUSTOMERS)),
            expires_at: "2099-01-01T00:00:00Z".parse().expect("a time"),
        }
    }

    /// One of this task's stored sessions (in the model), if any.
    fn own_session(&mut self) -> Option<Session> {
        let prefix = format!("s-t{}-", self.task);
        let model = self.shared.model.lock().unwrap();
        let own: Vec<&Session> = model
            .sessions
            .range(prefix.clone()..)
            .take_while(|(token, _)| token.starts_with(&prefix))
            .map(|(_, session)| session)
            .collect();
        if own.is_empty() {
            return None;
        }
        Some(own[self.random.random_range(0..own.len())].clone())
    }

    /// Reads `token` and makes the model say what is stored.
    async fn settle_session(&self, token: &str) -> Result<bool, String> {
        let key = Session::key(token).map_err(|error| error.to_string())?;
        let stored = self.read(&key).await?;
        let mut model = self.shared.model.lock().unwrap();
        Ok(match stored {
            Some(session) => {
                model.sessions.insert(token.to_owned(), session);
                true
            }
            None => {
                model.sessions.remove(token);
                false
            }
        })
    }

    fn store_session(&self, session: Session) {
        self.shared
            .model
            .lock()
            .unwrap()
            .sessions
            .insert(session.token.clone(), session);
    }

    async fn create(&mut self) -> Result<Ended, String> {
        let session = self.session();
        let result = self.table().create(&session).await;
        self.note(&session.token, "create", &result);
        match result {
            Ok(()) => {
                self.store_session(session);
                Ok(Ended::Acknowledged)
            }
            Err(error @ Error::AlreadyExists { .. }) => Err(format!(
                "a create of the new key {} said: {error}",
                session.token
            )),
            Err(error) if error.may_have_been_applied() => {
                Ok(match self.settle_session(&session.token).await? {
                    true => Ended::UncertainApplied,
                    false => Ended::UncertainNotApplied,
                })
            }
            Err(_) => Ok(Ended::Refused),
        }
    }

    async fn create_taken(&mut self) -> Result<Ended, String> {
        let Some(stored) = self.own_session() else {
            return self.create().await;
        };
        let other = Session {
            customer_id: format!("{}-again", stored.customer_id),
            ..stored.clone()
        };
        let result = self.table().create(&other).await;
        self.note(&stored.token, "create of the taken key", &result);
        match result {
            Ok(()) => Err(format!(
                "a create of the taken key {} succeeded",
                stored.token
            )),
            // The expected refusal: the stored session is unchanged, which
            // the final comparison checks.
            Err(Error::AlreadyExists { .. }) => Ok(Ended::Acknowledged),
            Err(error) if error.may_have_been_applied() => {
                self.settle_session(&stored.token).await?;
                Ok(Ended::UncertainNotApplied)
            }
            Err(_) => Ok(Ended::Refused),
        }
    }

    async fn batch_put(&mut self) -> Result<Ended, String> {
        let count = self.random.random_range(2..=8);
        let sessions: Vec<Session> = (0..count).map(|_| self.session()).collect();
        let result = BatchWrite::new()
            .put_all(&sessions)
            .send(self.table())
            .await;
        let noted = result.as_ref().map(|_| ()).map_err(Clone::clone);
        for session in &sessions {
            self.note(&session.token, "batch put", &noted);
        }
        match result {
            Ok(_) => {
                for session in sessions {
                    self.store_session(session);
                }
                Ok(Ended::Acknowledged)
            }
            Err(error) => {
                // Those not among `unprocessed` were written; the others
                // are read.
                let unsure: BTreeSet<String> = match &error {
                    Error::UnprocessedItems { unprocessed, .. } => unprocessed
                        .iter()
                        .filter_map(|request| request.put_request.as_ref())
                        .filter_map(|put| put.item.get("token")?.as_s().ok().cloned())
                        .collect(),
                    _ => sessions
                        .iter()
                        .map(|session| session.token.clone())
                        .collect(),
                };
                let mut applied = 0;
                for session in sessions {
                    let written = !unsure.contains(&session.token);
                    let token = session.token.clone();
                    if self.settle_session(&token).await? {
                        applied += 1;
                    } else if written {
                        return Err(format!(
                            "{token} was written by the batch ({error}), but is not stored"
                        ));
                    }
                }
                Ok(if applied > 0 {
                    Ended::UncertainApplied
                } else {
                    Ended::UncertainNotApplied
                })
            }
        }
    }

    async fn rekey(&mut self) -> Result<Ended, String> {
        let Some(old) = self.own_session() else {
            return self.create().await;
        };
        let new = Session {
            token: self.next_id("s"),
            ..old.clone()
        };
        let result = self.table().rekey(&old, &new).await;
        self.note(&old.token, &format!("re-key to {}", new.token), &result);
        self.note(&new.token, &format!("re-key from {}", old.token), &result);
        match result {
            Ok(()) => {
                let mut model = self.shared.model.lock().unwrap();
                model.sessions.remove(&old.token);
                model.sessions.insert(new.token.clone(), new);
                Ok(Ended::Acknowledged)
            }
            Err(error) => {
                let uncertain = error.may_have_been_applied();
                let at_old = self.settle_session(&old.token).await?;
                let at_new = self.settle_session(&new.token).await?;
                match (at_old, at_new, uncertain) {
                    (true, false, true) => Ok(Ended::UncertainNotApplied),
                    (true, false, false) => Ok(Ended::Refused),
                    (false, true, true) => Ok(Ended::UncertainApplied),
                    (false, true, false) => Err(format!(
                        "the re-key of {} to {} failed with an error that says nothing was changed ({error}), but it was applied",
                        old.token, new.token
                    )),
                    (at_old, at_new, _) => Err(format!(
                        "the re-key of {} to {} was not atomic: old key stored {at_old}, new key stored {at_new} ({error})",
                        old.token, new.token
                    )),
                }
            }
        }
    }

    async fn delete(&mut self, guarded: bool) -> Result<Ended, String> {
        let Some(session) = self.own_session() else {
            return self.create().await;
        };
        let key = Session::key(&session.token).map_err(|error| error.to_string())?;
        let result = if guarded {
            Delete::new(key)
                .condition(Session::CUSTOMER_ID.eq(&session.customer_id))
                .send(self.table())
                .await
        } else {
            self.table().delete(&key).await
        };
        self.note(
            &session.token,
            if guarded { "guarded delete" } else { "delete" },
            &result,
        );
        match result {
            Ok(()) => {
                self.shared
                    .model
                    .lock()
                    .unwrap()
                    .sessions
                    .remove(&session.token);
                Ok(Ended::Acknowledged)
            }
            Err(error) if error.may_have_been_applied() => {
                Ok(match self.settle_session(&session.token).await? {
                    true => Ended::UncertainNotApplied,
                    false => Ended::UncertainApplied,
                })
            }
            Err(error @ Error::ConditionFailed { .. }) => Err(format!(
                "the guarded delete of {} failed its condition, which holds: {error}",
                session.token
            )),
            Err(_) => Ok(Ended::Refused),
        }
    }
}

/// Everything of entity `E` in the table, read without faults.
async fn all<E: Entity + Send + 'static>(table: &Table) -> Result<Vec<E>, Error> {
    stamp::Scan::<E>::new()
        .consistent_read()
        .stream(table)
        .try_collect()
        .await
}

/// Compares the table with the model; each broken invariant goes to
/// `model.violations`. Returns the invariants checked.
async fn verify(table: &Table, products: &[Product], model: &mut Model) -> u64 {
    let mut checked = 0;
    let mut violations = Vec::new();
    let read = async {
        Ok::<_, Error>((
            all::<Order>(table).await?,
            all::<LineItem>(table).await?,
            all::<Product>(table).await?,
            all::<Customer>(table).await?,
            all::<Cart>(table).await?,
            all::<Tally>(table).await?,
            all::<Session>(table).await?,
        ))
    };
    let (orders, line_items, stored_products, customers, carts, tallies, sessions) =
        match read.await {
            Ok(all) => all,
            Err(error) => {
                model
                    .violations
                    .push(format!("reading the final table: {error}"));
                return checked;
            }
        };
    let mut check = |holds: bool, violation: &dyn Fn() -> String| {
        checked += 1;
        if !holds {
            violations.push(violation());
        }
    };
    // Orders and their lines.
    let stored: BTreeMap<Uuid, &Order> =
        orders.iter().map(|order| (order.order_id, order)).collect();
    let mut lines: BTreeMap<Uuid, Vec<&LineItem>> = BTreeMap::new();
    for line in &line_items {
        lines.entry(line.order_id).or_default().push(line);
    }
    check(orders.len() == stored.len(), &|| {
        "two orders share an id".into()
    });
    for (id, placed) in &model.orders {
        let order = stored.get(id);
        check(order.is_some(), &|| {
            format!("acknowledged order {id} is not stored")
        });
        let Some(order) = order else { continue };
        let its_lines = lines.get(id).map(Vec::as_slice).unwrap_or_default();
        let as_placed: BTreeSet<(String, u32)> = placed
            .lines
            .iter()
            .map(|line| (line.sku.clone(), line.quantity))
            .collect();
        let as_stored: BTreeSet<(String, u32)> = its_lines
            .iter()
            .map(|line| (line.sku.clone(), line.quantity))
            .collect();
        check(
            as_placed == as_stored && its_lines.len() == placed.lines.len(),
            &|| format!("order {id} has lines {as_stored:?}, placed with {as_placed:?}"),
        );
        let total: u64 = its_lines
            .iter()
            .map(|line| line.unit_price_cents * u64::from(line.quantity))
            .sum();
        check(order.total_cents == total, &|| {
            format!(
                "order {id} totals {} for lines worth {total}",
                order.total_cents
            )
        });
        check(order.line_count as usize == its_lines.len(), &|| {
            format!(
                "order {id} counts {} lines of {}",
                order.line_count,
                its_lines.len()
            )
        });
        check(order.customer_id == placed.customer_id, &|| {
            format!("order {id} is in {}'s partition", order.customer_id)
        });
    }
    for id in stored.keys() {
        check(model.orders.contains_key(id), &|| {
            format!("order {id} is stored, but was reported not placed")
        });
    }
    for id in lines.keys() {
        check(stored.contains_key(id), &|| {
            format!("line items of order {id} without it")
        });
    }
    // Stock plus sold is the initial stock.
    for product in products {
        let sold: u32 = model
            .orders
            .values()
            .flat_map(|order| &order.lines)
            .filter(|line| line.sku == product.sku)
            .map(|line| line.quantity)
            .sum();
        let stock = stored_products
            .iter()
            .find(|stored| stored.sku == product.sku)
            .map(|stored| stored.stock);
        check(
            stock == Some(INITIAL_STOCK - sold.min(INITIAL_STOCK)) && sold <= INITIAL_STOCK,
            &|| {
                format!(
                    "{}: stock {stock:?} after {sold} sold of {INITIAL_STOCK}",
                    product.sku
                )
            },
        );
    }
    // Each customer's count of orders.
    for customer in &customers {
        let placed = model
            .orders
            .values()
            .filter(|order| order.customer_id == customer.customer_id)
            .count();
        check(customer.order_count as usize == placed, &|| {
            format!(
                "{} counts {} orders, has {placed}",
                customer.customer_id, customer.order_count
            )
        });
    }
    // Carts: every acknowledged change once, no other.
    for cart in &carts {
        let unique: BTreeSet<String> = cart.changes.iter().cloned().collect();
        check(unique.len() == cart.changes.len(), &|| {
            let mut seen = BTreeSet::new();
            let twice: Vec<&String> = cart
                .changes
                .iter()
                .filter(|change| !seen.insert(*change))
                .collect();
            let histories: Vec<String> = twice
                .iter()
                .map(|change| format!("{change}: {:?}", model.history.get(*change)))
                .collect();
            format!(
                "{} holds changes twice: {}",
                cart.cart_id,
                histories.join("; ")
            )
        });
        let expected = model
            .cart_changes
            .get(&cart.cart_id)
            .cloned()
            .unwrap_or_default();
        check(unique == expected, &|| {
            format!(
                "{} holds {:?}, acknowledged {:?}",
                cart.cart_id,
                unique.symmetric_difference(&expected).collect::<Vec<_>>(),
                expected.len()
            )
        });
        check(cart.version == 1 + cart.changes.len() as u64, &|| {
            format!(
                "{} is at version {} with {} changes",
                cart.cart_id,
                cart.version,
                cart.changes.len()
            )
        });
    }
    // Counters: acknowledged <= count <= acknowledged + uncertain.
    for tally in &tallies {
        let (acknowledged, uncertain) = model.tallies.get(&tally.name).copied().unwrap_or_default();
        check(
            acknowledged <= tally.count && tally.count <= acknowledged + uncertain,
            &|| {
                format!(
                    "{} is {}, with {acknowledged} acknowledged and {uncertain} uncertain increments",
                    tally.name, tally.count
                )
            },
        );
    }
    // Sessions: exactly the model's.
    let stored_sessions: BTreeMap<&str, &Session> = sessions
        .iter()
        .map(|session| (session.token.as_str(), session))
        .collect();
    for (token, session) in &model.sessions {
        check(
            stored_sessions.get(token.as_str()) == Some(&session),
            &|| {
                format!(
                    "session {token}: stored {:?}, acknowledged {session:?}",
                    stored_sessions.get(token.as_str())
                )
            },
        );
    }
    for token in stored_sessions.keys() {
        check(model.sessions.contains_key(*token), &|| {
            format!(
                "session {token} is stored, but was reported not written: {:?}",
                model.history.get(*token)
            )
        });
    }
    model.violations.extend(violations);
    checked
}
