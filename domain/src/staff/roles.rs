//! Who on staff may do what. A staff account holds one or more roles; each staff area (a page, its
//! server functions and its exports) is open to the roles listed in [`StaffArea::roles`] and to
//! nobody else. Staff and operator accounts are not members: nobody finds, likes or is shown them.

use serde::{Deserialize, Serialize};
use strum::IntoEnumIterator;

/// A staff role (labels `staff.role.{name}` in `locales/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum StaffRole {
    /// The site's settings, prices, staff and their roles, the staff log, every figure.
    Admin,
    /// Members' questions: find a member, block or unblock, complaints, payments (read), invitations.
    Support,
    /// What members show: photo review, complaints, held messages.
    Moderator,
    /// Money: payments, refunds, the sales report, prices and discount codes.
    Finance,
    /// Answers as the site's fictional profiles in the operators' console.
    Operator,
}

impl StaffRole {
    /// Every role, in the order pages list them.
    pub const ALL: [StaffRole; 5] = [StaffRole::Admin, StaffRole::Support, StaffRole::Moderator, StaffRole::Finance, StaffRole::Operator];

    /// The role's bit in `users.staff_roles`.
    pub const fn bit(self) -> i64 {
        1 << self as u8
    }

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<StaffRole> {
        text.parse().ok()
    }
}

/// The roles of one account (`users.staff_roles`, one bit per [`StaffRole`]); empty for a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct StaffRoles(i64);

impl StaffRoles {
    pub const NONE: StaffRoles = StaffRoles(0);
    /// Every role.
    pub const ALL: StaffRoles =
        StaffRoles(StaffRole::Admin.bit() | StaffRole::Support.bit() | StaffRole::Moderator.bit() | StaffRole::Finance.bit() | StaffRole::Operator.bit());

    /// From the stored bits; bits of no role are dropped.
    pub fn from_bits(bits: i64) -> StaffRoles {
        StaffRoles(bits & StaffRoles::ALL.0)
    }

    pub fn bits(self) -> i64 {
        self.0
    }

    pub fn of(roles: &[StaffRole]) -> StaffRoles {
        roles.iter().fold(StaffRoles::NONE, |set, role| set.with(*role))
    }

    pub fn contains(self, role: StaffRole) -> bool {
        self.0 & role.bit() != 0
    }

    pub fn with(self, role: StaffRole) -> StaffRoles {
        StaffRoles(self.0 | role.bit())
    }

    pub fn without(self, role: StaffRole) -> StaffRoles {
        StaffRoles(self.0 & !role.bit())
    }

    /// A member: no staff role at all.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = StaffRole> {
        StaffRole::iter().filter(move |role| self.contains(*role))
    }

    /// Whether these roles open `area`.
    pub fn may(self, area: StaffArea) -> bool {
        area.roles().iter().any(|role| self.contains(*role))
    }
}

/// A part of the staff side: a page with its server functions and exports, or one power on a page
/// that others may open (refunds on the payments page, roles on the members page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum StaffArea {
    /// `/staff`: the start page, its links cut to the account's roles.
    Home,
    /// `/staff/complaints`.
    Complaints,
    /// `/staff/members`: find a member, block and unblock.
    Members,
    /// Grant and take back staff roles.
    Roles,
    /// `/staff/photos`, and every photo of the site (private, waiting, rejected) in full.
    Photos,
    /// `/staff/held`: messages held for review, the contact-detail figures.
    Held,
    /// `/staff/chats`: the operators' console, its queue and stream.
    Console,
    /// The operators' figures and their CSV.
    OperatorFigures,
    /// `/staff/payments`: find a payment, its timeline, the sales report and its CSV.
    Payments,
    /// Refunds and lifting a payment block.
    Refunds,
    /// Correcting a member's credits through the ledger, with a reason.
    Credits,
    /// `/staff/pricing`: credit bundles and discount codes.
    Pricing,
    /// `/staff/site`: settings, texts, rules, the company, the logo, a new site.
    Site,
    /// The staff log and the landers' figures.
    Log,
    /// Every invitation of the site, without a daily limit.
    Invitations,
    /// `/staff/jobs`: the job queue (failed jobs run again) and the lifecycle messages' figures.
    Jobs,
    /// `/staff/figures/postbacks`: what the traffic networks are told, and each call's answer.
    Figures,
}

impl StaffArea {
    /// Every area.
    pub const ALL: [StaffArea; 17] = [
        StaffArea::Home,
        StaffArea::Complaints,
        StaffArea::Members,
        StaffArea::Roles,
        StaffArea::Photos,
        StaffArea::Held,
        StaffArea::Console,
        StaffArea::OperatorFigures,
        StaffArea::Payments,
        StaffArea::Refunds,
        StaffArea::Credits,
        StaffArea::Pricing,
        StaffArea::Site,
        StaffArea::Log,
        StaffArea::Invitations,
        StaffArea::Jobs,
        StaffArea::Figures,
    ];

    /// The roles that open this area.
    pub const fn roles(self) -> &'static [StaffRole] {
        use StaffRole::*;
        match self {
            StaffArea::Home => &[Admin, Support, Moderator, Finance, Operator],
            StaffArea::Complaints => &[Admin, Support, Moderator],
            StaffArea::Members => &[Admin, Support],
            StaffArea::Photos | StaffArea::Held => &[Admin, Moderator],
            StaffArea::Console => &[Operator],
            StaffArea::Payments => &[Admin, Finance, Support],
            // On the members page, where support answer members' questions.
            StaffArea::Credits => &[Admin, Support],
            StaffArea::Refunds | StaffArea::Pricing | StaffArea::Figures => &[Admin, Finance],
            StaffArea::Invitations => &[Admin, Support],
            StaffArea::Roles | StaffArea::OperatorFigures | StaffArea::Site | StaffArea::Log | StaffArea::Jobs => &[Admin],
        }
    }
}

/// Where the member file posts a member's data export for a GDPR request (a file, not a page).
pub const MEMBER_EXPORT_PATH: &str = "/staff/members/export";

/// The largest credit correction either way.
pub const CREDIT_CORRECTION_MAX: i64 = 100_000;

/// A staff correction of a member's credits: a whole number of credits, not zero, within
/// [`CREDIT_CORRECTION_MAX`] either way (a minus takes credits off), and the reason.
pub fn validate_credit_correction(amount: &str, reason: &str) -> Result<(i64, String), crate::ApiError> {
    use crate::{ApiError, ErrorCode, Field};
    let delta = amount.trim().replace(['\u{2212}', '\u{2013}'], "-").parse::<i64>().ok().filter(|d| *d != 0 && d.abs() <= CREDIT_CORRECTION_MAX);
    let Some(delta) = delta else {
        return Err(ApiError::field(Field::Form, ErrorCode::CreditCorrectionInvalid).with("max", CREDIT_CORRECTION_MAX));
    };
    Ok((delta, validate_staff_reason(reason)?))
}

/// The reason staff give for a change or a look (a block, a correction, reading messages, an
/// export): trimmed, not empty, at most [`crate::account::STAFF_REASON_MAX_CHARS`] characters.
pub fn validate_staff_reason(reason: &str) -> Result<String, crate::ApiError> {
    use crate::{ApiError, ErrorCode, Field};
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > crate::account::STAFF_REASON_MAX_CHARS {
        return Err(ApiError::field(Field::Form, ErrorCode::ReasonRequired).with("max", crate::account::STAFF_REASON_MAX_CHARS));
    }
    Ok(reason.to_string())
}

/// The longest note staff leave on a member.
pub const STAFF_NOTE_MAX_CHARS: usize = 2_000;

/// A staff note as typed: trimmed, not empty, at most [`STAFF_NOTE_MAX_CHARS`] characters.
pub fn validate_staff_note(body: &str) -> Result<String, crate::ApiError> {
    use crate::{ApiError, ErrorCode, Field};
    let body = body.trim();
    if body.is_empty() {
        return Err(ApiError::field(Field::Form, ErrorCode::Required));
    }
    if body.chars().count() > STAFF_NOTE_MAX_CHARS {
        return Err(ApiError::field(Field::Form, ErrorCode::TextTooLong).with("max", STAFF_NOTE_MAX_CHARS));
    }
    Ok(body.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staff_note_is_trimmed_and_bounded() {
        assert_eq!(validate_staff_note("  Belde over een dubbele afschrijving.\n ").unwrap(), "Belde over een dubbele afschrijving.");
        assert_eq!(validate_staff_note(" \n ").unwrap_err().code, crate::ErrorCode::Required);
        assert_eq!(validate_staff_note(&"é".repeat(STAFF_NOTE_MAX_CHARS)).unwrap().chars().count(), STAFF_NOTE_MAX_CHARS);
        let long = validate_staff_note(&"x".repeat(STAFF_NOTE_MAX_CHARS + 1)).unwrap_err();
        assert_eq!(long.code, crate::ErrorCode::TextTooLong);
    }
    use proptest::prelude::*;

    #[test]
    fn all_holds_every_role() {
        assert_eq!(StaffRoles::ALL, StaffRoles::of(&StaffRole::iter().collect::<Vec<_>>()));
        assert_eq!(StaffRole::ALL.to_vec(), StaffRole::iter().collect::<Vec<_>>());
        assert_eq!(StaffArea::ALL.to_vec(), StaffArea::iter().collect::<Vec<_>>());
    }

    #[test]
    fn names_are_stored_and_read_back() {
        for role in StaffRole::iter() {
            assert_eq!(StaffRole::parse(role.as_str()), Some(role));
        }
        assert_eq!(StaffRole::Moderator.as_str(), "moderator");
        assert_eq!(StaffRole::parse("staff"), None);
    }

    #[test]
    fn each_area_has_roles_and_admin_is_not_an_operator() {
        for area in StaffArea::iter() {
            assert!(!area.roles().is_empty(), "{area:?}");
        }
        let admin = StaffRoles::of(&[StaffRole::Admin]);
        assert!(admin.may(StaffArea::Site) && admin.may(StaffArea::Roles));
        assert!(!admin.may(StaffArea::Console), "an admin answers as no fictional profile");
        let operator = StaffRoles::of(&[StaffRole::Operator]);
        assert!(operator.may(StaffArea::Console) && operator.may(StaffArea::Home));
        assert!(!operator.may(StaffArea::Members) && !operator.may(StaffArea::OperatorFigures));
        assert!(!StaffRoles::NONE.may(StaffArea::Home), "a member opens no staff area");
        let moderator = StaffRoles::of(&[StaffRole::Moderator]);
        assert!(moderator.may(StaffArea::Photos) && !moderator.may(StaffArea::Payments) && !moderator.may(StaffArea::Refunds));
        let support = StaffRoles::of(&[StaffRole::Support]);
        assert!(support.may(StaffArea::Payments) && !support.may(StaffArea::Refunds));
    }

    #[test]
    fn a_credit_correction_is_a_whole_number_not_zero_with_a_reason() {
        assert_eq!(validate_credit_correction(" 50 ", " goodwill ").unwrap(), (50, "goodwill".to_string()));
        assert_eq!(validate_credit_correction("\u{2212}20", "double charge").unwrap().0, -20, "a typographic minus");
        for bad in ["", "0", "-0", "1.5", "abc", "100001", "-100001", "9999999999999999999999"] {
            assert_eq!(validate_credit_correction(bad, "x").unwrap_err().code, crate::ErrorCode::CreditCorrectionInvalid, "{bad}");
        }
        assert_eq!(validate_credit_correction("5", "  ").unwrap_err().code, crate::ErrorCode::ReasonRequired);
        assert_eq!(validate_credit_correction("5", &"x".repeat(501)).unwrap_err().code, crate::ErrorCode::ReasonRequired);
    }

    proptest! {
        #[test]
        fn every_correction_in_range_passes_and_none_outside(delta in -200_000i64..200_000) {
            let ok = validate_credit_correction(&delta.to_string(), "reden").is_ok();
            prop_assert_eq!(ok, delta != 0 && delta.abs() <= CREDIT_CORRECTION_MAX);
        }
    }

    proptest! {
        #[test]
        fn a_set_holds_what_was_put_in(bits in any::<i64>(), pick in 0usize..5) {
            let roles = StaffRoles::from_bits(bits);
            prop_assert_eq!(StaffRoles::from_bits(roles.bits()), roles);
            prop_assert!(roles.bits() >= 0 && roles.bits() < 32);
            let role = StaffRole::iter().nth(pick).unwrap();
            prop_assert!(roles.with(role).contains(role));
            prop_assert!(!roles.without(role).contains(role));
            prop_assert_eq!(roles.with(role).without(role), roles.without(role));
            prop_assert_eq!(StaffRoles::of(&roles.iter().collect::<Vec<_>>()), roles);
            // More roles never close an area; taking every role away closes all of them.
            for area in StaffArea::iter() {
                prop_assert!(!roles.may(area) || roles.with(role).may(area));
                prop_assert!(!roles.iter().fold(roles, |left, r| left.without(r)).may(area));
            }
        }
    }
}
