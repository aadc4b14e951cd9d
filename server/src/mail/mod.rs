//! Outgoing mail: through SMTP when `VONK_SMTP_URL` is set, otherwise every mail is written as
//! an `.eml` file under `DATA_DIR/mail/` (development, tests and demos read them there).
//!
//! Every mail carries its own `Message-ID` and a `Date`, and a DKIM signature when a key is
//! configured (`VONK_DKIM_KEY_FILE`, [`dkim`]). Mails to members carry `List-Unsubscribe` with
//! a one-click endpoint (RFC 8058), so that a mail program's "unsubscribe" switches the
//! member's notification mails off.

use std::path::PathBuf;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::error::AppError;

pub mod dkim;
pub mod reports;
pub mod templates;

pub use dkim::Dkim;

/// A mail in the member's language, with a text and an HTML part.
#[derive(Debug, Clone)]
pub struct Mail {
    pub from_name: String,
    pub from_address: String,
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The member's one-click unsubscribe URL, if the mail goes to a member.
    pub unsubscribe: Option<String>,
}

/// Where mails go, and the key that signs them (DKIM) when one is configured.
#[derive(Clone, Debug)]
pub struct Outbox {
    transport: Transport,
    dkim: Option<std::sync::Arc<Dkim>>,
    /// The envelope sender (SMTP `MAIL FROM`, the `Return-Path`): where bounces go.
    bounce_address: Option<lettre::Address>,
}

#[derive(Clone)]
enum Transport {
    /// Writes `.eml` files into this folder.
    Files(PathBuf),
    /// Hands mails to an SMTP server (pooled connections, TLS by rustls).
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transport::Files(dir) => f.debug_tuple("Files").field(dir).finish(),
            // The transport holds the SMTP credentials: never print it.
            Transport::Smtp(_) => f.write_str("Smtp"),
        }
    }
}

impl Outbox {
    /// An outbox that writes `.eml` files into `dir` (development, tests, demos).
    pub fn files(dir: impl Into<PathBuf>) -> Outbox {
        Outbox { transport: Transport::Files(dir.into()), dkim: None, bounce_address: None }
    }

    /// The outbox the configuration asks for.
    pub fn from_config(smtp_url: Option<&str>, data_dir: &std::path::Path) -> Result<Outbox, AppError> {
        match smtp_url {
            None => Ok(Outbox::files(data_dir.join("mail"))),
            Some(url) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| AppError::Internal(format!("VONK_SMTP_URL: {e}")))?
                    .timeout(Some(std::time::Duration::from_secs(20)))
                    .build();
                Ok(Outbox { transport: Transport::Smtp(transport), dkim: None, bounce_address: None })
            }
        }
    }

    /// The outbox a node's configuration describes: its transport, DKIM key and bounce address.
    pub fn configured(config: &crate::config::Config) -> Result<Outbox, AppError> {
        Ok(Outbox::from_config(config.smtp_url.as_deref(), &config.data_dir)?.with_dkim(config.dkim.clone()).with_bounce_address(config.bounce_address.clone()))
    }

    /// Every mail is signed with this key (DKIM) for its sender's domain.
    pub fn with_dkim(mut self, dkim: Option<Dkim>) -> Outbox {
        self.dkim = dkim.map(std::sync::Arc::new);
        self
    }

    /// Bounces go to this address (the envelope sender) instead of the visible sender; a bounce
    /// mailbox there feeds `vonk mail-report`.
    pub fn with_bounce_address(mut self, address: Option<lettre::Address>) -> Outbox {
        self.bounce_address = address;
        self
    }

    pub async fn send(&self, mail: Mail) -> Result<(), AppError> {
        self.send_with_id(mail).await.map(|_| ())
    }

    /// Sends a mail and answers its `Message-ID` (a complaint about it quotes that id).
    pub async fn send_with_id(&self, mail: Mail) -> Result<String, AppError> {
        let message_id = new_message_id(&mail.from_address);
        let mut message = build_with_id(mail, &message_id)?;
        if let Some(dkim) = &self.dkim {
            dkim.sign(&mut message)?;
        }
        match &self.transport {
            Transport::Files(dir) => {
                tokio::fs::create_dir_all(dir).await.map_err(|e| AppError::Internal(format!("mail folder: {e}")))?;
                let name = format!("{}-{}.eml", crate::seed::now_unix(), &crate::accounts::tokens::new_token()[..12]);
                tokio::fs::write(dir.join(name), message.formatted()).await.map_err(|e| AppError::Internal(format!("writing mail: {e}")))?;
            }
            Transport::Smtp(transport) => {
                let result = match &self.bounce_address {
                    Some(bounce) => {
                        let envelope = lettre::address::Envelope::new(Some(bounce.clone()), message.envelope().to().to_vec())
                            .map_err(|e| AppError::Internal(format!("envelope: {e}")))?;
                        transport.send_raw(&envelope, &message.formatted()).await
                    }
                    None => transport.send(message).await,
                };
                result.map_err(|e| AppError::Internal(format!("smtp: {e}")))?;
            }
        }
        Ok(message_id)
    }
}

/// A new `Message-ID` in the sender's domain, angle brackets and all.
fn new_message_id(from_address: &str) -> String {
    let domain = from_address.rsplit_once('@').map_or("localhost", |(_, d)| d);
    format!("<{}@{domain}>", crate::accounts::tokens::new_token())
}

/// The MIME message: text and HTML alternatives, and the unsubscribe headers when given.
pub fn build_message(mail: Mail) -> Result<Message, AppError> {
    let message_id = new_message_id(&mail.from_address);
    build_with_id(mail, &message_id)
}

fn build_with_id(mail: Mail, message_id: &str) -> Result<Message, AppError> {
    let from: Mailbox = format!("{} <{}>", mail.from_name, mail.from_address).parse().map_err(|e| AppError::Internal(format!("bad sender: {e}")))?;
    let to: Mailbox = mail.to.parse().map_err(|e| AppError::Internal(format!("bad recipient: {e}")))?;
    // Our own Message-ID in the sender's domain (large mailbox providers refuse or junk mail
    // without one); lettre adds `Date`.
    let mut message = Message::builder()
        .message_id(Some(message_id.to_string()))
        .from(from)
        .to(to)
        .subject(mail.subject)
        .multipart(
            MultiPart::alternative()
                .singlepart(SinglePart::builder().header(ContentType::TEXT_PLAIN).body(mail.text))
                .singlepart(SinglePart::builder().header(ContentType::TEXT_HTML).body(mail.html)),
        )
        .map_err(|e| AppError::Internal(format!("cannot build mail: {e}")))?;
    if let Some(url) = mail.unsubscribe {
        let name = |n: &str| HeaderName::new_from_ascii(n.to_string()).expect("ascii header name");
        message.headers_mut().insert_raw(HeaderValue::new(name("List-Unsubscribe"), format!("<{url}>")));
        message.headers_mut().insert_raw(HeaderValue::new(name("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click".into()));
    }
    Ok(message)
}
