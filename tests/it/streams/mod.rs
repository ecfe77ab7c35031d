//! DynamoDB Streams: Lambda records and the live change feed.

mod change_feed;
mod kill_resume;
mod lambda;
