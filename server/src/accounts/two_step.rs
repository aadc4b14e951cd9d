//! Two-step login with an authenticator app (RFC 6238 codes), for members who want it: a code
//! from the phone after the password, or one of ten one-time recovery codes.
//!
//! Switching it on or off needs the password (someone holding only a session cannot lock the
//! member out). Each code works once: the last time step used is kept, and a step is taken in
//! one conditional statement, so two parallel logins with one code cannot both pass. Wrong
//! codes count in the password lockout.

use domain::account::UserStatus;
use domain::rows::Flag;
use domain::security::{SecondFactor, SecurityEventKind, RECOVERY_CODES, TOTP_SKEW_STEPS, TOTP_STEP_SECS};
use domain::Field;
use domain::{ApiError, ErrorCode};
use totp_rs::{Builder, Secret, Totp};

use super::login::LOCKOUT;
use super::security::{record, Client};
use super::tokens::{self, Kind};
use super::Accounts;
use crate::error::AppError;

/// What the set-up page shows while switching on: the secret for typing in, the same as an
/// `otpauth://` link and its QR code (SVG), and the recovery codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwoStepSetup {
    pub secret: String,
    pub url: String,
    pub qr_svg: String,
    pub recovery_codes: Vec<String>,
}

fn totp(secret: &str, issuer: &str, account: &str) -> Result<Totp, AppError> {
    let bytes = Secret::try_from_base32(secret).map_err(|e| AppError::Internal(format!("stored two-step secret unreadable: {e:?}")))?;
    Builder::new()
        .with_secret(bytes.to_vec())
        .with_skew(u16::from(TOTP_SKEW_STEPS))
        .with_step_duration(TOTP_STEP_SECS)
        .with_account_name(account.replace(':', ""))
        .with_issuer(Some(issuer.replace(':', "")))
        .build()
        .map_err(|e| AppError::Internal(format!("two-step secret refused: {e:?}")))
}

/// Whether two-step login is on, and the recovery codes left.
#[derive(sqlx::FromRow)]
struct StatusRow {
    #[sqlx(try_from = "Flag")]
    enabled: bool,
    codes_left: i64,
}

/// A secret and recovery codes being set up; `email` only where the query asks.
#[derive(sqlx::FromRow)]
struct PendingRow {
    #[sqlx(default)]
    email: String,
    totp_pending_secret: Option<String>,
    totp_pending_codes: Option<String>,
}

/// The member behind a second-step token.
#[derive(sqlx::FromRow)]
struct SecondStepRow {
    id: i64,
    totp_secret: Option<String>,
    locked_until: Option<i64>,
    status: String,
}

fn wrong_code() -> AppError {
    ApiError::field(Field::Code, ErrorCode::TwoStepCodeInvalid).into()
}

/// A recovery code as shown: ten characters from an alphabet without look-alikes, in two halves.
fn new_recovery_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 10];
    getrandom::getrandom(&mut bytes).expect("the operating system's random source");
    let code: String = bytes.iter().map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char).collect();
    format!("{}-{}", &code[..5], &code[5..])
}

impl Accounts {
    /// Whether two-step login is on, and how many recovery codes are left.
    pub async fn two_step_status(&self, user_id: i64) -> Result<(bool, i64), AppError> {
        let row = sqlx::query_as::<_, StatusRow>("SELECT totp_secret IS NOT NULL AS enabled, (SELECT COUNT(*) FROM recovery_codes r WHERE r.user_id = u.id AND r.used_at IS NULL) AS codes_left FROM users u WHERE u.id = $1")
            .bind(user_id)
            .fetch_one(self.db.pool())
            .await?;
        Ok((row.enabled, row.codes_left))
    }

    /// Starts switching two-step login on: a new secret and new recovery codes, kept aside
    /// until a code from the app proves the member has the secret. Asking again starts over.
    pub async fn two_step_begin(&self, user_id: i64) -> Result<(), AppError> {
        let mut bytes = [0u8; 20];
        getrandom::getrandom(&mut bytes).expect("the operating system's random source");
        let secret = Secret::from(bytes.to_vec()).to_base32();
        let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
        sqlx::query("UPDATE users SET totp_pending_secret = $1, totp_pending_codes = $2 WHERE id = $3 AND totp_secret IS NULL")
            .bind(&secret)
            .bind(codes.join(" "))
            .bind(user_id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// What the set-up page shows (after [`Accounts::two_step_begin`]): the secret, its
    /// `otpauth://` link and QR code, and the recovery codes to keep. `None` when nothing is
    /// being set up.
    pub async fn two_step_setup(&self, user_id: i64, issuer: &str) -> Result<Option<TwoStepSetup>, AppError> {
        let row = sqlx::query_as::<_, PendingRow>("SELECT email, totp_pending_secret, totp_pending_codes FROM users WHERE id = $1 AND totp_secret IS NULL")
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?;
        let Some(PendingRow { email, totp_pending_secret: Some(secret), totp_pending_codes: Some(codes) }) = row else { return Ok(None) };
        let url = totp(&secret, issuer, &email)?.to_url().map_err(|e| AppError::Internal(format!("otpauth link: {e:?}")))?;
        let qr = qrcode::QrCode::new(url.as_bytes()).map_err(|e| AppError::Internal(format!("QR code: {e}")))?;
        let svg = qr.render::<qrcode::render::svg::Color>().min_dimensions(200, 200).quiet_zone(true).build();
        // Inline in the page: the SVG element itself, without the XML prolog.
        let qr_svg = svg.find("<svg").map(|at| svg[at..].to_string()).unwrap_or(svg);
        Ok(Some(TwoStepSetup { secret, url, qr_svg, recovery_codes: codes.split(' ').map(str::to_string).collect() }))
    }

    /// Switches two-step login on with the password and a code from the app for the secret of
    /// [`Accounts::two_step_begin`]; the recovery codes shown with it start to count.
    pub async fn two_step_enable(&self, user_id: i64, password: &str, code: &str, client: &Client) -> Result<(), AppError> {
        self.check_own_password(user_id, password, ApiError::field(Field::Password, ErrorCode::PasswordWrong), client).await?;
        let row = sqlx::query_as::<_, PendingRow>("SELECT totp_pending_secret, totp_pending_codes FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(self.db.pool())
            .await?;
        let pending = row.totp_pending_secret.ok_or_else(wrong_code)?;
        let Some(SecondFactor::Totp(code)) = SecondFactor::parse(code) else {
            return Err(wrong_code());
        };
        let step = totp(&pending, "-", "-")?.check(&code, self.clock.now().max(0) as u64).ok_or_else(wrong_code)?;
        let codes: Vec<String> = row.totp_pending_codes.unwrap_or_default().split(' ').filter(|c| !c.is_empty()).map(str::to_string).collect();
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let done = sqlx::query("UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_pending_codes = NULL, totp_last_step = $1 WHERE id = $2 AND totp_pending_secret = $3")
            .bind(step as i64)
            .bind(user_id)
            .bind(&pending)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            return Err(wrong_code());
        }
        sqlx::query("DELETE FROM recovery_codes WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
        for code in &codes {
            sqlx::query("INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)")
                .bind(user_id)
                .bind(tokens::hash(&code.replace('-', "")))
                .execute(&mut *tx)
                .await?;
        }
        record(&mut *tx, user_id, SecurityEventKind::TwoStepOn, client, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Switches two-step login off (with the password); the recovery codes go too. Not for an
    /// account with a staff role: staff work with it on (`two_step_required`).
    pub async fn two_step_disable(&self, user_id: i64, password: &str, client: &Client) -> Result<(), AppError> {
        self.check_own_password(user_id, password, ApiError::field(Field::Password, ErrorCode::PasswordWrong), client).await?;
        let mut tx = self.db.begin().await?;
        let done = sqlx::query("UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, totp_pending_codes = NULL WHERE id = $1 AND staff_roles = 0")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(ErrorCode::TwoStepRequired.into());
        }
        sqlx::query("DELETE FROM recovery_codes WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
        record(&mut *tx, user_id, SecurityEventKind::TwoStepOff, client, self.clock.now()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The second step of a login: the token from [`super::LoginOutcome::SecondStep`] and a code
    /// from the app or a recovery code. Right: a new session (and the token is used up). Wrong:
    /// counts in the lockout; the token stays for another try until it expires.
    pub async fn second_step(&self, token: &str, code: &str, previous_session: Option<&str>, client: &Client) -> Result<String, AppError> {
        if !tokens::is_well_formed(token) {
            return Err(ErrorCode::LinkExpired.into());
        }
        let now = self.clock.now();
        let row = sqlx::query_as::<_, SecondStepRow>(
            "SELECT u.id, u.totp_secret, u.locked_until, u.status FROM account_tokens t JOIN users u ON u.id = t.user_id \
             WHERE t.token_hash = $1 AND t.kind = 'two_step' AND t.used_at IS NULL AND t.expires_at > $2",
        )
        .bind(tokens::hash(token))
        .bind(now)
        .fetch_optional(self.db.pool())
        .await?
        .ok_or(ErrorCode::LinkExpired)?;
        let user_id = row.id;
        if let Some(minutes) = LOCKOUT.minutes_left(row.locked_until, now) {
            return Err(ApiError::new(ErrorCode::TooManyAttempts).with("minutes", minutes).into());
        }
        // Blocked or deleted since the password was checked.
        if matches!(UserStatus::parse(&row.status), Some(UserStatus::Blocked | UserStatus::Deleted)) {
            return Err(ErrorCode::LoginFailed.into());
        }
        let accepted = match (SecondFactor::parse(code), row.totp_secret) {
            (Some(SecondFactor::Totp(code)), Some(secret)) => match totp(&secret, "-", "-")?.check(&code, now.max(0) as u64) {
                // The step is taken once: a replayed code (or a parallel login with it) fails.
                Some(step) => {
                    sqlx::query("UPDATE users SET totp_last_step = $1 WHERE id = $2 AND totp_last_step < $1")
                        .bind(step as i64)
                        .bind(user_id)
                        .execute(self.db.pool())
                        .await?
                        .rows_affected()
                        == 1
                }
                None => false,
            }
            .then_some(SecurityEventKind::Login),
            (Some(SecondFactor::Recovery(code)), Some(_)) => {
                (sqlx::query("UPDATE recovery_codes SET used_at = $1 WHERE user_id = $2 AND code_hash = $3 AND used_at IS NULL")
                    .bind(now)
                    .bind(user_id)
                    .bind(tokens::hash(&code))
                    .execute(self.db.pool())
                    .await?
                    .rows_affected()
                    == 1)
                    .then_some(SecurityEventKind::RecoveryCodeUsed)
            }
            // Two-step login was switched off meanwhile: the password was right, so was this.
            (_, None) => Some(SecurityEventKind::Login),
            (None, Some(_)) => None,
        };
        let Some(event) = accepted else {
            return Err(self.count_failure(user_id, now, client).await?.unwrap_or_else(wrong_code));
        };
        self.consume_token(token, Kind::TwoStep).await?;
        self.finish_login(user_id, previous_session, client, now, event).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovery_codes_are_ten_characters_in_two_halves() {
        let code = new_recovery_code();
        assert_eq!(code.len(), 11);
        assert!(matches!(SecondFactor::parse(&code), Some(SecondFactor::Recovery(c)) if c.len() == 10));
        assert_ne!(new_recovery_code(), code);
    }
}
