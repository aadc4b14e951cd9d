//! One-tap sign-in links (`/{token}`, SPEC §2) in lifecycle mails: the member taps the mail's
//! button and is back in, on the page the mail was about.
//!
//! A link is single-purpose: bound to its member and to one page of the site, used once,
//! working for the site's `sign_in_link_hours`. Opening it only shows a page with one button
//! (mail scanners open links too, and use nothing up); the button signs in. Changing the
//! password, logging out everywhere, being blocked or deleting the account ends every link
//! still out. Staff, operators and members with two-step login never get a session from a
//! link alone: they land on the login page with the target kept.

use domain::security::SecurityEventKind;
use domain::site::SiteSettings;
use domain::ErrorCode;

use super::security::{record, Client};
use super::tokens::{self, Kind};
use super::{sessions, Accounts};
use crate::error::AppError;

/// What tapping a sign-in link gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignInLinkOutcome {
    /// A new session, and the page to open.
    Session { session: String, target: String },
    /// The link was right but does not sign this account in by itself (staff, two-step login):
    /// log in as usual, then open `target`.
    LogIn { target: String },
}

/// Whether `target` may be a link's page: a path of this site (never another site's address).
pub fn is_site_path(target: &str) -> bool {
    target.starts_with('/') && !target.starts_with("//") && !target.contains('\\') && target.len() <= 200 && !target.chars().any(char::is_control)
}

impl Accounts {
    /// A new sign-in link for a member to `target` (a path of the site), as the path to put
    /// behind the site's address: `/{token}`.
    pub async fn sign_in_link(&self, site: &SiteSettings, user_id: i64, target: &str) -> Result<String, AppError> {
        if !is_site_path(target) {
            return Err(AppError::Internal(format!("not a page of the site: {target}")));
        }
        let token = tokens::new_token();
        let hours = site.sign_in_link_hours.clamp(1, 168);
        let mut tx = self.db.begin().await?;
        tokens::insert(&mut tx, user_id, Kind::SignIn, &token, Some(target), self.clock.now(), hours * 3600).await?;
        tx.commit().await?;
        Ok(format!("/{token}"))
    }

    /// The first name of the member a link would sign in, while it works (the page shows it).
    /// Looks only: nothing is used up.
    pub async fn sign_in_link_name(&self, site_id: i64, token: &str) -> Result<Option<String>, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(None);
        }
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT p.name FROM account_tokens t JOIN users u ON u.id = t.user_id JOIN profiles p ON p.user_id = u.id \
             WHERE t.token_hash = $1 AND t.kind = $2 AND t.used_at IS NULL AND t.expires_at > $3 AND u.site_id = $4 AND u.status IN ($5, $6)",
        )
        .bind(tokens::hash(token))
        .bind(Kind::SignIn.as_str())
        .bind(self.clock.now())
        .bind(site_id)
        .bind(domain::account::UserStatus::Active.as_str())
        .bind(domain::account::UserStatus::NotConfirmed.as_str())
        .fetch_optional(self.db.pool())
        .await?;
        Ok(row.map(|(name,)| name))
    }

    /// The page a link leads to when it is `user_id`'s own and still works: the member who taps
    /// it is signed in already (a push opens it in the browser that holds the session), so it
    /// goes straight there, changing nothing and keeping the link. Looks only.
    pub async fn sign_in_link_target_for(&self, token: &str, user_id: i64) -> Result<Option<String>, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(None);
        }
        let row: Option<(Option<String>,)> =
            sqlx::query_as("SELECT payload FROM account_tokens WHERE token_hash = $1 AND kind = $2 AND user_id = $3 AND used_at IS NULL AND expires_at > $4")
                .bind(tokens::hash(token))
                .bind(Kind::SignIn.as_str())
                .bind(user_id)
                .bind(self.clock.now())
                .fetch_optional(self.db.pool())
                .await?;
        Ok(row.map(|(target,)| target.filter(|t| is_site_path(t)).unwrap_or_else(|| "/".into())))
    }

    /// Uses a sign-in link up (once, whoever taps first) and signs its member in, ending the
    /// session the browser had. Links of another site, expired, used or ended ones, and those
    /// of blocked or deleted accounts: `link_expired`.
    pub async fn sign_in_with_link(&self, site_id: i64, token: &str, previous_session: Option<&str>, client: &Client) -> Result<SignInLinkOutcome, AppError> {
        let (user_id, target) = self.consume_token(token, Kind::SignIn).await?;
        let target = target.filter(|t| is_site_path(t)).unwrap_or_else(|| "/".into());
        let member = self.member(user_id).await?.ok_or(ErrorCode::LinkExpired)?;
        if member.site_id != site_id || matches!(member.status, domain::account::UserStatus::Blocked | domain::account::UserStatus::Deleted) {
            return Err(ErrorCode::LinkExpired.into());
        }
        if member.is_staff() || member.two_step {
            return Ok(SignInLinkOutcome::LogIn { target });
        }
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        if let Some(old) = previous_session {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(tokens::hash(old)).execute(&mut *tx).await?;
        }
        let session = sessions::start(&mut tx, user_id, now, client).await?;
        record(&mut *tx, user_id, SecurityEventKind::SignInLink, client, now).await?;
        tx.commit().await?;
        Ok(SignInLinkOutcome::Session { session, target })
    }
}

#[cfg(test)]
mod tests {
    use super::is_site_path;

    #[test]
    fn only_paths_of_the_site_are_targets() {
        assert!(is_site_path("/chats/12"));
        assert!(is_site_path("/credits?offer=leaving"));
        for bad in ["https://evil.example/", "//evil.example", "/\\evil.example", "chats", "/a\nb", ""] {
            assert!(!is_site_path(bad), "{bad:?}");
        }
    }
}
