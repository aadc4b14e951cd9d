//! Complaints and reports (`/complaints`): what a complainant may send, checked the same way in
//! the browser and on the server, and the reference they get back.

use serde::{Deserialize, Serialize};

use crate::account::validate_email;
use crate::error::Field;
use crate::error::{ApiError, ErrorCode};

pub const NAME_MAX_CHARS: usize = 100;
pub const CONCERNING_MAX_CHARS: usize = 200;
pub const TEXT_MIN_CHARS: usize = 10;
pub const TEXT_MAX_CHARS: usize = 4000;

/// What a complaint is about; staff sort by it, and a report of a member is one of the first four.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    FakeProfile,
    Harassment,
    Underage,
    Scam,
    Payment,
    Privacy,
    Technical,
    Other,
}

impl Category {
    pub const ALL: [Category; 8] = [
        Category::FakeProfile,
        Category::Harassment,
        Category::Underage,
        Category::Scam,
        Category::Payment,
        Category::Privacy,
        Category::Technical,
        Category::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::FakeProfile => "fake_profile",
            Category::Harassment => "harassment",
            Category::Underage => "underage",
            Category::Scam => "scam",
            Category::Payment => "payment",
            Category::Privacy => "privacy",
            Category::Technical => "technical",
            Category::Other => "other",
        }
    }

    pub fn parse(text: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// The key of its label in `locales/`.
    pub fn label_key(self) -> String {
        format!("complaints.category.{}", self.as_str())
    }
}

/// A complaint as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComplaintForm {
    pub name: String,
    pub email: String,
    pub category: String,
    /// The member or message concerned, in the complainant's words (optional).
    pub concerning: String,
    pub text: String,
}

/// A complaint that passed the checks: trimmed, the address lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Complaint {
    pub name: String,
    pub email: String,
    pub category: Category,
    pub concerning: String,
    pub text: String,
}

impl ComplaintForm {
    /// Every problem of the form, in the order of its fields.
    pub fn problems(&self) -> Vec<ApiError> {
        let mut out = Vec::new();
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > NAME_MAX_CHARS || name.chars().any(char::is_control) {
            out.push(ApiError::field(Field::Name, ErrorCode::NameRequired).with("max", NAME_MAX_CHARS));
        }
        if let Err(e) = validate_email(&self.email) {
            out.push(e);
        }
        if Category::parse(self.category.trim()).is_none() {
            out.push(ApiError::field(Field::Form, ErrorCode::ChoiceInvalid));
        }
        if self.concerning.trim().chars().count() > CONCERNING_MAX_CHARS {
            out.push(ApiError::field(Field::Form, ErrorCode::MessageTooLong).with("max", CONCERNING_MAX_CHARS));
        }
        let text = self.text.trim().chars().count();
        if !(TEXT_MIN_CHARS..=TEXT_MAX_CHARS).contains(&text) {
            out.push(ApiError::field(Field::Message, ErrorCode::ComplaintLength).with("min", TEXT_MIN_CHARS).with("max", TEXT_MAX_CHARS));
        }
        out
    }

    /// The complaint, or the first problem.
    pub fn validate(&self) -> Result<Complaint, ApiError> {
        if let Some(first) = self.problems().into_iter().next() {
            return Err(first);
        }
        Ok(Complaint {
            name: self.name.trim().to_string(),
            email: validate_email(&self.email)?,
            category: Category::parse(self.category.trim()).ok_or_else(|| ApiError::new(ErrorCode::ChoiceInvalid))?,
            concerning: self.concerning.trim().to_string(),
            text: self.text.trim().to_string(),
        })
    }
}

/// A reference as complainants see it: `K-` and eight characters that cannot be confused
/// (no 0/O, 1/I/L), made from random bytes.
pub fn reference(random: [u8; 8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    let code: String = random.iter().map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char).collect();
    format!("K-{code}")
}

/// Whether `text` looks like a reference (staff search by it).
pub fn is_reference(text: &str) -> bool {
    text.len() == 10 && text.starts_with("K-") && text[2..].bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn good() -> ComplaintForm {
        ComplaintForm {
            name: " Anna ".into(),
            email: "Anna@Example.nl".into(),
            category: "harassment".into(),
            concerning: "Bram".into(),
            text: "He keeps sending rude messages.".into(),
        }
    }

    #[test]
    fn a_good_complaint_is_cleaned() {
        let c = good().validate().unwrap();
        assert_eq!((c.name.as_str(), c.email.as_str(), c.category), ("Anna", "anna@example.nl", Category::Harassment));
    }

    #[test]
    fn each_field_is_checked() {
        let codes = |f: ComplaintForm| f.problems().into_iter().map(|e| e.code).collect::<Vec<_>>();
        assert_eq!(codes(ComplaintForm { name: "  ".into(), ..good() }), [ErrorCode::NameRequired]);
        assert_eq!(codes(ComplaintForm { email: "anna".into(), ..good() }), [ErrorCode::EmailInvalid]);
        assert_eq!(codes(ComplaintForm { category: "spam".into(), ..good() }), [ErrorCode::ChoiceInvalid]);
        assert_eq!(codes(ComplaintForm { concerning: "x".repeat(201), ..good() }), [ErrorCode::MessageTooLong]);
        assert_eq!(codes(ComplaintForm { text: "too short".into(), ..good() }), [ErrorCode::ComplaintLength]);
        assert_eq!(codes(ComplaintForm { text: "x".repeat(4001), ..good() }), [ErrorCode::ComplaintLength]);
        assert_eq!(codes(ComplaintForm::default()).len(), 4, "all four required fields at once");
    }

    #[test]
    fn categories_round_trip() {
        for c in Category::ALL {
            assert_eq!(Category::parse(c.as_str()), Some(c));
        }
    }

    proptest! {
        #[test]
        fn references_are_well_formed(bytes in any::<[u8; 8]>()) {
            let r = reference(bytes);
            prop_assert!(is_reference(&r), "{}", r);
            prop_assert!(!r[2..].contains(['0', 'O', '1', 'I', 'L']));
        }

        #[test]
        fn text_length_decides(len in 0usize..5000) {
            let form = ComplaintForm { text: "a".repeat(len), ..good() };
            prop_assert_eq!(form.validate().is_ok(), (TEXT_MIN_CHARS..=TEXT_MAX_CHARS).contains(&len));
        }
    }
}
