//! Text messages (the direct-debit confirmation code). Like mail, the default outbox writes
//! files: one `.txt` per message under `DATA_DIR/sms/`, for development and tests; an SMS
//! gateway is another variant of [`SmsOutbox`].

use std::path::PathBuf;

use crate::error::AppError;

#[derive(Debug, Clone)]
pub enum SmsOutbox {
    /// Writes `{time}-{random}.txt` files (`To: +31…`, a blank line, the text) into this folder.
    Files(PathBuf),
}

impl SmsOutbox {
    pub async fn send(&self, to: &str, text: &str) -> Result<(), AppError> {
        match self {
            SmsOutbox::Files(dir) => {
                tokio::fs::create_dir_all(dir).await.map_err(|e| AppError::Internal(format!("sms folder: {e}")))?;
                let name = format!("{}-{}.txt", crate::seed::now_unix(), &crate::accounts::tokens::new_token()[..12]);
                tokio::fs::write(dir.join(name), format!("To: {to}\n\n{text}\n")).await.map_err(|e| AppError::Internal(format!("writing sms: {e}")))?;
                Ok(())
            }
        }
    }

    /// The texts sent to `to`, oldest first (file outbox only; for tests and development).
    pub fn sent_to(&self, to: &str) -> Vec<String> {
        let SmsOutbox::Files(dir) = self;
        let mut files: Vec<(std::time::SystemTime, String)> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, std::fs::read_to_string(e.path()).ok()?)))
            .filter(|(_, text)| text.starts_with(&format!("To: {to}\n")))
            .collect();
        files.sort_by_key(|(time, _)| *time);
        files.into_iter().map(|(_, text)| text).collect()
    }
}
