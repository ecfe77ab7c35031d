//! The table's DynamoDB Stream: [`TableDefinition::stream`], which
//! `CreateTable` and the CloudFormation template both carry.

use aws_sdk_dynamodb::types::{StreamSpecification, StreamViewType};

use super::TableDefinition;

impl TableDefinition {
    /// Turns the table's DynamoDB Stream on, writing `view_type` for each
    /// changed item: `NEW_AND_OLD_IMAGES` is what the typed change feed
    /// (`Table::changes`, feature `streams`) and most consumers want, since
    /// every record then carries the item before and after the change. The
    /// stream is off unless turned on. It goes into the `CreateTable` input
    /// (`StreamSpecification`, sent by
    /// [`Table::create_table`](crate::Table::create_table)) and into the
    /// CloudFormation template (`StreamSpecification`, and the output
    /// `StreamArn`). Stream records are kept for 24 hours.
    ///
    /// See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_StreamSpecification.html>
    /// and <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html>.
    ///
    /// # Example
    ///
    /// ```
    /// # use stamp_core::TableDefinition;
    /// use stamp_core::aws_sdk_dynamodb::types::StreamViewType;
    /// let definition = TableDefinition::new().stream(StreamViewType::NewAndOldImages);
    /// assert_eq!(definition.stream_view_type(), Some(&StreamViewType::NewAndOldImages));
    /// ```
    pub fn stream(mut self, view_type: StreamViewType) -> Self {
        self.stream = Some(view_type);
        self
    }

    /// The stream's view type when [`stream`](Self::stream) turned it on.
    pub fn stream_view_type(&self) -> Option<&StreamViewType> {
        self.stream.as_ref()
    }

    /// The `StreamSpecification` of the `CreateTable` input: `None` (no
    /// stream) unless [`stream`](Self::stream) turned it on.
    pub(crate) fn stream_specification(&self) -> Option<StreamSpecification> {
        self.stream.as_ref().map(|view_type| {
            StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(view_type.clone())
                .build()
                .expect("StreamEnabled is set")
        })
    }
}
