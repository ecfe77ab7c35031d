//! Key migrations.

mod kill_resume;
mod migration;
mod players;
mod units;
