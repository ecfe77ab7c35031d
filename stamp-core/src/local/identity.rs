//! The `userIdentity` of a local server's stream records, read as DynamoDB
//! Streams spells it.
//!
//! DynamoDB Streams' `Identity` has the members `PrincipalId` and `Type`
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_Identity.html>);
//! Lambda's event spells them `principalId` and `type`. dynoxide 3.2
//! answers `GetRecords` with Lambda's spelling, so the SDK reads an
//! identity with neither member, and a TTL deletion would look like a
//! delete by a request. DynamoDB writes a `userIdentity` only on the
//! records of TTL deletions ("Items that are deleted by the Time to Live
//! process after expiration have the following fields: `type` `Service`,
//! `principalId` `dynamodb.amazonaws.com`",
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/time-to-live-ttl-streams.html>),
//! so this interceptor of the local Streams client reads an identity with
//! neither member as that one. An identity with either member is left as
//! the server sent it.

use aws_sdk_dynamodbstreams::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodbstreams::operation::get_records::GetRecordsOutput;
use aws_sdk_dynamodbstreams::types::Identity;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::FinalizerInterceptorContextMut;

/// Fills in the TTL's identity where a `GetRecords` answer's record has an
/// identity with neither member.
#[derive(Debug)]
pub(super) struct StreamsIdentitySpelling;

impl Intercept for StreamsIdentitySpelling {
    fn name(&self) -> &'static str {
        "StreamsIdentitySpelling"
    }

    fn modify_before_attempt_completion(
        &self,
        context: &mut FinalizerInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let Some(Ok(output)) = context.output_or_error_mut()
            && let Some(records) = output.downcast_mut::<GetRecordsOutput>()
        {
            respell(records);
        }
        Ok(())
    }
}

/// Gives each record's identity with neither member the TTL's.
fn respell(output: &mut GetRecordsOutput) {
    for record in output.records.iter_mut().flatten() {
        if let Some(identity) = &mut record.user_identity
            && identity.principal_id.is_none()
            && identity.r#type.is_none()
        {
            *identity = Identity::builder()
                .r#type("Service")
                .principal_id("dynamodb.amazonaws.com")
                .build();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodbstreams::types::Record;

    #[test]
    fn an_identity_with_neither_member_is_the_ttls_and_others_are_left() {
        let service = Identity::builder()
            .r#type("Service")
            .principal_id("dynamodb.amazonaws.com")
            .build();
        let other = Identity::builder().principal_id("someone").build();
        let mut output = GetRecordsOutput::builder()
            .records(
                Record::builder()
                    .user_identity(Identity::builder().build())
                    .build(),
            )
            .records(Record::builder().build())
            .records(Record::builder().user_identity(other.clone()).build())
            .build();
        respell(&mut output);
        let identities: Vec<Option<Identity>> = output
            .records
            .unwrap()
            .into_iter()
            .map(|record| record.user_identity)
            .collect();
        assert_eq!(identities, vec![Some(service), None, Some(other)]);
    }
}
