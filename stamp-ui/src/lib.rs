//! Stamp's compile-error fixtures live in `tests/ui`; this library is empty.
