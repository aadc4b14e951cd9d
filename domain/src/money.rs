//! Money as staff type it: a refund, a bundle's price, a discount's minimum order, the
//! minimum cost of a message. One reading for every such field, in the browser (the staff
//! form's money field checks as it is typed) and on the server (the server function reads the
//! same text again): digits with at most one decimal mark — a comma or a point, as Dutch and
//! English write them — and at most two digits after it, with an optional euro sign. Nothing is
//! guessed: `1.000` could be a thousand or one, `0,001` a tenth of a cent or a thousand, so both
//! are refused and the member of staff is told how to write the amount.

use crate::error::{ApiError, ErrorCode, Field};

/// The longest amount text a form takes.
pub const AMOUNT_MAX_CHARS: usize = 16;
/// The most digits before the decimal mark (ten million euros less a cent).
const WHOLE_DIGITS_MAX: usize = 9;

/// Why a text is not an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountError {
    /// Nothing typed.
    Empty,
    /// Anything but digits with one decimal mark and at most two decimals.
    NotAnAmount,
}

impl AmountError {
    /// The refusal a form shows: the same translated text in the browser and from the server.
    pub fn api_error(self) -> ApiError {
        ApiError::field(Field::Form, ErrorCode::AmountInvalid)
    }
}

/// Reads an amount in minor units (cents): `12,50`, `12.50`, `12.5`, `12`, `€ 12,50`, `12,50 €`.
/// Refused: thousands separators (`1.000`, `1.000,50`, `1,049.95`), more than two decimals
/// (`0,001`), signs, letters, markup, empty decimals (`12,`), more than nine whole digits.
pub fn parse_amount(text: &str) -> Result<i64, AmountError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(AmountError::Empty);
    }
    if text.chars().count() > AMOUNT_MAX_CHARS {
        return Err(AmountError::NotAnAmount);
    }
    let bare = text.strip_prefix('€').or_else(|| text.strip_suffix('€')).unwrap_or(text).trim();
    let (whole, fraction) = match bare.split_once([',', '.']) {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (bare, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || whole.len() > WHOLE_DIGITS_MAX {
        return Err(AmountError::NotAnAmount);
    }
    let cents = match fraction {
        None => 0,
        Some(f) if digits(f) && f.len() <= 2 => f.parse::<i64>().map_err(|_| AmountError::NotAnAmount)? * if f.len() == 1 { 10 } else { 1 },
        Some(_) => return Err(AmountError::NotAnAmount),
    };
    let whole: i64 = whole.parse().map_err(|_| AmountError::NotAnAmount)?;
    Ok(whole * 100 + cents)
}

/// How an amount is written back into a form so that it reads again as the same amount:
/// `59.95`, `0.89`, `20.00` (no thousands separator, whatever the language).
pub fn form_value(minor: i64) -> String {
    format!("{}.{:02}", minor / 100, minor.rem_euclid(100))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn amounts_as_staff_type_them() {
        for (text, minor) in [
            ("12,50", 1250),
            ("12.50", 1250),
            ("12,5", 1250),
            ("12.5", 1250),
            ("12", 1200),
            ("0,01", 1),
            ("€ 12,50", 1250),
            ("€12.50", 1250),
            ("12,50 €", 1250),
            (" 7 ", 700),
            ("0", 0),
            ("1000", 100_000),
            ("007,00", 700),
            ("999999999,99", 99_999_999_999),
        ] {
            assert_eq!(parse_amount(text), Ok(minor), "{text}");
        }
    }

    #[test]
    fn nothing_is_guessed() {
        assert_eq!(parse_amount(""), Err(AmountError::Empty));
        assert_eq!(parse_amount("   "), Err(AmountError::Empty));
        for text in [
            "0,001",
            "1.000,5",
            "1.000",
            "1,000",
            "1,049.95",
            "1.049,95",
            "€ 1.049,95",
            "12,",
            "12.",
            ",50",
            ".5",
            "1,2,3",
            "-5",
            "+5",
            "5-",
            "1e3",
            "5 EUR",
            "EUR 5",
            "gratis",
            "<b>5</b>",
            "12 50",
            "1 000",
            "€€5",
            "5€€",
            "1234567890",
            "99999999999999999",
            "١٢",
            "１２",
            "12,5O",
        ] {
            assert_eq!(parse_amount(text), Err(AmountError::NotAnAmount), "{text}");
        }
    }

    #[test]
    fn the_refusal_is_the_translated_amount_text() {
        let error = AmountError::NotAnAmount.api_error();
        assert_eq!((error.code, error.field), (ErrorCode::AmountInvalid, Some(Field::Form)));
    }

    proptest! {
        /// Every amount written with either mark, one or two decimals, or none, reads back.
        #[test]
        fn a_written_amount_reads_back(minor in 0i64..100_000_000_000, comma in any::<bool>(), euro in 0u8..3) {
            let mark = if comma { ',' } else { '.' };
            let mut text = format!("{}{mark}{:02}", minor / 100, minor % 100);
            if minor % 10 == 0 && euro == 1 {
                text.pop();
            }
            let text = match euro { 0 => text, 1 => format!("€ {text}"), _ => format!("{text} €") };
            prop_assert_eq!(parse_amount(&text), Ok(minor));
            prop_assert_eq!(parse_amount(&form_value(minor)), Ok(minor));
        }

        /// Three or more decimals, or a second mark, is never an amount: no thousands guessed.
        #[test]
        fn more_than_two_decimals_or_two_marks_never_read(whole in 0u32..1_000_000, tail in "[0-9]{3,6}", second in "[.,][0-9]{1,2}") {
            prop_assert_eq!(parse_amount(&format!("{whole},{tail}")), Err(AmountError::NotAnAmount));
            prop_assert_eq!(parse_amount(&format!("{whole}.{tail}")), Err(AmountError::NotAnAmount));
            prop_assert_eq!(parse_amount(&format!("{whole}.{}{second}", &tail[..3])), Err(AmountError::NotAnAmount));
        }

        /// Whatever is typed, the reading never panics and never yields a negative amount.
        #[test]
        fn any_text_is_read_or_refused(text in "\\PC{0,24}") {
            if let Ok(minor) = parse_amount(&text) {
                prop_assert!(minor >= 0);
            }
        }
    }
}
