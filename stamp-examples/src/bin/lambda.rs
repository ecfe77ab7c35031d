//! The change-feed consumer ([`stamp_examples::lambda::handle`]) as an AWS
//! Lambda function, under `lambda_runtime`: it logs each change of the
//! reference collection and answers the partial batch response. Turn on
//! `ReportBatchItemFailures` in the event source mapping.

use lambda_runtime::{Error, LambdaEvent, service_fn};
use stamp::streams::Event;
use stamp_examples::lambda::{describe, handle};

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(|event: LambdaEvent<Event>| async move {
        let response = handle(event.payload, |change| async move {
            if let Some(line) = describe(&change) {
                println!("{line}");
            }
            Ok::<(), std::convert::Infallible>(())
        })
        .await;
        Ok::<_, Error>(response)
    }))
    .await
}
