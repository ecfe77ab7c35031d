//! [`Path`]: a document path of an item, `address.city` or `tags[2]`, as
//! a typed [`Attribute`](crate::Attribute) carries it.
//!
//! A path is a top-level attribute name followed by map keys and list
//! indexes; every name is rendered as a `#name` placeholder and every
//! index as its decimal text, `#n0.#n1[2]`. See
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.Attributes.html>
//! (document paths) and
//! <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html>.

use std::fmt::Write as _;

use super::Placeholders;
use crate::error::{Error, Refusal};
use crate::limits::MAX_NESTING_DEPTH;

/// The most steps (names and indexes) a [`Path`] holds. DynamoDB nests
/// documents at most 32 levels deep ([`MAX_NESTING_DEPTH`]); Stamp keeps
/// a path in a fixed array (so that attributes stay `Copy` and constant)
/// and refuses a longer one before sending ([`Refusal::PathTooDeep`]).
pub const MAX_PATH_STEPS: usize = MAX_NESTING_DEPTH / 2;

/// One step of a [`Path`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// A top-level attribute or a map key.
    Name(&'static str),
    /// A list element, from 0.
    Index(u32),
    /// No step (the unused end of the array).
    End,
}

/// A document path: a top-level attribute, then map keys (a field of a
/// nested struct) and list indexes. Built by the attribute constants and
/// their [`then`](crate::Attribute::then) and [`at`](crate::Attribute::at);
/// `Copy` and usable in constants.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Path {
    steps: [Step; MAX_PATH_STEPS],
    /// The steps in use; more than [`MAX_PATH_STEPS`] when a join
    /// overflowed (refused when rendered).
    len: usize,
}

impl Path {
    /// The top-level attribute `name`.
    pub(crate) const fn top(name: &'static str) -> Path {
        let mut steps = [Step::End; MAX_PATH_STEPS];
        steps[0] = Step::Name(name);
        Path { steps, len: 1 }
    }

    /// `self` followed by the steps of `rest`.
    pub(crate) const fn join(self, rest: Path) -> Path {
        let mut path = self;
        let mut position = 0;
        while position < rest.len {
            path = path.push(rest.steps[position]);
            position += 1;
        }
        path
    }

    /// `self` followed by `step`.
    pub(crate) const fn push(mut self, step: Step) -> Path {
        if self.len < MAX_PATH_STEPS {
            self.steps[self.len] = step;
        }
        self.len += 1;
        self
    }

    /// The top-level attribute's name.
    pub const fn top_name(&self) -> &'static str {
        match self.steps[0] {
            Step::Name(name) => name,
            Step::Index(_) | Step::End => "",
        }
    }

    /// Whether the path goes below its top-level attribute.
    pub const fn is_nested(&self) -> bool {
        self.len > 1
    }

    fn steps(&self) -> &[Step] {
        &self.steps[..self.len.min(MAX_PATH_STEPS)]
    }

    /// Whether one path is the other or inside it: DynamoDB refuses an
    /// update with two such paths ("Two document paths overlap").
    pub(crate) fn overlaps(&self, other: &Path) -> bool {
        let (a, b) = (self.steps(), other.steps());
        let shorter = a.len().min(b.len());
        a[..shorter] == b[..shorter]
    }

    /// The path in expression syntax, each name a placeholder of
    /// `placeholders`: `#n0.#n1[2]`.
    ///
    /// # Errors
    ///
    /// [`Refusal::PathTooDeep`] for a path of more than
    /// [`MAX_PATH_STEPS`] steps.
    pub(crate) fn render(&self, placeholders: &mut Placeholders) -> Result<String, Error> {
        if self.len > MAX_PATH_STEPS {
            return Err(Error::Refused(Refusal::PathTooDeep {
                path: self.to_string(),
                limit: MAX_PATH_STEPS,
            }));
        }
        let mut text = String::new();
        for (position, step) in self.steps().iter().enumerate() {
            match step {
                Step::Name(name) => {
                    if position > 0 {
                        text.push('.');
                    }
                    text.push_str(&placeholders.name(name));
                }
                Step::Index(index) => {
                    write!(text, "[{index}]").expect("writing to a String cannot fail");
                }
                Step::End => {}
            }
        }
        Ok(text)
    }
}

/// The path as DynamoDB writes it without placeholders: `address.city`,
/// `tags[2]` (`…` after the first [`MAX_PATH_STEPS`] steps of a longer one).
impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (position, step) in self.steps().iter().enumerate() {
            match step {
                Step::Name(name) if position > 0 => write!(f, ".{name}")?,
                Step::Name(name) => f.write_str(name)?,
                Step::Index(index) => write!(f, "[{index}]")?,
                Step::End => {}
            }
        }
        if self.len > MAX_PATH_STEPS {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl std::fmt::Debug for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Path({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_names_and_indexes() {
        let path = Path::top("address")
            .join(Path::top("lines"))
            .push(Step::Index(2));
        let mut placeholders = Placeholders::default();
        assert_eq!(path.render(&mut placeholders).unwrap(), "#n0.#n1[2]");
        assert_eq!(path.to_string(), "address.lines[2]");
        assert!(path.overlaps(&Path::top("address")));
        assert!(!path.overlaps(&Path::top("address").join(Path::top("city"))));
    }

    #[test]
    fn too_deep_is_refused() {
        let mut path = Path::top("a");
        for index in 0..MAX_PATH_STEPS as u32 {
            path = path.push(Step::Index(index));
        }
        let error = path.render(&mut Placeholders::default()).unwrap_err();
        assert!(matches!(
            error,
            Error::Refused(Refusal::PathTooDeep { limit: 16, .. })
        ));
    }
}
