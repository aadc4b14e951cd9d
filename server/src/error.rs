//! The user-facing error type. Each variant has a stable snake_case code that `locales/`
//! translates as `error.{code}`. Internal details are logged, never sent to the browser.

use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("not found")]
    NotFound,
    #[error("forbidden origin")]
    ForbiddenOrigin,
    #[error("invalid input: {0}")]
    Invalid(&'static str),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration error: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    #[error("internal error: {0}")]
    Internal(String),
}

/// What the browser gets to see of an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicError {
    pub code: String,
}

impl AppError {
    pub fn code(&self) -> &'static str {
        match self {
            AppError::NotFound => "not_found",
            AppError::ForbiddenOrigin => "forbidden_origin",
            AppError::Invalid(code) => code,
            AppError::Database(_) | AppError::Migration(_) | AppError::Internal(_) => "internal",
        }
    }

    pub fn status(&self) -> http::StatusCode {
        match self {
            AppError::NotFound => http::StatusCode::NOT_FOUND,
            AppError::ForbiddenOrigin => http::StatusCode::FORBIDDEN,
            AppError::Invalid(_) => http::StatusCode::UNPROCESSABLE_ENTITY,
            _ => http::StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Logs internal causes and returns the public part.
    pub fn public(&self) -> PublicError {
        if self.code() == "internal" {
            tracing::error!(error = %self, "internal error");
        }
        PublicError { code: self.code().to_string() }
    }
}

impl axum::response::IntoResponse for AppError {
    fn into_response(self) -> axum::response::Response {
        let status = self.status();
        (status, axum::Json(self.public())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_details_are_not_public() {
        let err = AppError::Internal("disk /var/secret full".into());
        let public = serde_json::to_string(&err.public()).unwrap();
        assert_eq!(public, r#"{"code":"internal"}"#);
        assert_eq!(err.status(), http::StatusCode::INTERNAL_SERVER_ERROR);
    }
}
