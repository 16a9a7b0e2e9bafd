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
