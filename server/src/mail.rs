//! Outgoing mail. Without SMTP settings every mail is written as an `.eml` file under
//! `DATA_DIR/mail/` (development, tests and demos read them there).

use std::path::PathBuf;

use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::Message;

use crate::error::AppError;

/// A mail in the member's language, with a text and an HTML part.
#[derive(Debug, Clone)]
pub struct Mail {
    pub from_name: String,
    pub from_address: String,
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

#[derive(Debug, Clone)]
pub enum Outbox {
    /// Writes `.eml` files into this folder.
    Files(PathBuf),
}

impl Outbox {
    pub async fn send(&self, mail: Mail) -> Result<(), AppError> {
        let from: Mailbox = format!("{} <{}>", mail.from_name, mail.from_address).parse().map_err(|e| AppError::Internal(format!("bad sender: {e}")))?;
        let to: Mailbox = mail.to.parse().map_err(|e| AppError::Internal(format!("bad recipient: {e}")))?;
        let message = Message::builder()
            .from(from)
            .to(to)
            .subject(mail.subject)
            .multipart(
                MultiPart::alternative()
                    .singlepart(SinglePart::builder().header(ContentType::TEXT_PLAIN).body(mail.text))
                    .singlepart(SinglePart::builder().header(ContentType::TEXT_HTML).body(mail.html)),
            )
            .map_err(|e| AppError::Internal(format!("cannot build mail: {e}")))?;
        match self {
            Outbox::Files(dir) => {
                tokio::fs::create_dir_all(dir).await.map_err(|e| AppError::Internal(format!("mail folder: {e}")))?;
                let name = format!("{}-{}.eml", crate::seed::now_unix(), &crate::accounts::tokens::new_token()[..12]);
                tokio::fs::write(dir.join(name), message.formatted()).await.map_err(|e| AppError::Internal(format!("writing mail: {e}")))?;
            }
        }
        Ok(())
    }
}

/// Escapes text for an HTML mail body.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
