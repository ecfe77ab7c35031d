//! A unit of a job's work that a runner outside Stamp hands to one worker:
//! [`ScanSegment`], segment `index` of `of` of a parallel scan. A key
//! migration ([`Migration::run_segment`](crate::Migration::run_segment))
//! and an export (`Export::run_segment`, feature `export`) run one unit
//! at a time, each unit on its own, so a scheduler (a Step Functions
//! distributed map, an indexed Kubernetes Job) spreads a job over machines
//! by passing each worker two numbers.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Refusal};

/// DynamoDB's largest `TotalSegments` of a parallel scan.
const MAX_TOTAL_SEGMENTS: u32 = 1_000_000;

/// Segment `index` (from 0) of `of` segments of a parallel scan
/// (`Segment` / `TotalSegments` of `Scan`): one unit of a migration's or an
/// export's work. Every item of the table is in exactly one segment of a
/// given count, so the units of one count cover the table once.
///
/// Its text form is `index/of` (`3/16`), which [`FromStr`] parses back,
/// and [`name`](Self::name) is the name of its output (`segment-03-of-16`).
///
/// See <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.ParallelScan>.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScanSegment {
    /// The segment, from 0 to `of - 1`.
    pub index: u32,
    /// The segment count, 1 to 1,000,000.
    pub of: u32,
}

impl ScanSegment {
    /// Segment `index` (from 0) of `of`. Checked when a job runs it
    /// ([`check`](Self::check)), not here.
    pub const fn new(index: u32, of: u32) -> Self {
        ScanSegment { index, of }
    }

    /// The `of` segments of a count, in order: the units of a job run
    /// with `of` segments.
    pub fn all(of: u32) -> impl Iterator<Item = ScanSegment> {
        (0..of).map(move |index| ScanSegment { index, of })
    }

    /// The name of the unit's output, its index and count padded to the
    /// count's digits so that the names of one count sort in order:
    /// `segment-03-of-16`, `segment-0-of-1`.
    pub fn name(&self) -> String {
        let width = self.of.to_string().len();
        format!("segment-{:0width$}-of-{}", self.index, self.of)
    }

    /// The unit the output name `name` (as [`name`](Self::name) writes it)
    /// belongs to, or `None` when it is not such a name.
    pub fn from_name(name: &str) -> Option<ScanSegment> {
        let rest = name.strip_prefix("segment-")?;
        let (index, of) = rest.split_once("-of-")?;
        let all_digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(index) || !all_digits(of) {
            return None;
        }
        let segment = ScanSegment {
            index: index.parse().ok()?,
            of: of.parse().ok()?,
        };
        (segment.name() == name).then_some(segment)
    }

    /// Whether DynamoDB has this segment: `of` in 1 to 1,000,000 and
    /// `index` below it.
    ///
    /// # Errors
    ///
    /// [`Refusal::InvalidQuery`] with
    /// [`QueryReason::ScanSegment`](crate::QueryReason::ScanSegment).
    pub fn check(&self) -> Result<(), Error> {
        if (1..=MAX_TOTAL_SEGMENTS).contains(&self.of) && self.index < self.of {
            Ok(())
        } else {
            Err(Error::Refused(Refusal::InvalidQuery {
                reason: crate::error::QueryReason::ScanSegment {
                    segment: self.index,
                    segments: self.of,
                },
            }))
        }
    }
}

impl fmt::Display for ScanSegment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

/// Why a text is not a [`ScanSegment`] (`index/of`, two decimal numbers).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a segment: write `index/of`, such as `3/16`")]
pub struct ParseScanSegmentError {
    /// The text given.
    pub text: String,
}

impl FromStr for ScanSegment {
    type Err = ParseScanSegmentError;

    /// Parses `index/of` (`3/16`); the numbers are checked when a job runs
    /// the segment.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || ParseScanSegmentError {
            text: text.to_owned(),
        };
        let (index, of) = text.split_once('/').ok_or_else(error)?;
        Ok(ScanSegment {
            index: index.trim().parse().map_err(|_| error())?,
            of: of.trim().parse().map_err(|_| error())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_parses_back_to_its_segment_and_nothing_else_parses() {
        for (segment, name) in [
            (ScanSegment::new(3, 16), "segment-03-of-16"),
            (ScanSegment::new(0, 1), "segment-0-of-1"),
            (ScanSegment::new(999, 1000), "segment-0999-of-1000"),
        ] {
            assert_eq!(segment.name(), name);
            assert_eq!(ScanSegment::from_name(name), Some(segment));
        }
        for name in [
            "segment-3-of-16",
            "segment-03-of-",
            "segment--of-16",
            "segment-+3-of-16",
            "Order.ndjson",
            "segment-03-of-16x",
        ] {
            assert_eq!(ScanSegment::from_name(name), None, "{name}");
        }
    }

    #[test]
    fn the_text_form_parses_back() {
        assert_eq!("3/16".parse(), Ok(ScanSegment::new(3, 16)));
        assert_eq!(ScanSegment::new(3, 16).to_string(), "3/16");
        assert!("3".parse::<ScanSegment>().is_err());
        assert!("a/16".parse::<ScanSegment>().is_err());
    }

    #[test]
    fn only_a_segment_dynamodb_has_passes_the_check() {
        assert!(ScanSegment::new(0, 1).check().is_ok());
        assert!(ScanSegment::new(999_999, 1_000_000).check().is_ok());
        for segment in [
            ScanSegment::new(0, 0),
            ScanSegment::new(4, 4),
            ScanSegment::new(0, 1_000_001),
        ] {
            assert!(matches!(
                segment.check(),
                Err(Error::Refused(Refusal::InvalidQuery {
                    reason: crate::error::QueryReason::ScanSegment { segment: s, segments }
                })) if s == segment.index && segments == segment.of
            ));
        }
    }
}
