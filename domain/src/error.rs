//! The one public error type. Every refusal a member (or a JSON client) can get is an
//! [`ApiError`]: a stable snake_case [`ErrorCode`], the form field it belongs to, and the values
//! of its text's placeholders. `locales/` translates each code through [`ErrorCode::locale_key`];
//! the HTTP status is [`ErrorCode::http_status`], written once here.
//!
//! It crosses the network as JSON (`{"code":"authentication_required"}`), both as the answer of a
//! server function and, for a form posted without JavaScript, base64 in the URL Leptos redirects
//! back to. Internal causes (database, I/O) never become anything but [`ErrorCode::Internal`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Which form field an error belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Email,
    Name,
    Password,
    PasswordRepeat,
    DateOfBirth,
    SignupMessage,
    Gender,
    Sexuality,
    Country,
    Region,
    City,
    /// A chat message's text box.
    Message,
    /// Payments: the discount-code box, the direct-debit form's IBAN, phone and SMS code.
    DiscountCode,
    Iban,
    Phone,
    Code,
    Form,
}

/// Every error a member can be shown. The serialised names are the public codes: never rename one.
/// Each code is declared once, here, with what belongs to it: its text's key in `locales/`
/// (`message`) and, unless it is `422`, the HTTP status of an answer carrying it (`status`).
/// The code string ([`ErrorCode::as_str`], the same as serde's name) and the list of all codes
/// ([`ErrorCode::ALL`]) are derived, so none can drift from the others.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumMessage,
    strum::EnumProperty,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ErrorCode {
    // Requests
    /// SPEC §8: a member-only call without a session.
    #[strum(message = "error.authentication_required", props(status = "403"))]
    AuthenticationRequired,
    /// A member without the role or right for this action.
    #[strum(message = "error.forbidden", props(status = "403"))]
    Forbidden,
    /// A state-changing request from another site.
    #[strum(message = "error.forbidden_origin", props(status = "403"))]
    ForbiddenOrigin,
    /// Staff work with two-step login on: a staff account without it may not use its roles,
    /// and one with it may not switch it off.
    #[strum(message = "error.two_step_required", props(status = "403"))]
    TwoStepRequired,
    #[strum(message = "error.not_found", props(status = "404"))]
    NotFound,
    /// The per-address rate limit.
    #[strum(message = "error.too_many_requests", props(status = "429"))]
    TooManyRequests,
    /// A request whose fields could not be read at all (not a browser's form).
    #[strum(message = "error.generic", props(status = "400"))]
    BadRequest,
    /// Anything that went wrong on our side; the cause is only logged.
    #[strum(message = "error.generic", props(status = "500"))]
    Internal,
    #[strum(message = "error.unsupported_language")]
    UnsupportedLanguage,

    // Accounts
    #[strum(message = "error.login_failed", props(status = "401"))]
    LoginFailed,
    /// 'Te veel foute pogingen, account voor {minutes} min geblokkeerd.'
    #[strum(message = "error.too_many_attempts", props(status = "429"))]
    TooManyAttempts,
    #[strum(message = "error.link_expired")]
    LinkExpired,
    #[strum(message = "error.email_not_found")]
    EmailNotFound,
    #[strum(message = "error.too_many_resets", props(status = "429"))]
    TooManyResets,
    #[strum(message = "error.too_many_mails", props(status = "429"))]
    TooManyMails,
    #[strum(message = "error.account_not_deleted_yet")]
    AccountNotDeletedYet,
    #[strum(message = "error.signup_invite_only")]
    SignupInviteOnly,
    /// An invitation link that is unknown, expired, withdrawn or used.
    #[strum(message = "error.invitation_invalid")]
    InvitationInvalid,
    #[strum(message = "error.signup_traffic_source_required")]
    SignupTrafficSourceRequired,
    #[strum(message = "error.activation_failed")]
    ActivationFailed,
    #[strum(message = "validation.email_taken")]
    EmailTaken,

    // Form fields
    #[strum(message = "validation.email_invalid")]
    EmailInvalid,
    #[strum(message = "validation.name_equals_email")]
    NameEqualsEmail,
    #[strum(message = "validation.name_starts_with_at")]
    NameStartsWithAt,
    #[strum(message = "validation.name_length")]
    NameLength,
    #[strum(message = "validation.name_chars")]
    NameChars,
    #[strum(message = "validation.date_of_birth_required")]
    DateOfBirthRequired,
    #[strum(message = "validation.date_of_birth_invalid")]
    DateOfBirthInvalid,
    #[strum(message = "validation.password_too_short")]
    PasswordTooShort,
    #[strum(message = "validation.password_too_long")]
    PasswordTooLong,
    #[strum(message = "validation.password_too_common")]
    PasswordTooCommon,
    #[strum(message = "validation.passwords_differ")]
    PasswordsDiffer,
    #[strum(message = "validation.old_password_wrong")]
    OldPasswordWrong,
    #[strum(message = "validation.new_email_invalid")]
    NewEmailInvalid,
    #[strum(message = "validation.message_too_long")]
    MessageTooLong,
    #[strum(message = "validation.message_empty")]
    MessageEmpty,
    /// A chat message holds a contact detail the site refuses.
    #[strum(message = "validation.contact_details_refused")]
    ContactDetailsRefused,
    /// Refused again after earlier tries: the next ones are held for review.
    #[strum(message = "validation.contact_details_repeated")]
    ContactDetailsRepeated,
    #[strum(message = "validation.gender_required")]
    GenderRequired,
    #[strum(message = "validation.sexuality_required")]
    SexualityRequired,
    #[strum(message = "validation.country_required")]
    CountryRequired,
    #[strum(message = "validation.region_required")]
    RegionRequired,
    #[strum(message = "validation.city_required")]
    CityRequired,
    #[strum(message = "validation.city_invalid")]
    CityInvalid,
    #[strum(message = "validation.choice_invalid")]
    ChoiceInvalid,
    #[strum(message = "validation.too_many_interests")]
    TooManyInterests,
    #[strum(message = "validation.about_too_long")]
    AboutTooLong,
    #[strum(message = "validation.none_chosen")]
    NoneChosen,
    #[strum(message = "validation.discount_not_found")]
    DiscountNotFound,
    #[strum(message = "validation.discount_used")]
    DiscountUsed,
    #[strum(message = "validation.sms_code_invalid")]
    SmsCodeInvalid,
    #[strum(message = "validation.iban_invalid")]
    IbanInvalid,
    #[strum(message = "validation.phone_invalid")]
    PhoneInvalid,

    // Members and likes
    /// SPEC §8: user blocked by another member.
    #[strum(message = "error.blocked_by_member", props(status = "403"))]
    BlockedByMember,
    /// Another operator is answering this conversation ('{name}').
    #[strum(message = "error.claimed_by_other", props(status = "409"))]
    ClaimedByOther,
    /// The swipe game's likes for today are used up.
    #[strum(message = "likes.limit_reached", props(status = "429"))]
    DailyLikesUsed,

    // Photos
    #[strum(message = "photo.limit_reached")]
    PhotoLimitReached,
    #[strum(message = "photo.too_large", props(status = "413"))]
    PhotoTooLarge,
    #[strum(message = "photo.not_an_image")]
    PhotoNotAnImage,
    #[strum(message = "photo.unreadable")]
    PhotoUnreadable,
    #[strum(message = "photo.too_many_pixels")]
    PhotoTooManyPixels,
    #[strum(message = "photo.no_file")]
    PhotoNoFile,

    // Credits
    #[strum(message = "error.insufficient_credits", props(status = "402"))]
    InsufficientCredits,
    #[strum(message = "error.premium_only", props(status = "403"))]
    PremiumOnly,

    // Payments
    #[strum(message = "error.direct_debit_blocked", props(status = "403"))]
    DirectDebitBlocked,
    #[strum(message = "error.direct_debit_limit")]
    DirectDebitLimit,
    #[strum(message = "error.method_unavailable")]
    MethodUnavailable,
    /// After a chargeback: card and direct-debit payments wait until staff lift the block.
    #[strum(message = "error.payments_blocked", props(status = "403"))]
    PaymentsBlocked,
    /// The member's fraud signals reach the site's review score: their payments wait until staff
    /// looked at the account (`server::fraud::payment_gate`).
    #[strum(message = "error.payment_review", props(status = "403"))]
    PaymentReview,
    /// A payment that cannot be refunded (not paid, or refunded already).
    #[strum(message = "error.not_refundable")]
    NotRefundable,
    /// A refund of nothing or of more than is left of the payment (`{max}`, formatted).
    #[strum(message = "error.refund_amount_invalid")]
    RefundAmountInvalid,
    /// Direct debit (and, when the site asks it, a first card payment) before the member
    /// confirmed their address.
    #[strum(message = "error.address_not_confirmed", props(status = "403"))]
    AddressNotConfirmed,
    // Age assurance (`domain::age`)
    /// The site asks this member for a passed age check before chatting or buying.
    #[strum(message = "error.age_check_required", props(status = "403"))]
    AgeCheckRequired,
    /// An age check asked for where no provider is configured to do it (a site setting, or a
    /// member starting one).
    #[strum(message = "error.age_checks_unavailable")]
    AgeChecksUnavailable,
    // Account security
    #[strum(message = "validation.password_wrong")]
    PasswordWrong,
    #[strum(message = "validation.two_step_code_invalid")]
    TwoStepCodeInvalid,
    #[strum(message = "error.invisible_cannot_like", props(status = "403"))]
    InvisibleCannotLike,
    // Complaints
    /// A complaint without the complainant's name.
    #[strum(message = "validation.name_required")]
    NameRequired,
    /// A complaint's text shorter or longer than allowed (`{min}`, `{max}`).
    #[strum(message = "validation.complaint_length")]
    ComplaintLength,
    /// A staff block or unblock without a reason (`{max}`).
    #[strum(message = "validation.reason_required")]
    ReasonRequired,
    /// A staff credit correction that is not a whole number of credits within `{max}` either
    /// way, or zero.
    #[strum(message = "validation.credit_correction")]
    CreditCorrectionInvalid,
    // Staff settings (`{setting}` names the setting)
    /// A number outside `{min}`..=`{max}`.
    #[strum(message = "validation.out_of_range")]
    OutOfRange,
    /// Time bonus and welcome discount both on, the time bonus not the better one (higher
    /// percentage, fewer hours): its "only now" would be untrue (`domain::offers`).
    #[strum(message = "validation.time_bonus_not_better")]
    TimeBonusNotBetter,
    /// Money typed as something other than digits with one decimal mark and at most two
    /// decimals (`domain::money`).
    #[strum(message = "validation.amount_invalid")]
    AmountInvalid,
    /// A text longer than `{max}` characters.
    #[strum(message = "validation.text_too_long")]
    TextTooLong,
    /// An empty text that must be filled in.
    #[strum(message = "validation.required")]
    Required,
    /// Not an `http(s)://` address files can be served from.
    #[strum(message = "validation.url_invalid")]
    UrlInvalid,
    // Split tests of landers (`domain::splits`)
    /// A test's name not of lower-case letters, digits and dashes, or longer than `{max}`.
    #[strum(message = "validation.split_name")]
    SplitNameInvalid,
    /// A name another test of the site has had.
    #[strum(message = "validation.split_name_taken")]
    SplitNameTaken,
    /// Not two to four different designs.
    #[strum(message = "validation.split_designs")]
    SplitDesignsInvalid,
    /// A design's weight not a whole number from 1 to `{max}`.
    #[strum(message = "validation.split_weight")]
    SplitWeightInvalid,
    /// The lander has a test running already.
    #[strum(message = "validation.split_running")]
    SplitRunning,
    /// Not two to four different prices above zero (a price test).
    #[strum(message = "validation.split_prices")]
    SplitPricesInvalid,
    /// Not a `#rrggbb` colour.
    #[strum(message = "validation.colour_invalid")]
    ColourInvalid,
    /// A discount code not of `{min}`–`{max}` letters, digits, `-` or `_`.
    #[strum(message = "validation.code_invalid")]
    CodeInvalid,
    /// A discount code the site already has.
    #[strum(message = "validation.code_taken")]
    CodeTaken,
    /// Not a host name a site can answer on.
    #[strum(message = "validation.domain_invalid")]
    DomainInvalid,
    /// A domain another site already answers on.
    #[strum(message = "validation.domain_taken")]
    DomainTaken,
}

impl ErrorCode {
    /// Every code, for the tests that check translations and statuses.
    pub const ALL: &'static [ErrorCode] = <ErrorCode as strum::VariantArray>::VARIANTS;

    /// The public code (`authentication_required`).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The key of the code's text in `locales/`.
    pub fn locale_key(self) -> &'static str {
        strum::EnumMessage::get_message(&self).unwrap_or("error.generic")
    }

    /// The HTTP status of an answer carrying this code (JSON clients; forms get a redirect).
    pub fn http_status(self) -> u16 {
        strum::EnumProperty::get_str(&self, "status").and_then(|s| s.parse().ok()).unwrap_or(422)
    }
}

/// What the member is told: a code, the field it belongs to (if any) and placeholder values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{}", code.as_str())]
pub struct ApiError {
    pub code: ErrorCode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<Field>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, String>,
}

impl ApiError {
    pub fn new(code: ErrorCode) -> ApiError {
        ApiError { code, field: None, args: BTreeMap::new() }
    }

    /// An error that belongs to one field of a form.
    pub fn field(field: Field, code: ErrorCode) -> ApiError {
        ApiError { code, field: Some(field), args: BTreeMap::new() }
    }

    /// Adds a placeholder value, e.g. `with("minutes", 15)` for `{minutes}`.
    pub fn with(mut self, name: &str, value: impl ToString) -> ApiError {
        self.args.insert(name.to_string(), value.to_string());
        self
    }

    /// A placeholder value as a number (e.g. the lockout's minutes).
    pub fn arg_i64(&self, name: &str) -> Option<i64> {
        self.args.get(name).and_then(|v| v.parse().ok())
    }

    pub fn locale_key(&self) -> &'static str {
        self.code.locale_key()
    }

    /// The placeholder values as `interpolate` takes them.
    pub fn arg_pairs(&self) -> Vec<(&str, &str)> {
        self.args.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
    }
}

impl From<ErrorCode> for ApiError {
    fn from(code: ErrorCode) -> ApiError {
        ApiError::new(code)
    }
}

/// Leptos server functions return `Result<T, ApiError>`. What goes wrong in the transport
/// itself (arguments that do not parse, a lost connection) becomes a code as well.
impl server_fn::error::FromServerFnError for ApiError {
    type Encoder = server_fn::codec::JsonEncoding;

    fn from_server_fn_error(value: server_fn::error::ServerFnErrorErr) -> Self {
        use server_fn::error::ServerFnErrorErr as E;
        match value {
            E::Args(_) | E::MissingArg(_) | E::Deserialization(_) | E::UnsupportedRequestMethod(_) => ApiError::new(ErrorCode::BadRequest),
            _ => ApiError::new(ErrorCode::Internal),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn codes_are_snake_case_and_stable() {
        for code in ErrorCode::ALL {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
            assert!(code.as_str().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
        let distinct: BTreeSet<ErrorCode> = ErrorCode::ALL.iter().copied().collect();
        assert_eq!(distinct.len(), ErrorCode::ALL.len(), "no code twice in ALL");
    }

    #[test]
    fn every_code_declares_its_text_and_a_known_status() {
        for code in ErrorCode::ALL {
            assert!(strum::EnumMessage::get_message(code).is_some(), "{code:?} names its text");
            let status = strum::EnumProperty::get_str(code, "status");
            assert!(status.is_none_or(|s| s.parse::<u16>().is_ok_and(|n| (400..600).contains(&n))), "{code:?}: {status:?}");
        }
        assert_eq!(ErrorCode::NotFound.http_status(), 404);
        assert_eq!(ErrorCode::EmailInvalid.http_status(), 422);
        assert_eq!(ErrorCode::DailyLikesUsed.locale_key(), "likes.limit_reached");
    }

    #[test]
    fn spec_json_shape_for_authentication_required() {
        let json = serde_json::to_string(&ApiError::new(ErrorCode::AuthenticationRequired)).unwrap();
        assert_eq!(json, r#"{"code":"authentication_required"}"#);
        assert_eq!(ErrorCode::AuthenticationRequired.http_status(), 403);
    }

    #[test]
    fn fields_and_arguments_travel() {
        let e = ApiError::field(Field::Password, ErrorCode::TooManyAttempts).with("minutes", 15);
        let back: ApiError = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(back, e);
        assert_eq!(back.arg_i64("minutes"), Some(15));
    }

    #[test]
    fn every_code_has_its_text_in_every_locale() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../locales");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let texts: BTreeMap<String, String> = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for code in ErrorCode::ALL {
                let text = texts.get(code.locale_key());
                assert!(text.is_some_and(|t| !t.trim().is_empty()), "{}: no text for {code:?} ({})", path.display(), code.locale_key());
            }
        }
    }

    #[test]
    fn transport_failures_become_codes() {
        use server_fn::error::{FromServerFnError, ServerFnErrorErr};
        assert_eq!(ApiError::from_server_fn_error(ServerFnErrorErr::Args("x".into())).code, ErrorCode::BadRequest);
        assert_eq!(ApiError::from_server_fn_error(ServerFnErrorErr::Request("offline".into())).code, ErrorCode::Internal);
    }
}
