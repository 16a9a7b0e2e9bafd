//! E-mail addresses as the site takes them: what an address may be, and the one form it is
//! stored and compared in.
//!
//! An address is `local@domain`, at most 254 characters (RFC 5321's path limit less its angle
//! brackets), the local part at most 64. The check is deliberately narrower than RFC 5322's
//! grammar — no quoted local parts, comments or IP-literal domains — because every address here
//! is one a person types and the site will mail: printable ASCII in the local part (no spaces,
//! no `"(),:;<>[\]`), and a domain of dot-separated labels of letters, digits and hyphens
//! (an internationalised domain in its `xn--` form), with at least one dot. Nothing here proves
//! the mailbox exists: only the link mailed to it does.
//!
//! Two addresses are the same when their [`normalize`]d forms are equal: the whole address in
//! lower case. Domains are case-insensitive by definition; local parts are in principle not,
//! but no mail system in use treats `Alice@` and `alice@` as two people, and comparing them as
//! one keeps one person from holding two accounts by case alone.

/// The longest address, characters.
pub const MAX_CHARS: usize = 254;
/// The longest local part (before the `@`), characters.
pub const LOCAL_MAX: usize = 64;

/// Why an address is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EmailError {
    /// Empty, or longer than [`MAX_CHARS`].
    #[error("an e-mail address has 3 to {MAX_CHARS} characters")]
    Length,
    /// No `@`, or more than one.
    #[error("an e-mail address has one `@` between a name and a domain")]
    At,
    /// A local part that is empty, too long, or holds a character that is not allowed.
    #[error("the part before the `@` may hold 1 to {LOCAL_MAX} letters, digits and `.!#$%&'*+/=?^_`{{|}}~-`, and no dot at either end or two in a row")]
    Local,
    /// A domain that is not dot-separated labels of letters, digits and hyphens.
    #[error("the part after the `@` is a domain name such as example.org")]
    Domain,
}

impl EmailError {
    /// A stable code for the interface's translations (every one is `email-invalid`: the page
    /// says what an address looks like, the message says which part is wrong).
    pub fn code(&self) -> &'static str {
        "email-invalid"
    }
}

/// The form an address is stored and compared in: trimmed, in lower case.
pub fn normalize(address: &str) -> String {
    address.trim().to_ascii_lowercase()
}

/// Checks an address as typed (surrounding spaces are ignored); the [`normalize`]d form.
pub fn check(address: &str) -> Result<String, EmailError> {
    let a = address.trim();
    if a.len() < 3 || a.chars().count() > MAX_CHARS {
        return Err(EmailError::Length);
    }
    let mut parts = a.split('@');
    let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(EmailError::At);
    };
    let local_ok = !local.is_empty()
        && local.len() <= LOCAL_MAX
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~.".contains(&b));
    if !local_ok {
        return Err(EmailError::Local);
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && domain.len() <= 253
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
        // A top-level domain is never all digits (that would be an IP address written short).
        && !labels[labels.len() - 1].bytes().all(|b| b.is_ascii_digit());
    if !domain_ok {
        return Err(EmailError::Domain);
    }
    Ok(normalize(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn addresses_people_type_pass_in_lower_case() {
        for (a, n) in [
            ("alice@example.org", "alice@example.org"),
            (
                "  Alice.Smith+reversi@Mail.Example.CO.uk ",
                "alice.smith+reversi@mail.example.co.uk",
            ),
            ("o'brien@xn--80ak6aa92e.com", "o'brien@xn--80ak6aa92e.com"),
            ("a@b.cd", "a@b.cd"),
        ] {
            assert_eq!(check(a), Ok(n.to_string()), "{a}");
        }
    }

    #[test]
    fn each_wrong_part_is_named() {
        for (a, e) in [
            ("", EmailError::Length),
            ("ab", EmailError::Length),
            ("alice.example.org", EmailError::At),
            ("a@b@example.org", EmailError::At),
            ("@example.org", EmailError::Local),
            (".alice@example.org", EmailError::Local),
            ("al..ice@example.org", EmailError::Local),
            ("al ice@example.org", EmailError::Local),
            ("al<ice>@example.org", EmailError::Local),
            ("алиса@example.org", EmailError::Local),
            ("alice@localhost", EmailError::Domain),
            ("alice@example..org", EmailError::Domain),
            ("alice@-example.org", EmailError::Domain),
            ("alice@exa_mple.org", EmailError::Domain),
            ("alice@10.0.0.1", EmailError::Domain),
            ("alice@[10.0.0.1]", EmailError::Domain),
            ("alice@пример.рф", EmailError::Domain),
        ] {
            assert_eq!(check(a), Err(e), "{a}");
        }
        let long_local = format!("{}@example.org", "a".repeat(LOCAL_MAX + 1));
        assert_eq!(check(&long_local), Err(EmailError::Local));
        let long = format!("a@{}.org", "b".repeat(MAX_CHARS));
        assert_eq!(check(&long), Err(EmailError::Length));
    }

    proptest! {
        /// Whatever is typed, an accepted address is its own normal form, holds no space, no
        /// control character and one `@`, and is no longer than the limit: what is mailed and
        /// stored cannot carry a header line or a second recipient.
        #[test]
        fn an_accepted_address_is_one_plain_address(s in "\\PC{0,80}|[a-zA-Z0-9.@+_-]{0,40}") {
            if let Ok(n) = check(&s) {
                prop_assert_eq!(check(&n), Ok(n.clone()));
                prop_assert!(n.chars().count() <= MAX_CHARS);
                prop_assert!(n.bytes().all(|b| b.is_ascii_graphic()));
                prop_assert_eq!(n.matches('@').count(), 1);
                prop_assert!(!n.contains(','));
            }
        }
    }
}
