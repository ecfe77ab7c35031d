use super::*;

#[test]
fn numbers_rust_writes_are_accepted() {
    for text in [
        "0",
        "-0",
        "42",
        "-17",
        "18446744073709551615",
        "-9223372036854775808",
        "0.30000000000000004",
        "1.7976931348623157e125",
        "123456789012345678901234567890123456780000",
        "0.00000000000000000000000000000000000000000000000000000001",
        "1E-130",
        "9.9999999999999999999999999999999999999E+125",
        "+5",
        ".5",
        "5.",
    ] {
        assert_eq!(check_number(text), Ok(()), "{text}");
    }
}

#[test]
fn numbers_dynamodb_refuses_are_refused() {
    assert_eq!(check_number("NaN"), Err(NumberProblem::NotANumber));
    assert_eq!(check_number("inf"), Err(NumberProblem::NotANumber));
    assert_eq!(check_number("-inf"), Err(NumberProblem::NotANumber));
    assert_eq!(check_number(""), Err(NumberProblem::NotANumber));
    assert_eq!(check_number("-"), Err(NumberProblem::NotANumber));
    assert_eq!(check_number("1e"), Err(NumberProblem::NotANumber));
    assert_eq!(check_number("1 000"), Err(NumberProblem::NotANumber));
    assert_eq!(check_number("0x10"), Err(NumberProblem::NotANumber));
    // 39 significant digits (u128::MAX).
    assert_eq!(
        check_number("340282366920938463463374607431768211455"),
        Err(NumberProblem::TooManyDigits)
    );
    assert_eq!(
        check_number("1.00000000000000000000000000000000000001"),
        Err(NumberProblem::TooManyDigits)
    );
    assert_eq!(check_number("1E126"), Err(NumberProblem::TooLarge));
    assert_eq!(
        check_number(&1e300f64.to_string()),
        Err(NumberProblem::TooLarge)
    );
    assert_eq!(
        check_number(&f64::MAX.to_string()),
        Err(NumberProblem::TooLarge)
    );
    assert_eq!(check_number("1E-131"), Err(NumberProblem::TooSmall));
    assert_eq!(
        check_number(&1e-200f64.to_string()),
        Err(NumberProblem::TooSmall)
    );
    assert_eq!(
        check_number("1e-99999999999999999999999"),
        Err(NumberProblem::TooSmall)
    );
    assert_eq!(
        check_number("1e99999999999999999999999"),
        Err(NumberProblem::TooLarge)
    );
    assert_eq!(
        check_number(&f64::NAN.to_string()),
        Err(NumberProblem::NotANumber)
    );
    assert_eq!(
        check_number(&f64::INFINITY.to_string()),
        Err(NumberProblem::NotANumber)
    );
}

/// The two-pass reading of a Number that `number_digits` replaced (by
/// `str` searches, then `significant_digits`), as the oracle.
fn reference_number_digits(text: &str) -> Result<usize, NumberProblem> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if integer.len() + fraction.len() == 0 || !all_digits(integer) || !all_digits(fraction) {
        return Err(NumberProblem::NotANumber);
    }
    let exponent: i64 = match exponent {
        None => 0,
        Some(exponent) => {
            let digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
            if digits.is_empty() || !all_digits(digits) {
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
    // The digits, without the point (and without allocating: every Number
    // of every written item comes through here).
    let Some(first) = integer
        .bytes()
        .chain(fraction.bytes())
        .position(|digit| digit != b'0')
    else {
        return Ok(0); // zero
    };
    let digits = crate::item::size::significant_digits(mantissa);
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

#[test]
fn the_one_pass_number_reading_agrees_with_the_two_pass_one() {
    let alphabet = ["0", "1", "9", ".", "e", "E", "-", "+", "x", "é"];
    let mut texts = vec![String::new()];
    let mut all = Vec::new();
    for _ in 0..5 {
        texts = texts
            .iter()
            .flat_map(|text| alphabet.iter().map(move |c| format!("{text}{c}")))
            .collect();
        all.extend(texts.iter().cloned());
    }
    all.extend(
        [
            "340282366920938463463374607431768211455",
            "1.00000000000000000000000000000000000001",
            "12345678901234567890123456789012345678",
            "0.000000000000000000000000000000000000000000000000012300",
            "1e-99999999999999999999999",
            "1e99999999999999999999999",
            "9.9999999999999999999999999999999999999E+125",
            "1E-130",
            "1E-131",
            "-0.0e-0",
            "18446744073709551615",
        ]
        .map(str::to_owned),
    );
    for text in &all {
        assert_eq!(
            number_digits(text),
            reference_number_digits(text),
            "{text:?}"
        );
    }
}

#[test]
fn the_one_pass_check_agrees_with_the_check_and_the_size() {
    use aws_sdk_dynamodb::primitives::Blob;
    let n = |text: &str| AttributeValue::N(text.to_owned());
    let numbers = [
        "0",
        "-0",
        "42",
        "-17.50",
        "0.000120",
        "1E-130",
        "1E-131",
        "1E126",
        "NaN",
        "inf",
        "",
        "1e",
        "+5",
        ".5",
        "5.",
        "1.5e+3",
        "00012300",
        "340282366920938463463374607431768211455",
    ];
    let mut values: Vec<AttributeValue> = numbers.iter().map(|text| n(text)).collect();
    values.extend([
        AttributeValue::S(String::new()),
        AttributeValue::S("café".to_owned()),
        AttributeValue::Bool(true),
        AttributeValue::Null(true),
        AttributeValue::B(Blob::new(vec![1, 2, 3])),
        AttributeValue::Ss(vec![]),
        AttributeValue::Ss(vec!["a".to_owned(), "bc".to_owned()]),
        AttributeValue::Ns(vec![]),
        AttributeValue::Ns(vec!["1".to_owned(), "250".to_owned()]),
        AttributeValue::Ns(vec!["1".to_owned(), "NaN".to_owned()]),
        AttributeValue::Bs(vec![]),
        AttributeValue::Bs(vec![Blob::new(vec![0; 4])]),
    ]);
    let nested: Vec<AttributeValue> = values
        .iter()
        .flat_map(|value| {
            [
                AttributeValue::L(vec![n("1"), value.clone()]),
                AttributeValue::M(
                    [
                        ("a".to_owned(), value.clone()),
                        ("bb".to_owned(), AttributeValue::L(vec![value.clone()])),
                    ]
                    .into(),
                ),
            ]
        })
        .collect();
    values.extend(nested);
    for value in &values {
        let expected = is_valid(value, 1).then(|| attribute_value_size(value));
        assert_eq!(checked_size(value), expected, "{value:?}");
    }
}

#[test]
fn nested_values_name_their_path() {
    let value = AttributeValue::M(
        [(
            "scores".to_owned(),
            AttributeValue::L(vec![
                AttributeValue::N("1".into()),
                AttributeValue::N("NaN".into()),
            ]),
        )]
        .into(),
    );
    let error = check_value("Thing", "stats", &value).unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::InvalidNumber { entity: "Thing", attribute, value, .. }) if attribute == "stats.scores[1]" && value == "NaN"),
        "{error:?}"
    );
    let nested_empty = AttributeValue::L(vec![AttributeValue::Ss(vec![])]);
    let error = check_value("Thing", "tags", &nested_empty).unwrap_err();
    assert!(
        matches!(&error, Error::Refused(Refusal::EmptySet { attribute, .. }) if attribute == "tags[0]"),
        "{error:?}"
    );
}
