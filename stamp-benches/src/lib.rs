//! Stamp's benchmarks live in `benches/cost` (criterion); `cargo xtask
//! bench` runs them and writes BENCHMARKS.md. This library is empty.
