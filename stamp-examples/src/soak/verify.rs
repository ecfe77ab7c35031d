//! The final check: the table read without faults, against the model.

use super::*;

/// Everything of entity `E` in the table, read without faults.
pub(super) async fn all<E: Entity + Send + 'static>(table: &Table) -> Result<Vec<E>, Error> {
    stamp::Scan::<E>::new()
        .consistent_read()
        .stream(table)
        .try_collect()
        .await
}

/// Compares the table with the model; each broken invariant goes to
/// `model.violations`. Returns the invariants checked.
pub(super) async fn verify(table: &Table, products: &[Product], model: &mut Model) -> u64 {
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
