//! The error of every service: either a refusal the member is told about (a public
//! [`ApiError`] from `domain`) or an internal failure whose cause is logged and never sent.
//!
//! Services return `Result<T, AppError>`; the boundary (a server function or one of the few HTTP
//! handlers) turns it into the public error with [`AppError::into_public`], which is where it is
//! logged, once.

use domain::{ApiError, ErrorCode};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A rule said no: the member sees the code's text. Not a failure of ours.
    #[error("refused: {0}")]
    Refused(ApiError),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration error: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<ApiError> for AppError {
    fn from(error: ApiError) -> Self {
        AppError::Refused(error)
    }
}

impl From<ErrorCode> for AppError {
    fn from(code: ErrorCode) -> Self {
        AppError::Refused(ApiError::new(code))
    }
}

/// A form with several wrong fields: the member is told about the first.
impl From<Vec<ApiError>> for AppError {
    fn from(errors: Vec<ApiError>) -> Self {
        match errors.into_iter().next() {
            Some(first) => AppError::Refused(first),
            None => AppError::Internal("a validation failed without saying why".into()),
        }
    }
}

impl AppError {
    /// The public code (internal failures are all `internal`).
    pub fn code(&self) -> ErrorCode {
        match self {
            AppError::Refused(e) => e.code,
            _ => ErrorCode::Internal,
        }
    }

    /// The refusal, if this is one.
    pub fn refusal(&self) -> Option<&ApiError> {
        match self {
            AppError::Refused(e) => Some(e),
            _ => None,
        }
    }

    /// What the browser may see. Logs the error: internal failures with their cause as errors,
    /// refusals at debug level. Call it once, where the error leaves the server.
    pub fn into_public(self) -> ApiError {
        match self {
            AppError::Refused(e) => {
                tracing::debug!(code = e.code.as_str(), "refused");
                e
            }
            internal => {
                tracing::error!(error = %internal, "internal error");
                ApiError::new(ErrorCode::Internal)
            }
        }
    }

    /// The HTTP status for this error (one mapping, in `domain`).
    pub fn status(&self) -> http::StatusCode {
        http::StatusCode::from_u16(self.code().http_status()).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR)
    }
}

/// The answer of an HTTP handler (not a server function) to a JSON client: the status and
/// `{"code":…}`.
impl axum::response::IntoResponse for AppError {
    fn into_response(self) -> axum::response::Response {
        let status = self.status();
        (status, axum::Json(self.into_public())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_details_are_not_public() {
        let err = AppError::Internal("disk /var/secret full".into());
        assert_eq!(err.status(), http::StatusCode::INTERNAL_SERVER_ERROR);
        let public = serde_json::to_string(&err.into_public()).unwrap();
        assert_eq!(public, r#"{"code":"internal"}"#);
    }

    #[test]
    fn refusals_keep_their_code_field_and_arguments() {
        let err: AppError = ApiError::new(ErrorCode::TooManyAttempts).with("minutes", 15).into();
        assert_eq!(err.status(), http::StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(err.into_public().arg_i64("minutes"), Some(15));
        let first: AppError = vec![ApiError::new(ErrorCode::EmailInvalid), ApiError::new(ErrorCode::NameChars)].into();
        assert_eq!(first.code(), ErrorCode::EmailInvalid);
    }
}
