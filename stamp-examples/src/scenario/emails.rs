//! The customers' unique e-mail addresses: a lookup by address and a
//! second customer claiming a taken one.

use stamp::{Entity, Error, Table, TransactWrite};

use super::{Run, key_text, measure};
use crate::Customer;
use crate::requests::RequestCounter;

/// The key of the guard item of the e-mail `email`, for display:
/// `UNIQUE#Customer#email#<email>`, its partition and sort key alike
/// (the storage format of `stamp::ops::unique`; these addresses hold no
/// character the format escapes).
fn guard_text(email: &str) -> String {
    let key = format!("UNIQUE#Customer#email#{email}");
    format!(
        "{} = \"{key}\" AND {} = \"{key}\"",
        Customer::SCHEMA.partition_key.name,
        Customer::SCHEMA.sort_key.name
    )
}

/// The customer whose e-mail is `email`: a strongly consistent `GetItem`
/// of the address's guard item, then one of the customer it names
/// (`table.get_unique(Customer::EMAIL, &email)`, 2 requests).
pub async fn customer_by_email(
    table: &Table,
    counter: &RequestCounter,
    email: &str,
) -> Result<Run<Option<Customer>>, Error> {
    measure(
        counter,
        "a customer by e-mail (unique value)",
        guard_text(email),
        table.get_unique(Customer::EMAIL, &email.to_owned()),
    )
    .await
}

/// What creating a customer did to its e-mail address.
#[derive(Debug, Clone, PartialEq)]
pub enum EmailClaim {
    /// The customer and the guard of its address were created.
    Created,
    /// Another customer holds the address: nothing was written.
    Taken {
        /// The customer holding it, as its key (`PK=…, SK=…`).
        owner: Option<String>,
    },
}

/// Creates `customer` in one `TransactWriteItems` of 2 actions: the
/// profile (`attribute_not_exists(PK)`) and the guard of its e-mail
/// (`attribute_not_exists(PK)`, or held by this customer). An address held
/// by another customer cancels both: [`EmailClaim::Taken`], nothing
/// written.
///
/// # Errors
///
/// Every error but [`Error::UniqueValueTaken`].
pub async fn create_customer(
    table: &Table,
    counter: &RequestCounter,
    customer: &Customer,
) -> Result<Run<EmailClaim>, Error> {
    let key = Customer::key(&customer.customer_id)?;
    measure(
        counter,
        "a new customer claiming a taken e-mail",
        format!("{}, guard {}", key_text(&key), guard_text(&customer.email)),
        async {
            match table.create(customer).await {
                Ok(()) => Ok(EmailClaim::Created),
                Err(Error::UniqueValueTaken { owner, .. }) => Ok(EmailClaim::Taken {
                    owner: owner.map(|owner| owner.to_string()),
                }),
                Err(error) => Err(error),
            }
        },
    )
    .await
}

/// Writes `customers` with `TransactWriteItems`, `per_transaction` creates
/// each (a create of a customer is 2 actions, the profile and its e-mail's
/// guard: at most 50 per transaction of 100 actions), calling `progress`
/// with the number of customers written after each. `BatchWriteItem`
/// cannot write them: it carries no condition to claim a guard with, and
/// refuses entities with unique values (`Refusal::UniqueBatchWrite`).
///
/// # Errors
///
/// The errors of `TransactWrite::send`, such as
/// [`Error::UniqueValueTaken`] when two customers share an address (then
/// nothing of that transaction is written).
pub async fn create_customers(
    table: &Table,
    customers: &[Customer],
    per_transaction: usize,
    mut progress: impl FnMut(usize),
) -> Result<(), Error> {
    let mut written = 0;
    for part in customers.chunks(per_transaction.clamp(1, 50)) {
        part.iter()
            .fold(TransactWrite::new(), |transaction, customer| {
                transaction.create(customer)
            })
            .send(table)
            .await?;
        written += part.len();
        progress(written);
    }
    Ok(())
}
