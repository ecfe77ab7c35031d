//! The test kit (`stamp::testing`), called as a user's tests call it:
//! whole-table snapshots, faults on demand, Lambda events from the stream.

mod events;
mod faults;
mod model;
mod snapshot;
mod time;
