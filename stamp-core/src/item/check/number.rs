//! Numbers by DynamoDB's rules: at most 38 significant digits, magnitudes
//! from 1E-130 to below 1E+126.

use super::*;

/// Why a Number's text is not one DynamoDB stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberProblem {
    NotANumber,
    TooManyDigits,
    TooLarge,
    TooSmall,
}

impl NumberProblem {
    pub(super) fn text(self) -> &'static str {
        match self {
            NumberProblem::NotANumber => {
                "it is not a decimal number (NaN and infinities have no DynamoDB Number)"
            }
            NumberProblem::TooManyDigits => "it has more than 38 significant digits",
            NumberProblem::TooLarge => {
                "its magnitude is above 9.9999999999999999999999999999999999999E+125"
            }
            NumberProblem::TooSmall => "its magnitude is below 1E-130 (and it is not zero)",
        }
    }
}

/// Checks a Number's text by DynamoDB's rules: `[+-]digits[.digits][e[+-]digits]`
/// with at least one digit, at most 38 significant digits, and a magnitude
/// of zero or from `1E-130` to `9.99…E+125`.
pub(crate) fn check_number(text: &str) -> Result<(), NumberProblem> {
    number_digits(text).map(|_| ())
}

/// [`check_number`], returning the significant digits of a valid Number
/// (those [`significant_digits`](crate::item::size::significant_digits)
/// counts, 0 for zero), which its size is counted in.
pub(crate) fn number_digits(text: &str) -> Result<usize, NumberProblem> {
    // Runs of digits rather than `str` searches and a second count (every
    // Number of every written item comes through here).
    let is_digit = |byte: &&u8| byte.is_ascii_digit();
    let sign = usize::from(matches!(text.as_bytes().first(), Some(b'-' | b'+')));
    let rest = &text.as_bytes()[sign..];
    // An integer of at most 38 digits, what every Rust integer type
    // writes, is valid whatever its digits: one pass over them, then its
    // significant digits from the first to the last non-zero one.
    if !rest.is_empty() && rest.len() <= MAX_NUMBER_DIGITS && rest.iter().all(u8::is_ascii_digit) {
        let nonzero = |digit: &u8| *digit != b'0';
        let Some(first) = rest.iter().position(nonzero) else {
            return Ok(0); // zero
        };
        let last = rest.iter().rposition(nonzero).unwrap_or(first);
        return Ok(last - first + 1);
    }
    let integer = &rest[..rest.iter().take_while(is_digit).count()];
    let mut at = integer.len();
    let mut fraction: &[u8] = &[];
    if rest.get(at) == Some(&b'.') {
        let after = &rest[at + 1..];
        fraction = &after[..after.iter().take_while(is_digit).count()];
        at += 1 + fraction.len();
    }
    let exponent_text = match rest.get(at) {
        None => None,
        // `e` is ASCII: the exponent starts on a character boundary.
        Some(b'e' | b'E') => Some(&text[sign + at + 1..]),
        Some(_) => return Err(NumberProblem::NotANumber),
    };
    if integer.len() + fraction.len() == 0 {
        return Err(NumberProblem::NotANumber);
    }
    let exponent: i64 = match exponent_text {
        None => 0,
        Some(exponent) => {
            let digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
            if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(NumberProblem::NotANumber);
            }
            // An exponent too long for i64 is far outside the range either way.
            match exponent.parse::<i64>() {
                Ok(exponent) => exponent,
                Err(_) if exponent.starts_with('-') => i64::MIN / 2,
                Err(_) => i64::MAX / 2,
            }
        }
    };
    // The positions, among the digits without the point, of the first and
    // last significant digit.
    let nonzero = |digit: &u8| *digit != b'0';
    let first = match integer.iter().position(nonzero) {
        Some(first) => first,
        None => match fraction.iter().position(nonzero) {
            Some(first) => integer.len() + first,
            None => return Ok(0), // zero
        },
    };
    let last = match fraction.iter().rposition(nonzero) {
        Some(last) => integer.len() + last,
        None => integer.iter().rposition(nonzero).unwrap_or(first),
    };
    let digits = last - first + 1;
    if digits > MAX_NUMBER_DIGITS {
        return Err(NumberProblem::TooManyDigits);
    }
    // The decimal exponent of the first significant digit.
    let magnitude = integer.len() as i64 - 1 - first as i64 + exponent;
    if magnitude > MAX_NUMBER_EXPONENT {
        Err(NumberProblem::TooLarge)
    } else if magnitude < MIN_NUMBER_EXPONENT {
        Err(NumberProblem::TooSmall)
    } else {
        Ok(digits)
    }
}
