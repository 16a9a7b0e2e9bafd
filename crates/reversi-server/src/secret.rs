//! Random ids and secrets (game ids, seat tokens, invite secrets), from the system's source.

/// `n` random bytes as URL-safe letters and digits (no look-alikes such as `0`/`O`, `1`/`l`).
pub fn random_string(n: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut bytes = vec![0u8; n];
    // The system source does not fail on supported platforms; a failure leaves zeros, which
    // the length check below turns into a panic-free but weak id only in that impossible case.
    let _ = getrandom::fill(&mut bytes);
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// A random 64-bit number.
pub fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    let _ = getrandom::fill(&mut b);
    u64::from_le_bytes(b)
}

/// Whether two secrets are equal, in time that depends only on their lengths (a guess learns
/// nothing from how long the answer took).
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Signs and checks values the server hands out and gets back (a guest's identity, a known
/// device): HMAC-SHA-256 with the site's key, which every instance reads from the database, so
/// that a value signed by one is good at all of them. A client can keep a signed value but not
/// make one.
#[derive(Clone)]
pub struct Signer {
    key: Vec<u8>,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer(…)")
    }
}

/// Hex digits of a signature (128 bits).
const SIGNATURE_HEX: usize = 32;

impl Signer {
    /// A signer with `key`.
    pub fn new(key: &[u8]) -> Signer {
        Signer { key: key.to_vec() }
    }

    fn mac(&self, purpose: &str, value: &str) -> String {
        use hmac::{Mac, SimpleHmac};
        let Ok(mut mac) = SimpleHmac::<sha2::Sha256>::new_from_slice(&self.key) else {
            return String::new();
        };
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(value.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .take(SIGNATURE_HEX / 2)
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// `value.SIGNATURE`, for `purpose` (a value signed for one purpose is no good for another).
    /// `value` must not contain `.`.
    pub fn sign(&self, purpose: &str, value: &str) -> String {
        format!("{value}.{}", self.mac(purpose, value))
    }

    /// The value of a [`Signer::sign`]ed string, if its signature is good for `purpose`.
    pub fn verify<'a>(&self, purpose: &str, signed: &'a str) -> Option<&'a str> {
        let (value, sig) = signed.rsplit_once('.')?;
        (sig.len() == SIGNATURE_HEX && same(sig, &self.mac(purpose, value))).then_some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_values_verify_only_unchanged_and_for_their_purpose() {
        let s = Signer::new(b"key one");
        let signed = s.sign("guest", "abc123");
        assert_eq!(s.verify("guest", &signed), Some("abc123"));
        assert_eq!(s.verify("device", &signed), None, "another purpose");
        assert_eq!(
            Signer::new(b"key two").verify("guest", &signed),
            None,
            "another key"
        );
        let forged = signed.replacen("abc123", "abc124", 1);
        assert_eq!(s.verify("guest", &forged), None);
        assert_eq!(s.verify("guest", "abc123"), None, "unsigned");
        assert_eq!(s.verify("guest", "abc123."), None);
        let mut flipped = signed.clone();
        let last = flipped.pop().unwrap();
        flipped.push(if last == '0' { '1' } else { '0' });
        assert_eq!(s.verify("guest", &flipped), None);
    }
}
