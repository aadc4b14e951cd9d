//! Account security as the member sees it: what happened to their account (security events),
//! which devices hold a session, and the rules of two-step codes.

use serde::{Deserialize, Serialize};

/// What happened to an account. Stored by name in `security_events.kind`; the settings page
/// shows `security.event.{name}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecurityEventKind {
    Login,
    LoginFailed,
    Locked,
    PasswordChanged,
    PasswordReset,
    EmailChangeRequested,
    EmailChanged,
    EmailChangeUndone,
    SessionEnded,
    OtherSessionsEnded,
    TwoStepOn,
    TwoStepOff,
    RecoveryCodeUsed,
    AccountDeleted,
    /// Signed in with the one-tap link of a mail.
    SignInLink,
}

impl SecurityEventKind {
    pub const ALL: [SecurityEventKind; 15] = [
        SecurityEventKind::Login,
        SecurityEventKind::LoginFailed,
        SecurityEventKind::Locked,
        SecurityEventKind::PasswordChanged,
        SecurityEventKind::PasswordReset,
        SecurityEventKind::EmailChangeRequested,
        SecurityEventKind::EmailChanged,
        SecurityEventKind::EmailChangeUndone,
        SecurityEventKind::SessionEnded,
        SecurityEventKind::OtherSessionsEnded,
        SecurityEventKind::TwoStepOn,
        SecurityEventKind::TwoStepOff,
        SecurityEventKind::RecoveryCodeUsed,
        SecurityEventKind::AccountDeleted,
        SecurityEventKind::SignInLink,
    ];

    pub fn as_str(self) -> &'static str {
        use SecurityEventKind::*;
        match self {
            Login => "login",
            LoginFailed => "login_failed",
            Locked => "locked",
            PasswordChanged => "password_changed",
            PasswordReset => "password_reset",
            EmailChangeRequested => "email_change_requested",
            EmailChanged => "email_changed",
            EmailChangeUndone => "email_change_undone",
            SessionEnded => "session_ended",
            OtherSessionsEnded => "other_sessions_ended",
            TwoStepOn => "two_step_on",
            TwoStepOff => "two_step_off",
            RecoveryCodeUsed => "recovery_code_used",
            AccountDeleted => "account_deleted",
            SignInLink => "sign_in_link",
        }
    }

    pub fn parse(s: &str) -> Option<SecurityEventKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Events a member should look at twice (shown with a warning mark).
    pub fn is_warning(self) -> bool {
        use SecurityEventKind::*;
        matches!(self, LoginFailed | Locked | EmailChangeUndone | RecoveryCodeUsed)
    }

    /// The catalogue key of its description.
    pub fn message_key(self) -> String {
        format!("security.event.{}", self.as_str())
    }
}

/// A browser and a system named from a user agent, for "Chrome on Android" in the session list.
/// Only well-known names; anything else is `None` and shown as an unknown device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Device {
    pub browser: Option<&'static str>,
    pub system: Option<&'static str>,
}

impl Device {
    /// Reads the user agent. The order matters: Edge and Opera say "Chrome" too, Chrome says
    /// "Safari", Android says "Linux", iPadOS may say "Macintosh".
    pub fn from_user_agent(ua: &str) -> Device {
        let browser = [
            ("Edg/", "Edge"),
            ("EdgA/", "Edge"),
            ("OPR/", "Opera"),
            ("SamsungBrowser/", "Samsung Internet"),
            ("Firefox/", "Firefox"),
            ("FxiOS/", "Firefox"),
            ("CriOS/", "Chrome"),
            ("Chromium/", "Chromium"),
            ("Chrome/", "Chrome"),
            ("Safari/", "Safari"),
        ]
        .into_iter()
        .find(|(mark, _)| ua.contains(mark))
        .map(|(_, name)| name);
        let system = [
            ("iPhone", "iPhone"),
            ("iPad", "iPad"),
            ("Android", "Android"),
            ("Windows", "Windows"),
            ("CrOS", "ChromeOS"),
            ("Mac OS X", "macOS"),
            ("Macintosh", "macOS"),
            ("Linux", "Linux"),
        ]
        .into_iter()
        .find(|(mark, _)| ua.contains(mark))
        .map(|(_, name)| name);
        Device { browser, system }
    }

    /// "Chrome · Android", or `None` when nothing is known.
    pub fn label(&self) -> Option<String> {
        match (self.browser, self.system) {
            (Some(b), Some(s)) => Some(format!("{b} · {s}")),
            (Some(one), None) | (None, Some(one)) => Some(one.to_string()),
            (None, None) => None,
        }
    }
}

/// How long an authenticator code lasts, and how many steps either side of now still count
/// (a phone's clock may be a little off).
pub const TOTP_STEP_SECS: u64 = 30;
pub const TOTP_SKEW_STEPS: u8 = 1;
/// How many recovery codes a member gets when switching two-step login on.
pub const RECOVERY_CODES: usize = 10;

/// What a member types at the second step, normalised: six digits (spaces allowed) are an
/// authenticator code; ten letters and digits (a dash allowed) are a recovery code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecondFactor {
    Totp(String),
    Recovery(String),
}

impl SecondFactor {
    pub fn parse(raw: &str) -> Option<SecondFactor> {
        let compact: String = raw.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
        if compact.len() == 6 && compact.bytes().all(|b| b.is_ascii_digit()) {
            return Some(SecondFactor::Totp(compact));
        }
        if compact.len() == 10 && compact.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Some(SecondFactor::Recovery(compact.to_ascii_lowercase()));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn event_kinds_round_trip() {
        for kind in SecurityEventKind::ALL {
            assert_eq!(SecurityEventKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(SecurityEventKind::parse("password"), None);
    }

    #[test]
    fn devices_are_named_from_common_user_agents() {
        let cases = [
            ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Chrome · Android"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari · iPhone",
            ),
            ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge · Windows"),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0", "Firefox · macOS"),
            ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", "Chrome · Linux"),
        ];
        for (ua, label) in cases {
            assert_eq!(Device::from_user_agent(ua).label().as_deref(), Some(label), "{ua}");
        }
        assert_eq!(Device::from_user_agent("curl/8.5").label(), None);
    }

    #[test]
    fn second_factors_are_recognised() {
        assert_eq!(SecondFactor::parse(" 123 456 "), Some(SecondFactor::Totp("123456".into())));
        assert_eq!(SecondFactor::parse("ABCDE-12345"), Some(SecondFactor::Recovery("abcde12345".into())));
        assert_eq!(SecondFactor::parse("12345"), None);
        assert_eq!(SecondFactor::parse("abc"), None);
    }

    proptest! {
        #[test]
        fn any_user_agent_gives_a_label_or_none_without_panicking(ua in ".{0,300}") {
            let device = Device::from_user_agent(&ua);
            if let Some(label) = device.label() {
                prop_assert!(!label.is_empty());
            }
        }

        #[test]
        fn second_factor_parse_never_accepts_other_shapes(raw in "[0-9a-zA-Z -]{0,20}") {
            match SecondFactor::parse(&raw) {
                Some(SecondFactor::Totp(code)) => prop_assert!(code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit())),
                Some(SecondFactor::Recovery(code)) => prop_assert!(code.len() == 10),
                None => {}
            }
        }
    }
}
