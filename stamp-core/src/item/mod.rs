//! Items on the wire: [`codec`] (a struct to an item and back, in
//! serde_dynamo's stored form), [`value`] (`AttributeCodec`, the direct
//! conversion of one field value), [`check`] (what every written item and value
//! goes through before it is sent; [`builder`] counts it while `to_item`
//! fills the item), [`size`] (DynamoDB's size rules and
//! limits) and [`stored`] (when two values are the same stored value, and
//! the shapes DynamoDB refuses: duplicate set elements, deep nesting).

pub(crate) mod builder;
pub(crate) mod check;
pub(crate) mod codec;
pub(crate) mod size;
pub(crate) mod stored;
pub(crate) mod value;
