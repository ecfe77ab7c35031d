//! The demo's unique e-mails: a customer looked up by address, and a
//! second customer refused the address another holds, nothing written.

use stamp::Table;
use stamp_examples::Customer;
use stamp_examples::requests::RequestCounter;
use stamp_examples::scenario::{self, EmailClaim};

use super::show;

/// Looks `customer` up by e-mail, then tries to create another customer
/// with the same address; fails when the lookup misses or the claim is
/// not refused.
pub async fn run(
    table: &Table,
    counter: &RequestCounter,
    customer: &Customer,
) -> Result<(), Box<dyn std::error::Error>> {
    let run = scenario::customer_by_email(table, counter, &customer.email).await?;
    let rows = run
        .result
        .iter()
        .map(|found| {
            format!(
                "customer  {}  {}  {}",
                found.customer_id, found.name, found.email
            )
        })
        .collect();
    show(&run, rows);
    if run.result.as_ref() != Some(customer) {
        return Err(format!("no customer found by the e-mail {}", customer.email).into());
    }

    let newcomer = Customer {
        customer_id: "c-new".to_owned(),
        name: "Another Customer".to_owned(),
        ..customer.clone()
    };
    let run = scenario::create_customer(table, counter, &newcomer).await?;
    let rows = match &run.result {
        EmailClaim::Taken { owner } => vec![format!(
            "refused   UniqueValueTaken: {} is held by {}",
            newcomer.email,
            owner.as_deref().unwrap_or("(unknown)")
        )],
        EmailClaim::Created => vec![format!(
            "created   {} (the address was free)",
            newcomer.customer_id
        )],
    };
    show(&run, rows);
    if run.result == EmailClaim::Created {
        return Err(format!("{} was given a taken e-mail", newcomer.customer_id).into());
    }
    let stored = table.get(&Customer::key(&newcomer.customer_id)?).await?;
    println!(
        "    nothing written: {} {}",
        newcomer.customer_id,
        if stored.is_none() {
            "is not stored"
        } else {
            "IS STORED"
        }
    );
    if stored.is_some() {
        return Err(format!("{} was written", newcomer.customer_id).into());
    }
    Ok(())
}
