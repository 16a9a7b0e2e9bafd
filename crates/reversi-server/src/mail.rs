//! Mail out: the SMTP transport, the letters (in the reader's language, from the Fluent files'
//! `mail` part) and the links in them. The letters about play and the word to an old address
//! go through the database's outbox ([`crate::notify`]); what follows is about the two that
//! carry a secret link.
//!
//! A link always starts with the site's configured public address, never with a request's
//! `Host`: a reset requested with a forged `Host` must not mail the owner a link to another
//! site. Letters are sent in the background, so that whether an address belongs to an account
//! cannot be read from how long the answer took; a letter that cannot be delivered is logged
//! (its kind and error, not its address) and its link simply never arrives — asking again is
//! the remedy, and nothing a user acknowledged depends on it.

use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Mailbox, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use reversi_i18n::{Args as FluentArgs, Lang};
use std::time::Duration;

/// How long one delivery may take (connection, greeting and the whole exchange).
pub const SEND_TIMEOUT: Duration = Duration::from_secs(30);

/// Why the mail settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MailSetupError {
    /// The SMTP URL does not parse.
    #[error("the SMTP URL is not one of smtp://HOST:PORT, smtp://USER:PASSWORD@HOST:PORT?tls=required or smtps://USER:PASSWORD@HOST: {0}")]
    Url(String),
    /// The sender is not an address.
    #[error("the sender `{0}` is not an address such as `Reversi <noreply@example.org>`")]
    From(String),
    /// The public address is not an origin.
    #[error("the public URL `{0}` is not http:// or https:// and a host, with nothing after it")]
    PublicUrl(String),
}

/// A letter the site sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Letter {
    /// Confirm `email` as `name`'s address: follow `link`.
    Verify {
        /// The account's name.
        name: String,
        /// The address to confirm.
        email: String,
        /// The link that confirms it.
        link: String,
    },
    /// Set a new password for `name`: follow `link`.
    Reset {
        /// The account's name.
        name: String,
        /// The link to the form.
        link: String,
    },
    /// It is `name`'s move against `opponent` in a correspondence game: `link`.
    Turn {
        /// The account's name.
        name: String,
        /// The opponent's name.
        opponent: String,
        /// The game's page.
        link: String,
    },
    /// `challenger` challenges `name` to a correspondence game of `control`: `link` (the lobby).
    Challenge {
        /// The account's name.
        name: String,
        /// Who challenges.
        challenger: String,
        /// The time control (`3d`).
        control: String,
        /// Where to answer.
        link: String,
    },
    /// To the old address: the account's address became `email` (masked), or was removed
    /// (`email` empty).
    AddressChanged {
        /// The account's name.
        name: String,
        /// The new address, masked (`a…@example.org`), or empty when removed.
        email: String,
    },
}

impl Letter {
    /// The letter's kind, as logs name it.
    pub fn kind(&self) -> &'static str {
        match self {
            Letter::Verify { .. } => "verify",
            Letter::Reset { .. } => "reset",
            Letter::Turn { .. } => "turn",
            Letter::Challenge { .. } => "challenge",
            Letter::AddressChanged { .. } => "address-changed",
        }
    }

    /// The subject and the text in `lang`.
    pub fn render(&self, lang: Lang) -> (String, String) {
        let mut args = FluentArgs::new();
        let (subject, body) = match self {
            Letter::Verify { name, email, link } => {
                args.set("name", name.clone());
                args.set("email", email.clone());
                args.set("link", link.clone());
                ("mail-verify-subject", "mail-verify-body")
            }
            Letter::Reset { name, link } => {
                args.set("name", name.clone());
                args.set("link", link.clone());
                ("mail-reset-subject", "mail-reset-body")
            }
            Letter::Turn { name, opponent, link } => {
                args.set("name", name.clone());
                args.set("opponent", opponent.clone());
                args.set("link", link.clone());
                ("mail-turn-subject", "mail-turn-body")
            }
            Letter::Challenge {
                name,
                challenger,
                control,
                link,
            } => {
                args.set("name", name.clone());
                args.set("challenger", challenger.clone());
                args.set("control", control.clone());
                args.set("link", link.clone());
                ("mail-challenge-subject", "mail-challenge-body")
            }
            Letter::AddressChanged { name, email } => {
                args.set("name", name.clone());
                args.set("email", email.clone());
                if email.is_empty() {
                    ("mail-address-subject", "mail-address-removed-body")
                } else {
                    ("mail-address-subject", "mail-address-changed-body")
                }
            }
        };
        (
            reversi_i18n::format(lang, subject, Some(&args)),
            reversi_i18n::format(lang, body, Some(&args)),
        )
    }
}

/// The site's way of sending mail (cheap to clone).
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
    /// The SMTP URL with its password masked, for `Debug`.
    shown: String,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Mailer({} from {} for {})",
            self.shown, self.from, self.public_url
        )
    }
}

impl Mailer {
    /// A mailer through the SMTP server at `smtp_url` (`smtp://HOST:PORT` in plain text,
    /// `?tls=required` for STARTTLS, `smtps://` for TLS, with `USER:PASSWORD@` to sign in),
    /// sending as `from`, its links under `public_url` (`https://reversi.example.org`).
    pub fn new(smtp_url: &str, from: &str, public_url: &str) -> Result<Mailer, MailSetupError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url)
            .map_err(|e| MailSetupError::Url(e.to_string()))?
            .timeout(Some(SEND_TIMEOUT))
            .build();
        let from: Mailbox = from.parse().map_err(|_| MailSetupError::From(from.to_string()))?;
        let public = public_url.trim().trim_end_matches('/');
        let origin_ok = match public.split_once("://") {
            Some(("http" | "https", rest)) => !rest.is_empty() && !rest.contains(['/', '?', '#', '@', ' ']),
            _ => false,
        };
        if !origin_ok {
            return Err(MailSetupError::PublicUrl(public_url.to_string()));
        }
        Ok(Mailer {
            transport,
            from,
            public_url: public.to_string(),
            shown: crate::config::masked_url(smtp_url),
        })
    }

    /// The default sender for a site at `public_url`: `Reversi <noreply@HOST>`.
    pub fn default_from(public_url: &str) -> String {
        let host = public_url
            .split_once("://")
            .map_or(public_url, |(_, h)| h)
            .trim_end_matches('/');
        let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
        format!("Reversi <noreply@{host}>")
    }

    /// The absolute address of the site's page at `path` (`/reset/SECRET`).
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.public_url)
    }

    /// The message of `letter` to `to` in `lang`.
    pub fn message(&self, to: &str, letter: &Letter, lang: Lang) -> Result<Message, String> {
        let to: Mailbox = to.parse().map_err(|e| format!("recipient: {e}"))?;
        let (subject, text) = letter.render(lang);
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .singlepart(
                SinglePart::builder()
                    .header(ContentType::TEXT_PLAIN)
                    // Base64 whatever the language: a link is never cut by a soft line break.
                    .header(ContentTransferEncoding::Base64)
                    .body(text),
            )
            .map_err(|e| e.to_string())
    }

    /// Sends `letter` to `to` in `lang` now; the error says why it was not delivered.
    pub async fn deliver(&self, to: &str, letter: &Letter, lang: Lang) -> Result<(), String> {
        let message = self.message(to, letter, lang)?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Sends `letter` to `to` in `lang`, in the background.
    pub fn send(&self, to: &str, letter: Letter, lang: Lang) {
        let kind = letter.kind();
        let message = match self.message(to, &letter, lang) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(kind, "mail not sent: {e}");
                return;
            }
        };
        let transport = self.transport.clone();
        tokio::spawn(async move {
            match transport.send(message).await {
                Ok(_) => tracing::info!(kind, "mail sent"),
                Err(e) => tracing::warn!(kind, "mail not sent: {e}"),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_and_the_password_never_shown() {
        let m = Mailer::new(
            "smtp://user:secret@127.0.0.1:2525",
            "Reversi <noreply@reversi.test>",
            "https://reversi.test/",
        )
        .unwrap();
        let shown = format!("{m:?}");
        assert!(
            !shown.contains("secret") && shown.contains("user:****"),
            "{shown}"
        );
        assert_eq!(m.link("/reset/abc"), "https://reversi.test/reset/abc");
        assert!(matches!(
            Mailer::new("imap://x", "a@b.cd", "https://x.org"),
            Err(MailSetupError::Url(_))
        ));
        assert!(matches!(
            Mailer::new("smtp://127.0.0.1:25", "not an address", "https://x.org"),
            Err(MailSetupError::From(_))
        ));
        for bad in [
            "reversi.test",
            "https://reversi.test/path",
            "ftp://x.org",
            "https://",
        ] {
            assert!(
                matches!(
                    Mailer::new("smtp://127.0.0.1:25", "a@b.cd", bad),
                    Err(MailSetupError::PublicUrl(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(
            Mailer::default_from("https://reversi.example.org:8443"),
            "Reversi <noreply@reversi.example.org>"
        );
    }

    #[test]
    fn letters_carry_their_link_in_both_languages() {
        let letter = Letter::Reset {
            name: "alice".into(),
            link: "https://reversi.test/reset/SECRET".into(),
        };
        for lang in Lang::ALL {
            let (subject, text) = letter.render(lang);
            assert!(!subject.is_empty() && !subject.starts_with("mail-"), "{subject}");
            assert!(text.contains("https://reversi.test/reset/SECRET"), "{text}");
            assert!(text.contains("alice"), "{text}");
        }
        let m = Mailer::new(
            "smtp://127.0.0.1:25",
            "Reversi <noreply@reversi.test>",
            "https://reversi.test",
        )
        .unwrap();
        // A recipient that would add a header or a second address is refused.
        assert!(m.message("a@b.cd\r\nBcc: x@y.zz", &letter, Lang::En).is_err());
        let raw = String::from_utf8(
            m.message("alice@example.org", &letter, Lang::Ru)
                .unwrap()
                .formatted(),
        )
        .unwrap();
        assert!(raw.contains("Content-Transfer-Encoding: base64"), "{raw}");
        assert!(raw.contains("To: alice@example.org"), "{raw}");
    }
}
