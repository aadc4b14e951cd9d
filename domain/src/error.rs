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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // Requests
    /// SPEC §8: a member-only call without a session.
    AuthenticationRequired,
    /// A member without the role or right for this action.
    Forbidden,
    /// A state-changing request from another site.
    ForbiddenOrigin,
    NotFound,
    /// The per-address rate limit.
    TooManyRequests,
    /// A request whose fields could not be read at all (not a browser's form).
    BadRequest,
    /// Anything that went wrong on our side; the cause is only logged.
    Internal,
    UnsupportedLanguage,

    // Accounts
    LoginFailed,
    /// 'Te veel foute pogingen, account voor {minutes} min geblokkeerd.'
    TooManyAttempts,
    LinkExpired,
    EmailNotFound,
    TooManyResets,
    TooManyMails,
    AccountNotDeletedYet,
    SignupInviteOnly,
    SignupTrafficSourceRequired,
    ActivationFailed,
    EmailTaken,

    // Form fields
    EmailInvalid,
    NameEqualsEmail,
    NameStartsWithAt,
    NameLength,
    NameChars,
    DateOfBirthRequired,
    DateOfBirthInvalid,
    PasswordTooShort,
    PasswordTooLong,
    PasswordTooCommon,
    PasswordsDiffer,
    OldPasswordWrong,
    NewEmailInvalid,
    MessageTooLong,
    MessageEmpty,
    /// A chat message holds a contact detail the site refuses.
    ContactDetailsRefused,
    GenderRequired,
    SexualityRequired,
    CountryRequired,
    RegionRequired,
    CityRequired,
    CityInvalid,
    ChoiceInvalid,
    TooManyInterests,
    AboutTooLong,
    NoneChosen,
    DiscountNotFound,
    DiscountUsed,
    SmsCodeInvalid,
    IbanInvalid,
    PhoneInvalid,

    // Members and likes
    /// SPEC §8: user blocked by another member.
    BlockedByMember,
    /// Another operator is answering this conversation ('{name}').
    ClaimedByOther,
    /// The swipe game's likes for today are used up.
    DailyLikesUsed,

    // Photos
    PhotoLimitReached,
    PhotoTooLarge,
    PhotoNotAnImage,
    PhotoUnreadable,
    PhotoTooManyPixels,
    PhotoNoFile,

    // Credits
    InsufficientCredits,
    PremiumOnly,

    // Payments
    DirectDebitBlocked,
    DirectDebitLimit,
    MethodUnavailable,
    /// After a chargeback: card and direct-debit payments wait until staff lift the block.
    PaymentsBlocked,
    /// A payment that cannot be refunded (not paid, or refunded already).
    NotRefundable,
    /// A refund of nothing or of more than is left of the payment (`{max}`, formatted).
    RefundAmountInvalid,
    /// Direct debit (and, when the site asks it, a first card payment) before the member
    /// confirmed their address.
    AddressNotConfirmed,
    // Account security
    PasswordWrong,
    TwoStepCodeInvalid,
    InvisibleCannotLike,
    // Complaints
    /// A complaint without the complainant's name.
    NameRequired,
    /// A complaint's text shorter or longer than allowed (`{min}`, `{max}`).
    ComplaintLength,
    /// A staff block or unblock without a reason (`{max}`).
    ReasonRequired,
    // Staff settings (`{setting}` names the setting)
    /// A number outside `{min}`..=`{max}`.
    OutOfRange,
    /// Money typed as something other than digits with one decimal mark and at most two
    /// decimals (`domain::money`).
    AmountInvalid,
    /// A text longer than `{max}` characters.
    TextTooLong,
    /// An empty text that must be filled in.
    Required,
    /// Not a `#rrggbb` colour.
    ColourInvalid,
    /// A discount code not of `{min}`–`{max}` letters, digits, `-` or `_`.
    CodeInvalid,
    /// A discount code the site already has.
    CodeTaken,
    /// Not a host name a site can answer on.
    DomainInvalid,
    /// A domain another site already answers on.
    DomainTaken,
}

impl ErrorCode {
    /// Every code, for the tests that check translations and statuses.
    pub const ALL: [ErrorCode; 83] = {
        use ErrorCode::*;
        [
            AuthenticationRequired,
            Forbidden,
            ForbiddenOrigin,
            NotFound,
            TooManyRequests,
            BadRequest,
            Internal,
            UnsupportedLanguage,
            LoginFailed,
            TooManyAttempts,
            LinkExpired,
            EmailNotFound,
            TooManyResets,
            TooManyMails,
            AccountNotDeletedYet,
            SignupInviteOnly,
            SignupTrafficSourceRequired,
            ActivationFailed,
            EmailTaken,
            EmailInvalid,
            NameEqualsEmail,
            NameStartsWithAt,
            NameLength,
            NameChars,
            DateOfBirthRequired,
            DateOfBirthInvalid,
            PasswordTooShort,
            PasswordTooLong,
            PasswordTooCommon,
            PasswordsDiffer,
            OldPasswordWrong,
            NewEmailInvalid,
            MessageTooLong,
            MessageEmpty,
            ContactDetailsRefused,
            GenderRequired,
            SexualityRequired,
            CountryRequired,
            RegionRequired,
            CityRequired,
            CityInvalid,
            ChoiceInvalid,
            TooManyInterests,
            AboutTooLong,
            NoneChosen,
            DiscountNotFound,
            DiscountUsed,
            SmsCodeInvalid,
            BlockedByMember,
            ClaimedByOther,
            DailyLikesUsed,
            PhotoLimitReached,
            PhotoTooLarge,
            PhotoNotAnImage,
            PhotoUnreadable,
            PhotoTooManyPixels,
            PhotoNoFile,
            InsufficientCredits,
            PremiumOnly,
            IbanInvalid,
            PhoneInvalid,
            DirectDebitBlocked,
            DirectDebitLimit,
            MethodUnavailable,
            PaymentsBlocked,
            NotRefundable,
            RefundAmountInvalid,
            AddressNotConfirmed,
            PasswordWrong,
            TwoStepCodeInvalid,
            InvisibleCannotLike,
            NameRequired,
            ComplaintLength,
            ReasonRequired,
            OutOfRange,
            AmountInvalid,
            TextTooLong,
            Required,
            ColourInvalid,
            CodeInvalid,
            CodeTaken,
            DomainInvalid,
            DomainTaken,
        ]
    };

    /// The public code, as JSON carries it.
    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            AuthenticationRequired => "authentication_required",
            Forbidden => "forbidden",
            ForbiddenOrigin => "forbidden_origin",
            NotFound => "not_found",
            TooManyRequests => "too_many_requests",
            BadRequest => "bad_request",
            Internal => "internal",
            UnsupportedLanguage => "unsupported_language",
            LoginFailed => "login_failed",
            TooManyAttempts => "too_many_attempts",
            LinkExpired => "link_expired",
            EmailNotFound => "email_not_found",
            TooManyResets => "too_many_resets",
            TooManyMails => "too_many_mails",
            AccountNotDeletedYet => "account_not_deleted_yet",
            SignupInviteOnly => "signup_invite_only",
            SignupTrafficSourceRequired => "signup_traffic_source_required",
            ActivationFailed => "activation_failed",
            EmailTaken => "email_taken",
            EmailInvalid => "email_invalid",
            NameEqualsEmail => "name_equals_email",
            NameStartsWithAt => "name_starts_with_at",
            NameLength => "name_length",
            NameChars => "name_chars",
            DateOfBirthRequired => "date_of_birth_required",
            DateOfBirthInvalid => "date_of_birth_invalid",
            PasswordTooShort => "password_too_short",
            PasswordTooLong => "password_too_long",
            PasswordTooCommon => "password_too_common",
            PasswordsDiffer => "passwords_differ",
            OldPasswordWrong => "old_password_wrong",
            NewEmailInvalid => "new_email_invalid",
            MessageTooLong => "message_too_long",
            MessageEmpty => "message_empty",
            ContactDetailsRefused => "contact_details_refused",
            GenderRequired => "gender_required",
            SexualityRequired => "sexuality_required",
            CountryRequired => "country_required",
            RegionRequired => "region_required",
            CityRequired => "city_required",
            CityInvalid => "city_invalid",
            ChoiceInvalid => "choice_invalid",
            TooManyInterests => "too_many_interests",
            AboutTooLong => "about_too_long",
            NoneChosen => "none_chosen",
            DiscountNotFound => "discount_not_found",
            DiscountUsed => "discount_used",
            SmsCodeInvalid => "sms_code_invalid",
            IbanInvalid => "iban_invalid",
            PhoneInvalid => "phone_invalid",
            DirectDebitBlocked => "direct_debit_blocked",
            DirectDebitLimit => "direct_debit_limit",
            MethodUnavailable => "method_unavailable",
            PaymentsBlocked => "payments_blocked",
            NotRefundable => "not_refundable",
            RefundAmountInvalid => "refund_amount_invalid",
            AddressNotConfirmed => "address_not_confirmed",
            PasswordWrong => "password_wrong",
            TwoStepCodeInvalid => "two_step_code_invalid",
            InvisibleCannotLike => "invisible_cannot_like",
            NameRequired => "name_required",
            ComplaintLength => "complaint_length",
            ReasonRequired => "reason_required",
            OutOfRange => "out_of_range",
            AmountInvalid => "amount_invalid",
            TextTooLong => "text_too_long",
            Required => "required",
            ColourInvalid => "colour_invalid",
            CodeInvalid => "code_invalid",
            CodeTaken => "code_taken",
            DomainInvalid => "domain_invalid",
            DomainTaken => "domain_taken",
            BlockedByMember => "blocked_by_member",
            ClaimedByOther => "claimed_by_other",
            DailyLikesUsed => "daily_likes_used",
            PhotoLimitReached => "photo_limit_reached",
            PhotoTooLarge => "photo_too_large",
            PhotoNotAnImage => "photo_not_an_image",
            PhotoUnreadable => "photo_unreadable",
            PhotoTooManyPixels => "photo_too_many_pixels",
            PhotoNoFile => "photo_no_file",
            InsufficientCredits => "insufficient_credits",
            PremiumOnly => "premium_only",
        }
    }

    /// The key of the text in `locales/` (present in all eleven files; tested).
    pub fn locale_key(self) -> &'static str {
        use ErrorCode::*;
        match self {
            AuthenticationRequired => "error.authentication_required",
            Forbidden => "error.forbidden",
            ForbiddenOrigin => "error.forbidden_origin",
            NotFound => "error.not_found",
            TooManyRequests => "error.too_many_requests",
            BadRequest | Internal => "error.generic",
            UnsupportedLanguage => "error.unsupported_language",
            LoginFailed => "error.login_failed",
            TooManyAttempts => "error.too_many_attempts",
            LinkExpired => "error.link_expired",
            EmailNotFound => "error.email_not_found",
            TooManyResets => "error.too_many_resets",
            TooManyMails => "error.too_many_mails",
            AccountNotDeletedYet => "error.account_not_deleted_yet",
            SignupInviteOnly => "error.signup_invite_only",
            SignupTrafficSourceRequired => "error.signup_traffic_source_required",
            ActivationFailed => "error.activation_failed",
            EmailTaken => "validation.email_taken",
            EmailInvalid => "validation.email_invalid",
            NameEqualsEmail => "validation.name_equals_email",
            NameStartsWithAt => "validation.name_starts_with_at",
            NameLength => "validation.name_length",
            NameChars => "validation.name_chars",
            DateOfBirthRequired => "validation.date_of_birth_required",
            DateOfBirthInvalid => "validation.date_of_birth_invalid",
            PasswordTooShort => "validation.password_too_short",
            PasswordTooLong => "validation.password_too_long",
            PasswordTooCommon => "validation.password_too_common",
            PasswordsDiffer => "validation.passwords_differ",
            OldPasswordWrong => "validation.old_password_wrong",
            NewEmailInvalid => "validation.new_email_invalid",
            MessageTooLong => "validation.message_too_long",
            MessageEmpty => "validation.message_empty",
            ContactDetailsRefused => "validation.contact_details_refused",
            GenderRequired => "validation.gender_required",
            SexualityRequired => "validation.sexuality_required",
            CountryRequired => "validation.country_required",
            RegionRequired => "validation.region_required",
            CityRequired => "validation.city_required",
            CityInvalid => "validation.city_invalid",
            ChoiceInvalid => "validation.choice_invalid",
            TooManyInterests => "validation.too_many_interests",
            AboutTooLong => "validation.about_too_long",
            NoneChosen => "validation.none_chosen",
            DiscountNotFound => "validation.discount_not_found",
            DiscountUsed => "validation.discount_used",
            SmsCodeInvalid => "validation.sms_code_invalid",
            IbanInvalid => "validation.iban_invalid",
            PhoneInvalid => "validation.phone_invalid",
            DirectDebitBlocked => "error.direct_debit_blocked",
            DirectDebitLimit => "error.direct_debit_limit",
            MethodUnavailable => "error.method_unavailable",
            PaymentsBlocked => "error.payments_blocked",
            NotRefundable => "error.not_refundable",
            RefundAmountInvalid => "error.refund_amount_invalid",
            AddressNotConfirmed => "error.address_not_confirmed",
            PasswordWrong => "validation.password_wrong",
            TwoStepCodeInvalid => "validation.two_step_code_invalid",
            InvisibleCannotLike => "error.invisible_cannot_like",
            NameRequired => "validation.name_required",
            ComplaintLength => "validation.complaint_length",
            ReasonRequired => "validation.reason_required",
            OutOfRange => "validation.out_of_range",
            AmountInvalid => "validation.amount_invalid",
            TextTooLong => "validation.text_too_long",
            Required => "validation.required",
            ColourInvalid => "validation.colour_invalid",
            CodeInvalid => "validation.code_invalid",
            CodeTaken => "validation.code_taken",
            DomainInvalid => "validation.domain_invalid",
            DomainTaken => "validation.domain_taken",
            BlockedByMember => "error.blocked_by_member",
            ClaimedByOther => "error.claimed_by_other",
            DailyLikesUsed => "likes.limit_reached",
            PhotoLimitReached => "photo.limit_reached",
            PhotoTooLarge => "photo.too_large",
            PhotoNotAnImage => "photo.not_an_image",
            PhotoUnreadable => "photo.unreadable",
            PhotoTooManyPixels => "photo.too_many_pixels",
            PhotoNoFile => "photo.no_file",
            InsufficientCredits => "error.insufficient_credits",
            PremiumOnly => "error.premium_only",
        }
    }

    /// The HTTP status of an answer carrying this code (JSON clients; forms get a redirect).
    pub fn http_status(self) -> u16 {
        use ErrorCode::*;
        match self {
            AuthenticationRequired
            | Forbidden
            | ForbiddenOrigin
            | BlockedByMember
            | PremiumOnly
            | DirectDebitBlocked
            | PaymentsBlocked
            | AddressNotConfirmed
            | InvisibleCannotLike => 403,
            NotFound => 404,
            ClaimedByOther => 409,
            LoginFailed => 401,
            InsufficientCredits => 402,
            PhotoTooLarge => 413,
            TooManyRequests | TooManyAttempts | TooManyResets | TooManyMails | DailyLikesUsed => 429,
            BadRequest => 400,
            Internal => 500,
            _ => 422,
        }
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
        let distinct: BTreeSet<ErrorCode> = ErrorCode::ALL.into_iter().collect();
        assert_eq!(distinct.len(), ErrorCode::ALL.len(), "no code twice in ALL");
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
