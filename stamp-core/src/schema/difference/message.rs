//! The message of each [`SchemaDifference`]: what differs, the expected
//! value and the found one.

use std::fmt;

use super::SchemaDifference;
impl fmt::Display for SchemaDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on = |index: &Option<String>| match index {
            Some(index) => format!("index `{index}`"),
            None => "the table".to_owned(),
        };
        let ttl = |attribute: &Option<String>| match attribute {
            Some(attribute) => format!("on `{attribute}`"),
            None => "off".to_owned(),
        };
        match self {
            SchemaDifference::KeySchema {
                index,
                expected,
                found,
            } => write!(f, "{} has keys {found}, expected {expected}", on(index)),
            SchemaDifference::AttributeType {
                attribute,
                expected,
                found,
            } => write!(
                f,
                "key attribute `{attribute}` has type {}, expected {}",
                found.as_str(),
                expected.as_str()
            ),
            SchemaDifference::MultiAttributeKeySchema {
                index,
                expected,
                found,
            } => write!(
                f,
                "index `{index}` has key schema ({}), expected ({})",
                found.join(", "),
                expected.join(", ")
            ),
            SchemaDifference::BillingMode { expected, found } => write!(
                f,
                "billing mode is {}, expected {}",
                found.as_str(),
                expected.as_str()
            ),
            SchemaDifference::ProvisionedThroughput {
                index,
                expected,
                found,
            } => write!(
                f,
                "{} has {} read / {} write capacity units, expected {} / {}",
                on(index),
                found.read_capacity_units,
                found.write_capacity_units,
                expected.read_capacity_units,
                expected.write_capacity_units
            ),
            SchemaDifference::MissingIndex { index } => {
                write!(f, "index `{index}` is missing")
            }
            SchemaDifference::ExtraIndex { index } => {
                write!(f, "index `{index}` is not in the definition")
            }
            SchemaDifference::Projection {
                index,
                expected,
                found,
            } => write!(f, "index `{index}` projects {found}, expected {expected}"),
            SchemaDifference::VectorIndex {
                index,
                expected,
                found,
            } => write!(
                f,
                "vector index `{index}` is ({found}), expected ({expected})"
            ),
            SchemaDifference::TimeToLive { expected, found } => {
                write!(f, "TTL is {}, expected {}", ttl(found), ttl(expected))
            }
            SchemaDifference::DeletionProtection { expected, found } => {
                let on = |on: &bool| if *on { "on" } else { "off" };
                write!(
                    f,
                    "deletion protection is {}, expected {}",
                    on(found),
                    on(expected)
                )
            }
            SchemaDifference::TableClass { expected, found } => {
                write!(f, "the table class is {found}, expected {expected}")
            }
            SchemaDifference::Encryption { expected, found } => {
                write!(
                    f,
                    "the table is encrypted with {found}, expected {expected}"
                )
            }
            SchemaDifference::Tags { expected, found } => {
                let tags = |tags: &[(String, String)]| {
                    let tags: Vec<String> = tags
                        .iter()
                        .map(|(key, value)| format!("{key}={value}"))
                        .collect();
                    format!("[{}]", tags.join(", "))
                };
                write!(
                    f,
                    "the tags are {}, expected {}",
                    tags(found),
                    tags(expected)
                )
            }
            SchemaDifference::MaxThroughput {
                index,
                expected,
                found,
            } => {
                let max = |max: &Option<crate::schema::MaxThroughput>| match max {
                    None => "no maximum".to_owned(),
                    Some(max) => {
                        let units = |units: Option<std::num::NonZeroU64>| {
                            units.map_or_else(|| "-".to_owned(), |units| units.to_string())
                        };
                        format!(
                            "{} read / {} write request units",
                            units(max.max_read_request_units),
                            units(max.max_write_request_units)
                        )
                    }
                };
                write!(
                    f,
                    "{} has {}, expected {}",
                    on(index),
                    max(found),
                    max(expected)
                )
            }
            SchemaDifference::WarmThroughput {
                index,
                expected,
                found,
            } => write!(
                f,
                "{} is warm for {} read / {} write units per second, expected at least {} / {}",
                on(index),
                found.0,
                found.1,
                expected.read_units_per_second,
                expected.write_units_per_second
            ),
            SchemaDifference::ResourcePolicy { found, .. } => match found {
                Some(_) => f.write_str("the resource policy differs from the definition's"),
                None => f.write_str("the table has no resource policy, expected the definition's"),
            },
            SchemaDifference::ContributorInsights { expected, found } => {
                let on = |on: &bool| if *on { "on" } else { "off" };
                write!(
                    f,
                    "Contributor Insights is {}, expected {}",
                    on(found),
                    on(expected)
                )
            }
            SchemaDifference::Replicas { expected, found } => {
                let list = |regions: &Vec<String>| {
                    if regions.is_empty() {
                        "none (a single-Region table)".to_owned()
                    } else {
                        regions.join(", ")
                    }
                };
                write!(
                    f,
                    "the replicas are in {}, expected {}",
                    list(found),
                    list(expected)
                )
            }
            SchemaDifference::Witness { expected, found } => {
                let witness = |region: &Option<String>| match region {
                    Some(region) => format!("`{region}`"),
                    None => "none".to_owned(),
                };
                write!(
                    f,
                    "the witness is {}, expected {}",
                    witness(found),
                    witness(expected)
                )
            }
            SchemaDifference::MultiRegionConsistency { expected, found } => write!(
                f,
                "the global table's consistency is {found}, expected {}",
                expected.as_str()
            ),
            SchemaDifference::NotDescribed { setting } => {
                write!(
                    f,
                    "the endpoint does not describe the {setting}; not compared"
                )
            }
            SchemaDifference::Stream { expected, found } => {
                let stream = |view: &Option<String>| match view {
                    Some(view) => format!("on with `{view}`"),
                    None => "off".to_owned(),
                };
                write!(
                    f,
                    "the stream is {}, expected {}",
                    stream(found),
                    stream(expected)
                )
            }
        }
    }
}
