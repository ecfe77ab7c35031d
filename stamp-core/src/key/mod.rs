//! The key encodings: how each type of key field is written in a key
//! value, and how the values are escaped between a template's literals.
//!
//! These encodings are a **storage format**: every key Stamp writes is made
//! of them, so changing one is a data migration. Each is reversible, and
//! where the type is ordered the byte order of encodings equals the order of
//! values, which is what DynamoDB compares for sort keys.
//!
//! | type | encoding | example |
//! |---|---|---|
//! | `String` | the text as is (then escaped, see below) | `Ada` |
//! | `u8`, `u16`, `u32`, `u64`, `usize` | decimal, zero-padded to 3, 5, 10, 20, 20 digits | `42u16` → `00042` |
//! | `i8` … `i64`, `isize` | `value - MIN` as the unsigned type of the same width (the sign bit flipped) | `-1i8` → `127`, `0i8` → `128` |
//! | `bool` | `false` / `true` | `true` |
//! | `uuid::Uuid` | lowercase hyphenated, 36 characters | `67e55044-10b1-426f-9247-bb680e5fe0c8` |
//! | `chrono::DateTime<Utc>` | RFC 3339 in UTC with exactly 9 fractional digits and `Z`, years 0000 to 9999; a leap second is second `60` | `2026-06-01T10:00:00.000000000Z` |
//! | `chrono::NaiveDate` | `YYYY-MM-DD`, years 0000 to 9999 | `2026-06-01` |
//! | unit-only enum, `#[derive(KeyPart)]` | the variant name after serde's `rename_all` / `rename` (or `#[stamp(…)]`'s); ordered by that text | `OrderStatus::Pending` → `PENDING` |
//! | newtype, `#[derive(KeyPart)]` | the inner value's encoding | `Sku("A-1".into())` → `A-1` |
//!
//! A date-time and a date share their first ten characters, so a sort key
//! that starts with a time can be compared with whole days.
//!
//! `u128` and `i128` have no encoding: a key field is stored as an ordinary
//! attribute too, and a DynamoDB Number holds 38 significant digits, so such
//! an item could not be stored; using one in a template does not compile.
//!
//! **Escaping.** After encoding, every character from U+0000 to `%`
//! (U+0025) is written as `%XX` per UTF-8 byte: the control characters,
//! space, `!`, `"`, `#`, `$` and `%` ([`KeyTemplate::ESCAPED`]). Every
//! literal that follows a placeholder must begin with a character below `%`
//! (such as `#`; anything else does not compile). So a value with a
//! delimiter in it round-trips, two different field tuples never give the
//! same key, and a field's encoding always sorts above the delimiter that
//! ends it: keys sort in the order of their values even when one value is a
//! prefix of another (`ab` < `ab c`, as `ab#` < `ab%20c#`), which makes
//! every range condition exact. Only that canonical form parses back
//! (`%41` for `A` does not). Values without those characters are written
//! unchanged (no built-in encoding except `String` and derived names ever
//! has one); keys keep their case exactly. An empty value is refused with
//! [`KeyError::EmptyKeyValue`].
//!
//! See [`KeyPart`] for implementing the encoding of a type of your own
//! (`#[derive(KeyPart)]` does it for unit enums and newtypes), and
//! [`KeyTemplate`] for how a template's segments become a key value and back.
//!
//! [`KeyPart`]: crate::KeyPart
//! [`KeyTemplate`]: crate::KeyTemplate
//! [`KeyError::EmptyKeyValue`]: crate::KeyError::EmptyKeyValue
//! [`KeyTemplate::ESCAPED`]: crate::KeyTemplate::ESCAPED

// The code: how one field becomes one key segment (`part`: `KeyPart` and the
// encodings), how a template's segments become a key value and back
// (`template`: `KeyTemplate`, `KeyBuilder`, `KeyTemplate::split`), and the
// shard of a sharded index (`shard`).

pub(crate) mod part;
pub(crate) mod shard;
pub(crate) mod template;
