//! [`KeyPart`] for dates and times: fixed-width text that sorts as the
//! values do (years 0000 to 9999).

use super::*;

pub(super) const DATE_RANGE: &str = "years 0000 to 9999";

pub(super) fn check_year(year: i32, value: &dyn std::fmt::Debug) -> Result<(), KeyPartError> {
    if (0..=9999).contains(&year) {
        Ok(())
    } else {
        Err(KeyPartError::OutOfRange {
            value: format!("{value:?}"),
            range: DATE_RANGE,
        })
    }
}

/// Writes `date` as `YYYY-MM-DD` into the first 10 bytes of `buffer`. The
/// year is within 0..=9999 (`check_year`).
pub(super) fn fill_date(buffer: &mut [u8], date: NaiveDate) {
    fill_digits(&mut buffer[0..4], date.year() as u64);
    buffer[4] = b'-';
    fill_digits(&mut buffer[5..7], u64::from(date.month()));
    buffer[7] = b'-';
    fill_digits(&mut buffer[8..10], u64::from(date.day()));
}

/// A buffer for an encoding of `N` ASCII bytes, aligned to a word so that
/// `str::from_utf8` checks it a word at a time.
#[repr(align(8))]
pub(super) struct Ascii<const N: usize>([u8; N]);

/// Parses `YYYY-MM-DD` at the start of `text`, which must be ASCII.
pub(super) fn parse_date(text: &str) -> Option<NaiveDate> {
    let bytes = text.as_bytes();
    if bytes.len() < 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let year = parse_fixed(&text[0..4])?;
    let month = parse_fixed(&text[5..7])?;
    let day = parse_fixed(&text[8..10])?;
    NaiveDate::from_ymd_opt(year as i32, month, day)
}

/// Parses a run of ASCII digits of the length of `text`.
pub(super) fn parse_fixed(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

impl KeyPart for NaiveDate {
    const LEN_HINT: usize = 10;
    const NEEDS_ESCAPING: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
        check_year(self.year(), self)?;
        let mut buffer = Ascii([0; 10]);
        fill_date(&mut buffer.0, *self);
        push_ascii(out, &buffer.0);
        Ok(())
    }

    fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
        const EXPECTED: &str = "a date as YYYY-MM-DD";
        if encoded.len() != 10 {
            return Err(KeyPartError::invalid(EXPECTED, encoded));
        }
        parse_date(encoded).ok_or_else(|| KeyPartError::invalid(EXPECTED, encoded))
    }

    fn example(_field: &str) -> Option<Self> {
        NaiveDate::from_ymd_opt(2026, 1, 1)
    }
}

impl KeyPart for DateTime<Utc> {
    const LEN_HINT: usize = 30;
    const NEEDS_ESCAPING: bool = false;

    fn encode_key(&self, out: &mut String) -> Result<(), KeyPartError> {
        let naive = self.naive_utc();
        check_year(naive.year(), self)?;
        // chrono represents a leap second as nanoseconds >= 1_000_000_000 in second 59.
        let (second, nanosecond) = match naive.nanosecond() {
            leap @ 1_000_000_000.. => (60, leap - 1_000_000_000),
            nanosecond => (naive.second(), nanosecond),
        };
        // YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ, built in place and pushed once.
        let mut buffer = Ascii([0; 30]);
        let buffer = &mut buffer.0;
        fill_date(buffer, naive.date());
        buffer[10] = b'T';
        fill_digits(&mut buffer[11..13], u64::from(naive.hour()));
        buffer[13] = b':';
        fill_digits(&mut buffer[14..16], u64::from(naive.minute()));
        buffer[16] = b':';
        fill_digits(&mut buffer[17..19], u64::from(second));
        buffer[19] = b'.';
        fill_digits(&mut buffer[20..29], u64::from(nanosecond));
        buffer[29] = b'Z';
        push_ascii(out, buffer);
        Ok(())
    }

    fn decode_key(encoded: &str) -> Result<Self, KeyPartError> {
        const EXPECTED: &str = "a UTC time as YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ";
        let invalid = || KeyPartError::invalid(EXPECTED, encoded);
        let bytes = encoded.as_bytes();
        if bytes.len() != 30
            || !encoded.is_ascii()
            || bytes[10] != b'T'
            || bytes[13] != b':'
            || bytes[16] != b':'
            || bytes[19] != b'.'
            || bytes[29] != b'Z'
        {
            return Err(invalid());
        }
        let date = parse_date(encoded).ok_or_else(invalid)?;
        let hour = parse_fixed(&encoded[11..13]).ok_or_else(invalid)?;
        let minute = parse_fixed(&encoded[14..16]).ok_or_else(invalid)?;
        let second = parse_fixed(&encoded[17..19]).ok_or_else(invalid)?;
        let nanosecond = parse_fixed(&encoded[20..29]).ok_or_else(invalid)?;
        let time = if second == 60 {
            NaiveTime::from_hms_nano_opt(hour, minute, 59, nanosecond + 1_000_000_000)
        } else {
            NaiveTime::from_hms_nano_opt(hour, minute, second, nanosecond)
        }
        .ok_or_else(invalid)?;
        Ok(date.and_time(time).and_utc())
    }

    fn example(_field: &str) -> Option<Self> {
        Some(
            NaiveDate::from_ymd_opt(2026, 1, 1)?
                .and_hms_opt(0, 0, 0)?
                .and_utc(),
        )
    }
}
