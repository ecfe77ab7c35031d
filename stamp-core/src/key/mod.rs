// The key encodings are documented (a storage format) on the public
// `stamp::key` module, in surface.rs.
//
// The code: how one field becomes one key segment (`part`: `KeyPart` and the
// encodings), how a template's segments become a key value and back
// (`template`: `KeyTemplate`, `KeyBuilder`, `KeyTemplate::split`), the key
// fields as data and what an update rebuilds from them (`known`), and the
// shard of a sharded index (`shard`).

pub(crate) mod fill;
pub(crate) mod known;
pub(crate) mod part;
pub(crate) mod prefix;
pub(crate) mod shard;
pub(crate) mod template;
