//! DynamoDB Streams: Lambda records and the live change feed.

mod change_feed;
mod lambda;
