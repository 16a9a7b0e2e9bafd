//! Accounts' rules: what a username may be, when two names are the same, and passwords.
//!
//! **Usernames** are 2 to 20 characters: Latin letters, digits, `_` and `-`; they start with a
//! letter, end with a letter or digit, and have no two separators in a row (as lichess's). Only
//! ASCII, so that no name can pass for another by a Cyrillic or other look-alike letter and none
//! carries control or invisible characters. Within ASCII, two names are the same account name
//! when their [`skeleton`]s are equal: the confusables skeleton of Unicode TR39 (so `rn` reads
//! as `m`, `0` as `O`, `1` and `I` as `l`), taken without case, plus the look-alikes TR39 leaves
//! out but players use (`vv` for `w`, `cl` for `d`, `i`/`l`, `-`/`_`, and digits written for
//! letters: `4` for `a`, `3` for `e`, `5` for `s`). Once `mike7` exists nobody can sign up
//! as `rnike7`, `MIKE7` or `mlke7`.
//!
//! **Passwords** are 8 to 256 characters — characters, not bytes, everywhere: sign-up, sign-in
//! and the change of a password all count with [`password_chars`] (NIST SP 800-63B: a minimum
//! of 8, a maximum of at least 64), not the username, and are stored only as argon2id hashes with
//! a random salt.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

/// The shortest username.
pub const USERNAME_MIN: usize = 2;
/// The longest username.
pub const USERNAME_MAX: usize = 20;
/// The shortest password, characters.
pub const PASSWORD_MIN: usize = 8;
/// The longest password, characters (argon2 hashes any length; this bounds the work per request).
pub const PASSWORD_MAX: usize = 256;

/// Names nobody may take (compared by [`skeleton`]): the site's own words and the names of
/// its pages, so that no account looks official or shadows a URL.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "moderator",
    "mod",
    "root",
    "system",
    "sysop",
    "staff",
    "support",
    "help",
    "official",
    "reversi",
    "othello",
    "anonymous",
    "anon",
    "guest",
    "bot",
    "computer",
    "engine",
    "deleted",
    "nobody",
    "null",
    "undefined",
    "none",
    "api",
    "static",
    "login",
    "logout",
    "signup",
    "register",
    "account",
    "settings",
    "profile",
    "lobby",
    "games",
    "game",
    "tv",
    "play",
    "player",
    "players",
    "leaderboard",
    "tournament",
    "tournaments",
    "about",
    "contact",
    "privacy",
    "terms",
    "me",
    "you",
    "black",
    "white",
    "webmaster",
    "postmaster",
];

/// Why a username cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsernameError {
    /// Too short or too long.
    #[error("a username has {USERNAME_MIN} to {USERNAME_MAX} characters, not {0}")]
    Length(usize),
    /// A character other than a Latin letter, digit, `_` or `-`.
    #[error("a username may hold only Latin letters, digits, `_` and `-`; character {at} is not one")]
    Character {
        /// 1-based position of the first bad character.
        at: usize,
    },
    /// Does not start with a letter.
    #[error("a username starts with a letter")]
    Start,
    /// Ends with `_` or `-`.
    #[error("a username ends with a letter or a digit")]
    End,
    /// Two separators in a row.
    #[error("a username has no two `_` or `-` in a row (at character {at})")]
    Separators {
        /// 1-based position of the second separator.
        at: usize,
    },
    /// A reserved name, or one that looks like it.
    #[error("this username is reserved")]
    Reserved,
}

impl UsernameError {
    /// A stable code for the interface's translations.
    pub fn code(&self) -> &'static str {
        match self {
            UsernameError::Length(_) => "username-length",
            UsernameError::Character { .. } => "username-character",
            UsernameError::Start => "username-start",
            UsernameError::End => "username-end",
            UsernameError::Separators { .. } => "username-separators",
            UsernameError::Reserved => "username-reserved",
        }
    }
}

/// Checks a username as typed (surrounding spaces are not trimmed: what is shown is what is kept).
pub fn check_username(name: &str) -> Result<(), UsernameError> {
    let chars = name.chars().count();
    // Characters before the length: a long string of emoji is a character error at its first.
    if let Some(at) = name
        .chars()
        .position(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(UsernameError::Character { at: at + 1 });
    }
    if !(USERNAME_MIN..=USERNAME_MAX).contains(&chars) {
        return Err(UsernameError::Length(chars));
    }
    let b = name.as_bytes();
    if !b[0].is_ascii_alphabetic() {
        return Err(UsernameError::Start);
    }
    if !b[b.len() - 1].is_ascii_alphanumeric() {
        return Err(UsernameError::End);
    }
    let sep = |c: u8| c == b'_' || c == b'-';
    if let Some(i) = b.windows(2).position(|w| sep(w[0]) && sep(w[1])) {
        return Err(UsernameError::Separators { at: i + 2 });
    }
    let sk = skeleton(name);
    // No admin-anything either.
    if RESERVED.iter().any(|r| skeleton(r) == sk) || sk.starts_with(&skeleton("admin")) {
        return Err(UsernameError::Reserved);
    }
    Ok(())
}

/// The version of [`skeleton`]: stored beside the keys, so that a server whose skeleton changed
/// computes the keys of existing names again at start.
pub const SKELETON_VERSION: u32 = 2;

/// Look-alikes of ASCII that TR39's table leaves out (it maps a character to its prototype, and
/// these pairs are both prototypes), as they are used to impersonate: `i`/`l`, `-`/`_`, the
/// multi-letter `w`/`vv` and `d`/`cl` (TR39 has `m`/`rn` among them), and the digits of "leet"
/// writing that read as one letter each (`3`, `4`, `5`; TR39 has `0` and `1`): no two digits
/// map to one letter, so `player6` and `player8` stay two names. Applied after lower-casing and
/// before the TR39 table.
fn extra_look_alike(c: char) -> Option<&'static str> {
    Some(match c {
        'i' => "l",
        '-' => "_",
        'w' => "vv",
        'd' => "cl",
        '3' => "e",
        '4' => "a",
        '5' => "s",
        _ => return None,
    })
}

/// The form under which names are unique: the TR39 confusables skeleton (`unicode-security`,
/// which ships the Unicode data) of the lower-cased name with [`extra_look_alike`]s applied,
/// lower-cased again (TR39's prototypes of `0` and `1` are `O` and `l`). `Bob_1`, `bob-l` and
/// `B0B_I` share one skeleton; so do `mike7` and `rnike7`, `wave` and `vvave`, `dime` and
/// `clime`, `same` and `s4me`.
pub fn skeleton(name: &str) -> String {
    let mut pre = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        match extra_look_alike(c) {
            Some(s) => pre.push_str(s),
            None => pre.push(c),
        }
    }
    let tr39: String = unicode_security::skeleton(&pre).collect();
    // Lower-case again and apply the extras once more: TR39's prototypes may be upper case or
    // digits (`0` → `O`, `|` → `l`).
    let mut out = String::with_capacity(tr39.len());
    for c in tr39.chars().flat_map(char::to_lowercase) {
        match extra_look_alike(c) {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
    }
    out
}

/// Why a password cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Too short.
    #[error("a password has at least {PASSWORD_MIN} characters")]
    Short,
    /// Too long.
    #[error("a password has at most {PASSWORD_MAX} characters")]
    Long,
    /// The same as the username.
    #[error("the password cannot be the username")]
    IsUsername,
}

impl PasswordError {
    /// A stable code for the interface's translations.
    pub fn code(&self) -> &'static str {
        match self {
            PasswordError::Short => "password-short",
            PasswordError::Long => "password-long",
            PasswordError::IsUsername => "password-is-username",
        }
    }
}

/// The length of a password as every limit counts it: in characters (Unicode scalar values),
/// so that 200 × "й" (400 bytes) is 200 long at sign-up and at sign-in alike.
pub fn password_chars(password: &str) -> usize {
    password.chars().count()
}

/// Whether a password is longer than any the site accepts ([`PASSWORD_MAX`] characters): such
/// a sign-in is refused without hashing it.
pub fn password_too_long(password: &str) -> bool {
    // A byte count above 4 × the limit is too long whatever its characters, without counting.
    password.len() > 4 * PASSWORD_MAX || password_chars(password) > PASSWORD_MAX
}

/// Checks a new password for `username`.
pub fn check_password(username: &str, password: &str) -> Result<(), PasswordError> {
    if password_too_long(password) {
        return Err(PasswordError::Long);
    }
    if password_chars(password) < PASSWORD_MIN {
        return Err(PasswordError::Short);
    }
    if password.eq_ignore_ascii_case(username) {
        return Err(PasswordError::IsUsername);
    }
    Ok(())
}

/// The most memory a stored hash may ask for, KiB (ours use 19 MiB): a stored string is checked
/// before any memory is given to it.
pub const MAX_MEMORY_KIB: u32 = 64 * 1024;

thread_local! {
    /// The working memory of argon2, kept by each thread that hashes: 19 MiB allocated and freed
    /// for every hash left the allocator holding hundreds of MiB after a burst of sign-ups.
    static BLOCKS: std::cell::RefCell<Vec<Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Argon2id of `password` with `salt` and `params` into `out`, in this thread's working memory.
fn argon2id_into(params: &Params, password: &[u8], salt: &[u8], out: &mut [u8]) -> Result<(), argon2::Error> {
    let a = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    BLOCKS.with(|b| {
        let mut blocks = b.borrow_mut();
        let n = params.block_count();
        if blocks.len() < n {
            blocks.resize(n, Block::default());
        }
        a.hash_password_into_with_memory(password, salt, out, &mut blocks[..n])
    })
}

/// The argon2id hash of `password` (PHC string: algorithm, parameters, salt and hash), with the
/// `argon2` crate's default parameters (19 MiB, 2 passes, 1 lane: OWASP's recommendation).
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    let params = Params::default();
    let mut raw = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut raw)
        .expect("a generated salt decodes");
    let len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let output = Output::init_with(len, |out| {
        argon2id_into(&params, password.as_bytes(), salt_bytes, out).map_err(Into::into)
    })
    .expect("argon2id with default parameters hashes any input of up to 256 characters");
    PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).expect("default parameters are writable"),
        salt: Some(salt.as_salt()),
        hash: Some(output),
    }
    .to_string()
}

/// Whether `password` matches a stored [`hash_password`] string (false for a malformed one, one
/// of another algorithm, or one asking for more than [`MAX_MEMORY_KIB`]). The comparison takes
/// the same time wherever the hashes differ.
pub fn verify_password(password: &str, stored: &str) -> bool {
    let Ok(h) = PasswordHash::new(stored) else {
        return false;
    };
    if h.algorithm != Algorithm::Argon2id.ident() {
        return false;
    }
    let Ok(params) = Params::try_from(&h) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (h.salt, h.hash) else {
        return false;
    };
    if params.m_cost() > MAX_MEMORY_KIB {
        return false;
    }
    let mut raw = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut raw) else {
        return false;
    };
    match Output::init_with(expected.len(), |out| {
        argon2id_into(&params, password.as_bytes(), salt_bytes, out).map_err(Into::into)
    }) {
        Ok(got) => got == expected,
        Err(_) => false,
    }
}

/// A hash to verify against when the account does not exist, so that a login for an unknown
/// name takes as long as one for a known name (no enumeration by timing).
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("not a password anyone has"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_usernames() {
        for n in [
            "ab",
            "Magnus",
            "a_b-c",
            "x1",
            "Kasparov1963",
            "abcdefghijklmnopqrst",
        ] {
            assert_eq!(check_username(n), Ok(()), "{n}");
        }
    }

    #[test]
    fn bad_usernames_say_why() {
        use UsernameError::*;
        let cases = [
            ("a", Length(1)),
            ("", Length(0)),
            ("abcdefghijklmnopqrstu", Length(21)),
            ("Магнус", Character { at: 1 }),
            ("mаgnus", Character { at: 2 }), // a Cyrillic а
            ("bob\u{200b}", Character { at: 4 }),
            ("bob\n", Character { at: 4 }),
            ("bob\u{7}x", Character { at: 4 }),
            (" bob", Character { at: 1 }),
            ("bob smith", Character { at: 4 }),
            ("1bob", Start),
            ("_bob", Start),
            ("bob_", End),
            ("bo__b", Separators { at: 4 }),
            ("bo-_b", Separators { at: 4 }),
            ("Admin", Reserved),
            ("ADM1N", Reserved),
            ("admin-2", Reserved),
            ("guest", Reserved),
            ("Deleted", Reserved),
            ("lobby", Reserved),
        ];
        for (name, want) in cases {
            assert_eq!(check_username(name), Err(want), "{name:?}");
        }
        assert_eq!(check_username(&"é".repeat(1000)), Err(Character { at: 1 }));
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        assert_eq!(skeleton("Bob_1"), skeleton("bob-l"));
        assert_eq!(skeleton("B0B_I"), skeleton("bob_1"));
        assert_eq!(skeleton("MAGNUS"), skeleton("magnus"));
        assert_ne!(skeleton("bob"), skeleton("bobb"));
        // Multi-letter look-alikes from TR39's data, and digits written for letters.
        for (a, b) in [
            ("mike7", "rnike7"),
            ("wave", "vvave"),
            ("dime", "clime"),
            ("same", "s4me"),
            ("Magnus", "rnagnus"),
            ("hello", "he11o"),
            ("otto", "0tt0"),
            ("ilya", "lLya"),
            ("dw", "clvv"),
        ] {
            assert_eq!(skeleton(a), skeleton(b), "{a} / {b}");
        }
        for (a, b) in [
            ("bob", "rob"),
            ("anna", "anne"),
            ("nm", "mn"),
            ("ab", "abc"),
            ("player6", "player8"),
            ("s2", "s7"),
        ] {
            assert_ne!(skeleton(a), skeleton(b), "{a} / {b}");
        }
    }

    /// Every name that passes [`check_username`] has a skeleton that is its own skeleton
    /// (taking it again changes nothing), so a stored key always matches a later look-up.
    #[test]
    fn skeletons_are_stable() {
        for n in [
            "mike7",
            "rnike7",
            "Wave_0",
            "clime",
            "s4me-x",
            "Il1|",
            "abcdefghijklmnopqrstuvwxyz0123456789",
        ] {
            let k = skeleton(n);
            assert_eq!(skeleton(&k), k, "{n}");
        }
    }

    #[test]
    fn reserved_names_cannot_hide_behind_look_alikes() {
        for n in ["adrnin", "rnoderator", "off1c1al", "sy5tem", "guesT"] {
            assert_eq!(check_username(n), Err(UsernameError::Reserved), "{n}");
        }
    }

    #[test]
    fn passwords() {
        assert_eq!(check_password("bob", "short"), Err(PasswordError::Short));
        assert_eq!(
            check_password("bobbybobby", "BobbyBobby"),
            Err(PasswordError::IsUsername)
        );
        assert_eq!(check_password("bob", &"x".repeat(257)), Err(PasswordError::Long));
        assert_eq!(check_password("bob", "correct horse battery"), Ok(()));
        assert_eq!(check_password("bob", "пароль12"), Ok(()), "any characters");
    }

    /// One definition of the length: multi-byte text counts in characters at sign-up and at
    /// sign-in alike.
    #[test]
    fn password_length_counts_characters_everywhere() {
        let long_cyrillic = "й".repeat(200); // 400 bytes
        assert_eq!(password_chars(&long_cyrillic), 200);
        assert!(!password_too_long(&long_cyrillic));
        assert_eq!(check_password("bob", &long_cyrillic), Ok(()));
        let at_limit = "й".repeat(PASSWORD_MAX);
        assert!(!password_too_long(&at_limit));
        assert_eq!(check_password("bob", &at_limit), Ok(()));
        let over = "й".repeat(PASSWORD_MAX + 1);
        assert!(password_too_long(&over));
        assert_eq!(check_password("bob", &over), Err(PasswordError::Long));
        let emoji = "🂡".repeat(PASSWORD_MAX); // 4 bytes each
        assert!(!password_too_long(&emoji));
        assert!(password_too_long(&format!("{emoji}x")));
    }

    #[test]
    fn hashes_are_argon2id_salted_and_verify() {
        let a = hash_password("correct horse");
        let b = hash_password("correct horse");
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "a fresh salt each time");
        assert!(verify_password("correct horse", &a));
        assert!(!verify_password("correct horsE", &a));
        assert!(!verify_password("correct horse", "not a hash"));
        assert!(!verify_password("", decoy_hash()));
    }

    /// The hashes are standard PHC strings: the argon2 crate's own hasher and verifier agree
    /// with ours both ways, and a stored hash asking for too much memory is refused unread.
    #[test]
    fn hashes_match_the_argon2_crate() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let ours = hash_password("tortoise and hare");
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default()
            .verify_password(b"tortoise and hare", &parsed)
            .is_ok());
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default()
            .hash_password(b"hare and tortoise", &salt)
            .unwrap()
            .to_string();
        assert!(verify_password("hare and tortoise", &theirs));
        assert!(!verify_password("tortoise and hare", &theirs));
        let greedy = theirs.replace("m=19456", "m=4194304");
        assert_ne!(greedy, theirs);
        assert!(!verify_password("hare and tortoise", &greedy));
    }
}
