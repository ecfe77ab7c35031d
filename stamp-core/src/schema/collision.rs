//! Whether two key templates can produce the same key value.
//!
//! Each template is read as an automaton over characters: a literal is a
//! chain of exact characters; a field is one or more *units*, where a unit is
//! any character outside the template's escaped set or the `%XX…` escape of
//! one character of that set (exactly what [`KeyBuilder`](crate::KeyBuilder)
//! writes). Two templates share a key when the product of their automata
//! reaches the pair of accepting states; a breadth-first search finds the
//! shortest such key, which the error then quotes as an example.
//!
//! The field types are not known here (the schema has field names only), so
//! a field is taken to be any string: the check can refuse two templates
//! whose typed values would never meet (`ITEM<n>` with `n: u32` against
//! `ITEMS#<b>`), never the other way round.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write;

use crate::key::template::{KeyTemplate, Segment};

/// The characters tried, in order, when any character outside two escaped
/// sets will do: readable ones first.
const SAMPLE_CHARACTERS: &str = "x0123456789abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-.";

/// What one transition reads.
#[derive(Debug, Clone, Copy)]
enum Label {
    /// Exactly this character.
    Char(char),
    /// Any character that is not in this set.
    Except(&'static str),
}

/// A nondeterministic automaton without empty transitions; state 0 is the
/// start.
#[derive(Debug)]
struct Automaton {
    /// Outgoing transitions per state.
    transitions: Vec<Vec<(Label, usize)>>,
    /// The one accepting state.
    accept: usize,
}

impl Automaton {
    /// The automaton of every key `template` can produce.
    fn new(template: &KeyTemplate) -> Self {
        Automaton::of(template.segments, template.escaped)
    }

    /// The automaton of every key the segments can produce, with the
    /// characters of `escaped` escaped in field values.
    fn of(segments: &[Segment], escaped: &'static str) -> Self {
        let mut automaton = Automaton {
            transitions: vec![Vec::new()],
            accept: 0,
        };
        let mut current = 0;
        for segment in segments {
            match segment {
                Segment::Literal(text) => {
                    for c in text.chars() {
                        let next = automaton.state();
                        automaton.transitions[current].push((Label::Char(c), next));
                        current = next;
                    }
                }
                Segment::Shard(count) => {
                    // Exactly the shard numbers, in decimal.
                    let end = automaton.state();
                    for shard in 0..*count {
                        let digits: Vec<char> = shard.to_string().chars().collect();
                        let mut at = current;
                        for (position, &digit) in digits.iter().enumerate() {
                            let next = if position + 1 == digits.len() {
                                end
                            } else {
                                automaton.state()
                            };
                            automaton.transitions[at].push((Label::Char(digit), next));
                            at = next;
                        }
                    }
                    current = end;
                }
                Segment::Field(_) => {
                    // One unit into the field, then any number of further units.
                    let inside = automaton.state();
                    automaton.unit(current, inside, escaped);
                    automaton.unit(inside, inside, escaped);
                    current = inside;
                }
            }
        }
        automaton.accept = current;
        automaton
    }

    fn state(&mut self) -> usize {
        self.transitions.push(Vec::new());
        self.transitions.len() - 1
    }

    /// Transitions from `from` to `to` reading one unit of a field value:
    /// a character outside `escaped`, or the escape of one inside it.
    fn unit(&mut self, from: usize, to: usize, escaped: &'static str) {
        self.transitions[from].push((Label::Except(escaped), to));
        for c in escaped.chars() {
            let mut escape = String::new();
            for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                write!(escape, "%{byte:02X}").expect("writing to a String cannot fail");
            }
            let characters: Vec<char> = escape.chars().collect();
            let mut at = from;
            for (position, &character) in characters.iter().enumerate() {
                let next = if position + 1 == characters.len() {
                    to
                } else {
                    self.state()
                };
                self.transitions[at].push((Label::Char(character), next));
                at = next;
            }
        }
    }
}

/// A character both labels read, if there is one.
fn common_character(first: Label, second: Label) -> Option<char> {
    match (first, second) {
        (Label::Char(a), Label::Char(b)) => (a == b).then_some(a),
        (Label::Char(c), Label::Except(set)) | (Label::Except(set), Label::Char(c)) => {
            (!set.contains(c)).then_some(c)
        }
        (Label::Except(a), Label::Except(b)) => SAMPLE_CHARACTERS
            .chars()
            .chain('\u{C0}'..=char::MAX)
            .find(|c| !a.contains(*c) && !b.contains(*c)),
    }
}

/// The shortest key value that both templates can produce, or `None` when
/// their key spaces are disjoint.
pub(crate) fn shared_key(first: &KeyTemplate, second: &KeyTemplate) -> Option<String> {
    shared_key_of(Automaton::new(first), Automaton::new(second))
}

/// [`shared_key`] of the guard keys of a unique value (`segments`, with
/// the derive's escaped set) and a template.
pub(crate) fn shared_guard_key(segments: &[Segment], template: &KeyTemplate) -> Option<String> {
    shared_key_of(
        Automaton::of(segments, KeyTemplate::ESCAPED),
        Automaton::new(template),
    )
}

fn shared_key_of(a: Automaton, b: Automaton) -> Option<String> {
    let start = (0, 0);
    let mut previous: HashMap<(usize, usize), ((usize, usize), char)> = HashMap::new();
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(state) = queue.pop_front() {
        if state == (a.accept, b.accept) {
            let mut key = Vec::new();
            let mut at = state;
            while let Some(&(before, c)) = previous.get(&at) {
                key.push(c);
                at = before;
            }
            return Some(key.into_iter().rev().collect());
        }
        for &(first_label, first_next) in &a.transitions[state.0] {
            for &(second_label, second_next) in &b.transitions[state.1] {
                if let Some(c) = common_character(first_label, second_label) {
                    let next = (first_next, second_next);
                    if seen.insert(next) {
                        previous.insert(next, (state, c));
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A template from a compact form: `<name>` is a field, the rest literal;
    /// the escaped set is computed as the derive does.
    fn template(source: &'static str) -> KeyTemplate {
        let mut segments = Vec::new();
        let mut rest = source;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('<') {
                let end = after.find('>').unwrap();
                segments.push(Segment::Field(&after[..end]));
                rest = &after[end + 1..];
            } else {
                let end = rest.find('<').unwrap_or(rest.len());
                segments.push(Segment::Literal(&rest[..end]));
                rest = &rest[end..];
            }
        }
        KeyTemplate {
            source,
            segments: segments.leak(),
            escaped: KeyTemplate::ESCAPED,
        }
    }

    fn shared(a: &'static str, b: &'static str) -> Option<String> {
        let forward = shared_key(&template(a), &template(b));
        let backward = shared_key(&template(b), &template(a));
        assert_eq!(forward, backward, "the search is symmetric");
        forward
    }

    #[test]
    fn equal_constants_share_their_one_key() {
        assert_eq!(shared("PROFILE", "PROFILE").as_deref(), Some("PROFILE"));
        assert_eq!(shared("PROFILE", "PRODUCT"), None);
    }

    /// `template` with the shard placeholder of `shards` at the end.
    fn sharded(source: &'static str, shards: u16) -> KeyTemplate {
        let base = template(source);
        let mut segments = base.segments.to_vec();
        segments.push(Segment::Shard(shards));
        KeyTemplate {
            segments: segments.leak(),
            ..base
        }
    }

    #[test]
    fn a_shard_is_one_of_its_decimal_numbers() {
        let status = sharded("STATUS#<status>#", 16);
        // A field cannot spell `#`, so `STATUS#<x>` never meets it.
        assert_eq!(shared_key(&status, &template("STATUS#<x>")), None);
        assert_eq!(
            shared_key(&status, &template("STATUS#<x>#<y>")).as_deref(),
            Some("STATUS#x#0")
        );
        assert_eq!(
            shared_key(&status, &template("STATUS#<x>#15")).as_deref(),
            Some("STATUS#x#15")
        );
        assert_eq!(shared_key(&status, &template("STATUS#<x>#16")), None);
        assert_eq!(shared_key(&status, &template("STATUS#<x>#7a")), None);
    }

    #[test]
    fn a_field_meets_any_literal_it_can_spell() {
        assert_eq!(shared("P<x>", "PROFILE").as_deref(), Some("PROFILE"));
        assert_eq!(
            shared("CUST#<id>", "CUST#<other>").as_deref(),
            Some("CUST#x")
        );
        assert_eq!(shared("CUST#<id>", "ORDER#<id>"), None);
    }

    #[test]
    fn different_literal_prefixes_never_meet() {
        assert_eq!(shared("ITEM#<a>", "ITEMS#<b>"), None);
    }

    #[test]
    fn a_field_can_spell_a_literal_of_unescaped_characters() {
        // `ITEM<a>` with a = "S" is `ITEMS`.
        assert_eq!(shared("ITEM<a>", "ITEMS").as_deref(), Some("ITEMS"));
        assert_eq!(shared("ITEM<a>", "ITEMS:<b>").as_deref(), Some("ITEMS:x"));
        // Every template escapes `#`, so no value spells `S#`.
        assert_eq!(shared("ITEM<a>", "ITEMS#<b>"), None);
        assert_eq!(shared("ITEM#<a>", "ITEM#S#<b>"), None);
    }

    #[test]
    fn an_escaped_delimiter_cannot_be_in_a_field() {
        // `#` is escaped in `<a>#<b>`, so `a` never holds one; both need the
        // literal `#` between two non-empty values.
        assert_eq!(shared("<a>#<b>", "X#Y#Z"), None);
        assert_eq!(shared("<a>#<b>", "X#Y").as_deref(), Some("X#Y"));
    }

    #[test]
    fn an_escape_sequence_is_a_value_too() {
        // a = "\0" is written `%00`, which `X%<b>` spells with b = "00"
        // (and a = "%" is `%25`).
        assert_eq!(shared("X<a>", "X%<b>").as_deref(), Some("X%00"));
        // `#` escaped in the first template is `%23`: a value of `<a>#<b>`'s
        // first field can start with `%23`, and the second template spells it.
        assert_eq!(shared("<a>#<b>", "%23#<c>").as_deref(), Some("%23#x"));
    }

    #[test]
    fn trailing_literals_are_matched_at_the_end() {
        // `#` is escaped in `y`, so `A#<y>` never ends in `#END`.
        assert_eq!(shared("A#<x>#END", "A#<y>"), None);
        assert_eq!(shared("<x>-1", "<y>-2"), None);
    }

    #[test]
    fn the_reference_model_templates_are_pairwise_disjoint_where_needed() {
        for (a, b) in [
            ("PROFILE", "ORDER#<created_at>#<order_id>"),
            ("CUST#<customer_id>", "ORDER#<order_id>"),
            ("CUST#<customer_id>", "PRODUCT#<sku>"),
            ("CUST#<customer_id>", "SESSION#<token>"),
            ("ORDER#<order_id>", "PRODUCT#<sku>"),
            ("PRODUCT#<sku>", "SESSION#<token>"),
        ] {
            assert_eq!(shared(a, b), None, "{a} and {b}");
        }
    }
}
