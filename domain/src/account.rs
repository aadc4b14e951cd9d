//! Account rules: signup validation (SPEC §5), the password policy, signup permission by the
//! site's policy (SPEC §6) and the login lockout. Run in the browser for instant feedback and
//! on the server as the check that counts.

use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ErrorCode, Field};
use crate::site::SignupPolicy;

pub const NAME_MIN_CHARS: usize = 2;
pub const NAME_MAX_CHARS: usize = 30;
/// Password policy: at least 8 characters (up to 128), not the email or profile name, not a
/// well-known password. Length beats composition rules (NIST SP 800-63B).
pub const PASSWORD_MIN_CHARS: usize = 8;
pub const PASSWORD_MAX_CHARS: usize = 128;
pub const SIGNUP_MESSAGE_MAX_CHARS: usize = 500;
pub const EMAIL_MAX_CHARS: usize = 254;
/// Longest reason staff give for blocking or unblocking a member.
pub const STAFF_REASON_MAX_CHARS: usize = 500;

const COMMON_PASSWORDS: [&str; 24] = [
    "12345678",
    "123456789",
    "1234567890",
    "password",
    "password1",
    "wachtwoord",
    "qwertyuiop",
    "qwerty123",
    "11111111",
    "00000000",
    "iloveyou",
    "abcd1234",
    "passwort",
    "motdepasse",
    "contraseña",
    "12341234",
    "87654321",
    "sunshine",
    "princess",
    "football",
    "welkom01",
    "welcome1",
    "letmein1",
    "admin123",
];

/// Normalises and checks an email address; returns it trimmed and lower-cased.
pub fn validate_email(raw: &str) -> Result<String, ApiError> {
    let email = raw.trim().to_lowercase();
    let invalid = || ApiError::field(Field::Email, ErrorCode::EmailInvalid);
    if email.is_empty() || email.chars().count() > EMAIL_MAX_CHARS || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid());
    }
    let (local, domain) = email.rsplit_once('@').ok_or_else(invalid)?;
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.contains('@')
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.chars().all(|c| c.is_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.len() <= 63 && !l.starts_with('-') && !l.ends_with('-') && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
        && labels.last().is_some_and(|tld| tld.chars().count() >= 2 && !tld.chars().all(|c| c.is_ascii_digit()));
    if local_ok && domain_ok {
        Ok(email)
    } else {
        Err(invalid())
    }
}

/// Checks a profile name against the email it signs up with (SPEC §5).
pub fn validate_name(raw: &str, email: &str) -> Result<String, ApiError> {
    let name = raw.trim().to_string();
    if name.starts_with('@') {
        return Err(ApiError::field(Field::Name, ErrorCode::NameStartsWithAt));
    }
    // The spec's rule: the name must differ from the email. A name holding an @ anywhere
    // reads as an address to other members, so it counts as the email too.
    if name.eq_ignore_ascii_case(email.trim()) || name.contains('@') {
        return Err(ApiError::field(Field::Name, ErrorCode::NameEqualsEmail));
    }
    let count = name.chars().count();
    if !(NAME_MIN_CHARS..=NAME_MAX_CHARS).contains(&count) {
        return Err(ApiError::field(Field::Name, ErrorCode::NameLength).with("min", NAME_MIN_CHARS).with("max", NAME_MAX_CHARS));
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '_' || c == '-' || c == '.') {
        return Err(ApiError::field(Field::Name, ErrorCode::NameChars));
    }
    Ok(name)
}

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Ymd {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

impl Ymd {
    /// Parses `YYYY-MM-DD` and rejects impossible dates such as 2001-02-29.
    pub fn parse(text: &str) -> Option<Ymd> {
        let mut parts = text.trim().split('-');
        let year: i32 = parts.next()?.parse().ok()?;
        let month: u32 = parts.next()?.parse().ok()?;
        let day: u32 = parts.next()?.parse().ok()?;
        if parts.next().is_some() || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Ymd { year, month, day })
    }

    pub fn from_unix(secs: i64) -> Ymd {
        let d = crate::date::from_unix(secs);
        Ymd { year: d.year as i32, month: d.month, day: d.day }
    }

    /// Whole years from `self` (a birth date) to `today`.
    pub fn age_on(self, today: Ymd) -> i32 {
        let mut age = today.year - self.year;
        if (today.month, today.day) < (self.month, self.day) {
            age -= 1;
        }
        age
    }

    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

/// Checks a date of birth: required, a real date, not in the future or absurdly old, and the
/// site's minimum age reached ('Vul uw geboortedatum in ({min_age}+ jaar)').
pub fn validate_date_of_birth(raw: &str, today: Ymd, min_age: u32) -> Result<Ymd, ApiError> {
    let required = || ApiError::field(Field::DateOfBirth, ErrorCode::DateOfBirthRequired).with("min_age", min_age);
    if raw.trim().is_empty() {
        return Err(required());
    }
    let dob = Ymd::parse(raw).ok_or_else(|| ApiError::field(Field::DateOfBirth, ErrorCode::DateOfBirthInvalid))?;
    let age = dob.age_on(today);
    if dob > today || age > 120 {
        return Err(ApiError::field(Field::DateOfBirth, ErrorCode::DateOfBirthInvalid));
    }
    if age < min_age as i32 {
        return Err(required());
    }
    Ok(dob)
}

/// The password policy (see [`PASSWORD_MIN_CHARS`]).
pub fn validate_password(password: &str, email: &str, name: &str) -> Result<(), ApiError> {
    let count = password.chars().count();
    if count < PASSWORD_MIN_CHARS {
        return Err(ApiError::field(Field::Password, ErrorCode::PasswordTooShort).with("min", PASSWORD_MIN_CHARS));
    }
    if count > PASSWORD_MAX_CHARS {
        return Err(ApiError::field(Field::Password, ErrorCode::PasswordTooLong).with("max", PASSWORD_MAX_CHARS));
    }
    let lower = password.to_lowercase();
    let same_as_identity =
        (!email.trim().is_empty() && lower == email.trim().to_lowercase()) || (!name.trim().is_empty() && lower == name.trim().to_lowercase());
    let one_char = password.chars().all(|c| password.starts_with(c));
    if same_as_identity || one_char || COMMON_PASSWORDS.contains(&lower.as_str()) {
        return Err(ApiError::field(Field::Password, ErrorCode::PasswordTooCommon));
    }
    Ok(())
}

/// The two new passwords of a reset must match (SPEC §5).
pub fn validate_password_repeat(password: &str, repeat: &str) -> Result<(), ApiError> {
    if password == repeat {
        Ok(())
    } else {
        Err(ApiError::field(Field::PasswordRepeat, ErrorCode::PasswordsDiffer))
    }
}

/// The signup form as the visitor fills it in (SPEC §3).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SignupForm {
    pub email: String,
    pub name: String,
    pub password: String,
    /// `YYYY-MM-DD`
    pub date_of_birth: String,
    pub signup_message: String,
}

/// A signup that passed every rule, normalised.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidSignup {
    pub email: String,
    pub name: String,
    pub password: String,
    pub date_of_birth: Ymd,
    pub signup_message: Option<String>,
}

/// Every rule on the whole form; all errors at once, one per field.
pub fn validate_signup(form: &SignupForm, today: Ymd, min_age: u32) -> Result<ValidSignup, Vec<ApiError>> {
    let mut errors = Vec::new();
    let email = validate_email(&form.email).map_err(|e| errors.push(e)).ok();
    let name = validate_name(&form.name, &form.email).map_err(|e| errors.push(e)).ok();
    let _ = validate_password(&form.password, &form.email, &form.name).map_err(|e| errors.push(e));
    let dob = validate_date_of_birth(&form.date_of_birth, today, min_age).map_err(|e| errors.push(e)).ok();
    let message = form.signup_message.trim();
    if message.chars().count() > SIGNUP_MESSAGE_MAX_CHARS {
        errors.push(ApiError::field(Field::SignupMessage, ErrorCode::MessageTooLong).with("max", SIGNUP_MESSAGE_MAX_CHARS));
    }
    match (email, name, dob) {
        (Some(email), Some(name), Some(date_of_birth)) if errors.is_empty() => {
            Ok(ValidSignup { email, name, password: form.password.clone(), date_of_birth, signup_message: (!message.is_empty()).then(|| message.to_string()) })
        }
        _ => Err(errors),
    }
}

/// Where a visitor came from (SPEC §3 tracking data), kept with the new member.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tracking {
    pub network: Option<String>,
    pub r#ref: Option<String>,
    pub sub1: Option<String>,
    pub sub2: Option<String>,
    pub sub3: Option<String>,
}

impl Tracking {
    /// The parameters of a landing URL that carry it.
    pub const KEYS: [&'static str; 5] = ["network", "ref", "sub1", "sub2", "sub3"];
    /// Longest value kept, in characters.
    pub const MAX_CHARS: usize = 100;

    /// A traffic source is present when a network or ref is known.
    pub fn has_source(&self) -> bool {
        [&self.network, &self.r#ref].iter().any(|v| v.as_deref().is_some_and(|s| !s.trim().is_empty()))
    }

    pub fn is_empty(&self) -> bool {
        self.fields().iter().all(|(_, v)| v.is_none())
    }

    fn fields(&self) -> [(&'static str, &Option<String>); 5] {
        [("network", &self.network), ("ref", &self.r#ref), ("sub1", &self.sub1), ("sub2", &self.sub2), ("sub3", &self.sub3)]
    }

    /// From decoded key/value pairs (a query string's, a form's): known keys only, each value
    /// trimmed, without control characters, at most [`Tracking::MAX_CHARS`]; empty values are absent.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Tracking {
        let mut t = Tracking::default();
        for (k, v) in pairs {
            let kept: String = v.chars().filter(|c| !c.is_control()).collect();
            let cut: String = kept.trim().chars().take(Self::MAX_CHARS).collect();
            let v = cut.trim_end().to_string();
            let slot = match k {
                "network" => &mut t.network,
                "ref" => &mut t.r#ref,
                "sub1" => &mut t.sub1,
                "sub2" => &mut t.sub2,
                "sub3" => &mut t.sub3,
                _ => continue,
            };
            if !v.is_empty() && slot.is_none() {
                *slot = Some(v);
            }
        }
        t
    }

    /// As a query string (`network=a&sub1=b`, percent-encoded): the tracking cookie's value.
    pub fn to_query(&self) -> String {
        self.fields().iter().filter_map(|(k, v)| v.as_deref().map(|v| format!("{k}={}", percent_encode(v)))).collect::<Vec<_>>().join("&")
    }

    /// Reads [`Tracking::to_query`] (or any query string) back.
    pub fn from_query(query: &str) -> Tracking {
        let pairs: Vec<(String, String)> =
            query.trim_start_matches('?').split('&').filter_map(|p| p.split_once('=')).map(|(k, v)| (percent_decode(k), percent_decode(v))).collect();
        Tracking::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }
}

/// Everything but unreserved URL characters as `%XX` (UTF-8 bytes).
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `%XX` and `+` (a space, in forms) decoded; broken escapes stay as written; invalid UTF-8 is replaced.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    out.push(high * 16 + low);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Whether the site lets this visitor sign up (SPEC §6); `invited`: with a valid invitation.
pub fn may_sign_up(policy: SignupPolicy, tracking: &Tracking, invited: bool) -> Result<(), ErrorCode> {
    match policy {
        _ if invited => Ok(()),
        SignupPolicy::All => Ok(()),
        SignupPolicy::TrafficSourceOnly if tracking.has_source() => Ok(()),
        SignupPolicy::TrafficSourceOnly => Err(ErrorCode::SignupTrafficSourceRequired),
        SignupPolicy::InviteOnly => Err(ErrorCode::SignupInviteOnly),
    }
}

/// Login lockout: after `max_failures` wrong passwords in a row the account is locked for
/// `lock_secs`. The counter lives in the database so every server node sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockoutPolicy {
    pub max_failures: u32,
    pub lock_secs: i64,
}

impl Default for LockoutPolicy {
    fn default() -> Self {
        LockoutPolicy::DEFAULT
    }
}

impl LockoutPolicy {
    /// Five wrong passwords in a row lock the account for 15 minutes.
    pub const DEFAULT: LockoutPolicy = LockoutPolicy { max_failures: 5, lock_secs: 15 * 60 };

    /// Minutes left (rounded up) while locked, for 'account voor {minutes} min geblokkeerd'.
    pub fn minutes_left(&self, locked_until: Option<i64>, now: i64) -> Option<i64> {
        locked_until.filter(|until| *until > now).map(|until| (until - now + 59) / 60)
    }

    /// After a wrong password: the new failure count and, when it reaches the limit, the lock end.
    pub fn after_failure(&self, failures: u32, now: i64) -> (u32, Option<i64>) {
        let failures = failures.saturating_add(1);
        if failures >= self.max_failures {
            (0, Some(now + self.lock_secs))
        } else {
            (failures, None)
        }
    }
}

/// Defines a closed set of values stored as snake_case text in the database.
macro_rules! stored_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($(#[$vdoc])* $variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The text stored in the database.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }
    };
}

stored_enum!(
    /// `users.status` (SPEC §3, §4).
    UserStatus {
        /// Signed up, email address not confirmed yet.
        NotConfirmed => "not_confirmed",
        Active => "active",
        /// Blocked by staff: cannot log in.
        Blocked => "blocked",
        /// Deleted by the member; can be reactivated for [`crate::constants::REACTIVATION_DAYS`] days.
        Deleted => "deleted",
    }
);

stored_enum!(
    /// `profiles.status` and `photos.status` (SPEC §3).
    ProfileStatus {
        /// Out of sight (an unconfirmed member's profile, a rejected photo).
        Disabled => "disabled",
        Active => "active",
        /// Waiting for staff review.
        UnderInspection => "under_inspection",
    }
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const TODAY: Ymd = Ymd { year: 2026, month: 11, day: 22 };

    fn key<T: std::fmt::Debug>(r: Result<T, ApiError>) -> String {
        r.unwrap_err().locale_key().to_string()
    }

    #[test]
    fn emails() {
        assert_eq!(validate_email("  Anna@Example.NL ").unwrap(), "anna@example.nl");
        for bad in ["", "anna", "anna@", "@example.nl", "an na@example.nl", "anna@example", "anna@exa_mple.nl", "anna..b@example.nl", "anna@-x.nl", "a@b.1"] {
            assert_eq!(key(validate_email(bad)), "validation.email_invalid", "{bad}");
        }
    }

    #[test]
    fn names_follow_the_spec() {
        assert_eq!(key(validate_name("@anna", "anna@example.nl")), "validation.name_starts_with_at");
        assert_eq!(key(validate_name("Anna@Example.nl", "anna@example.nl")), "validation.name_equals_email");
        assert_eq!(key(validate_name("x", "anna@example.nl")), "validation.name_length");
        assert_eq!(key(validate_name("anna<script>", "a@b.nl")), "validation.name_chars");
        assert_eq!(validate_name("  Anna B. ", "anna@example.nl").unwrap(), "Anna B.");
        assert_eq!(validate_name("Zoë_88", "z@b.nl").unwrap(), "Zoë_88");
    }

    #[test]
    fn date_of_birth_rules() {
        let err = validate_date_of_birth("", TODAY, 18).unwrap_err();
        assert_eq!(err.locale_key(), "validation.date_of_birth_required");
        assert_eq!(err.arg_i64("min_age"), Some(18));
        assert_eq!(key(validate_date_of_birth("2001-02-29", TODAY, 18)), "validation.date_of_birth_invalid");
        assert_eq!(key(validate_date_of_birth("2030-01-01", TODAY, 18)), "validation.date_of_birth_invalid");
        assert_eq!(key(validate_date_of_birth("1800-01-01", TODAY, 18)), "validation.date_of_birth_invalid");
        assert_eq!(key(validate_date_of_birth("2008-11-23", TODAY, 18)), "validation.date_of_birth_required");
        assert!(validate_date_of_birth("2008-11-22", TODAY, 18).is_ok(), "eighteen today");
        assert_eq!(key(validate_date_of_birth("2005-01-01", TODAY, 25)), "validation.date_of_birth_required");
    }

    #[test]
    fn password_policy() {
        assert_eq!(key(validate_password("kort", "a@b.nl", "Anna")), "validation.password_too_short");
        assert_eq!(key(validate_password(&"x".repeat(129), "a@b.nl", "Anna")), "validation.password_too_long");
        assert_eq!(key(validate_password("Wachtwoord", "a@b.nl", "Anna")), "validation.password_too_common");
        assert_eq!(key(validate_password("anna@example.nl", "anna@example.nl", "Anna")), "validation.password_too_common");
        assert_eq!(key(validate_password("aaaaaaaaaa", "a@b.nl", "Anna")), "validation.password_too_common");
        assert!(validate_password("rode kater op het dak", "a@b.nl", "Anna").is_ok());
        assert_eq!(key(validate_password_repeat("abcdefgh1", "abcdefgh2")), "validation.passwords_differ");
    }

    #[test]
    fn whole_form_reports_every_field() {
        let form = SignupForm { email: "nope".into(), name: "@x".into(), password: "1".into(), date_of_birth: "".into(), signup_message: String::new() };
        let errors = validate_signup(&form, TODAY, 18).unwrap_err();
        let fields: Vec<Option<Field>> = errors.iter().map(|e| e.field).collect();
        assert_eq!(fields, [Field::Email, Field::Name, Field::Password, Field::DateOfBirth].map(Some));
        let ok = SignupForm {
            email: "Anna@Example.nl".into(),
            name: "Anna".into(),
            password: "rode kater op het dak".into(),
            date_of_birth: "1990-05-17".into(),
            signup_message: " hoi ".into(),
        };
        let valid = validate_signup(&ok, TODAY, 18).unwrap();
        assert_eq!(valid.email, "anna@example.nl");
        assert_eq!(valid.signup_message.as_deref(), Some("hoi"));
    }

    #[test]
    fn signup_policy() {
        let none = Tracking::default();
        let source = Tracking { network: Some("adnet".into()), ..Tracking::default() };
        assert!(may_sign_up(SignupPolicy::All, &none, false).is_ok());
        assert_eq!(may_sign_up(SignupPolicy::TrafficSourceOnly, &none, false), Err(ErrorCode::SignupTrafficSourceRequired));
        assert!(may_sign_up(SignupPolicy::TrafficSourceOnly, &source, false).is_ok());
        assert_eq!(may_sign_up(SignupPolicy::InviteOnly, &source, false), Err(ErrorCode::SignupInviteOnly));
        assert_eq!(may_sign_up(SignupPolicy::InviteOnly, &none, true), Ok(()));
    }

    #[test]
    fn lockout_after_five_failures() {
        let policy = LockoutPolicy::default();
        let mut failures = 0;
        for _ in 0..4 {
            let (f, lock) = policy.after_failure(failures, 1000);
            assert!(lock.is_none());
            failures = f;
        }
        let (f, lock) = policy.after_failure(failures, 1000);
        assert_eq!((f, lock), (0, Some(1000 + 900)));
        assert_eq!(policy.minutes_left(lock, 1000), Some(15));
        assert_eq!(policy.minutes_left(lock, 1000 + 899), Some(1));
        assert_eq!(policy.minutes_left(lock, 1000 + 900), None);
    }

    #[test]
    fn tracking_from_a_landing_url() {
        assert!(Tracking::from_pairs([("network", "\0 \u{e}")]).is_empty());
        let long = format!("a{}b", " ".repeat(120));
        assert_eq!(Tracking::from_pairs([("sub1", long.as_str())]).sub1.as_deref(), Some("a"));
        let t = Tracking::from_query("?network=ad%20net&ref=r1&sub1=&sub2=a+b&other=x&network=second");
        assert_eq!(t, Tracking { network: Some("ad net".into()), r#ref: Some("r1".into()), sub1: None, sub2: Some("a b".into()), sub3: None });
        assert_eq!(Tracking::from_query(&t.to_query()), t);
        assert!(Tracking::from_query("page=2").is_empty());
        assert_eq!(Tracking::from_query(&format!("sub3={}", "x".repeat(300))).sub3.map(|s| s.len()), Some(Tracking::MAX_CHARS));
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }

    proptest! {
        #[test]
        fn tracking_survives_its_cookie(network in ".{0,120}", sub1 in "[a-z%&=;, ]{0,30}") {
            let t = Tracking::from_pairs([("network", network.as_str()), ("sub1", sub1.as_str())]);
            let cookie = t.to_query();
            prop_assert!(!cookie.contains([';', ',', ' ', '"', '\\']), "{}", cookie);
            prop_assert_eq!(Tracking::from_query(&cookie), t);
        }

        #[test]
        fn valid_emails_are_normalised_and_idempotent(local in "[a-z0-9]{1,20}", domain in "[a-z]{1,20}", tld in "[a-z]{2,6}") {
            let email = format!("{local}@{domain}.{tld}");
            let once = validate_email(&email.to_uppercase()).unwrap();
            prop_assert_eq!(&once, &email);
            prop_assert_eq!(validate_email(&once).unwrap(), once);
        }

        #[test]
        fn validators_never_panic(s in ".{0,80}", t in ".{0,40}") {
            let _ = validate_email(&s);
            let _ = validate_name(&s, &t);
            let _ = validate_password(&s, &t, &t);
            let _ = validate_date_of_birth(&s, TODAY, 18);
        }

        #[test]
        fn age_matches_calendar(y in 1900i32..2026, m in 1u32..13, d in 1u32..29) {
            let dob = Ymd { year: y, month: m, day: d };
            let age = dob.age_on(TODAY);
            prop_assert!(age >= TODAY.year - y - 1 && age <= TODAY.year - y);
        }

        #[test]
        fn minutes_left_is_positive_while_locked(now in 0i64..1_000_000, lock in 1i64..100_000) {
            let policy = LockoutPolicy::default();
            let m = policy.minutes_left(Some(now + lock), now).unwrap();
            prop_assert!(m >= 1 && m * 60 >= lock && (m - 1) * 60 < lock);
        }
    }

    #[test]
    fn stored_values_round_trip() {
        for s in UserStatus::ALL {
            assert_eq!(UserStatus::parse(s.as_str()), Some(*s));
        }
        for s in ProfileStatus::ALL {
            assert_eq!(ProfileStatus::parse(s.as_str()), Some(*s));
        }
        assert_eq!(UserStatus::parse("gone"), None);
    }
}
