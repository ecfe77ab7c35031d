//! One soak task: the reference service's work, through the faulty client.

use super::*;

pub(super) struct Shared {
    pub(super) table: Table,
    pub(super) products: Vec<Product>,
    pub(super) model: Mutex<Model>,
}

pub(super) struct Worker {
    pub(super) task: usize,
    pub(super) shared: Arc<Shared>,
    pub(super) random: ChaCha8Rng,
    pub(super) serial: u64,
    /// The highest version this task read of each cart.
    pub(super) versions_seen: BTreeMap<String, u64>,
}

/// How a cart change is written.
#[derive(Debug, Clone, Copy)]
pub(super) enum CartWrite {
    /// A versioned put of the whole cart.
    Put,
    /// A versioned update that appends the change (not idempotent).
    Append,
    /// A versioned update that only sets `changes` to the list with the
    /// change (idempotent: the SDK sends it again after a lost answer).
    Set,
}

/// How one write ended, once resolved.
pub(super) enum Ended {
    Acknowledged,
    Refused,
    UncertainApplied,
    UncertainNotApplied,
}

impl Worker {
    pub(super) async fn work(mut self, operations: usize) {
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
}

mod items;
