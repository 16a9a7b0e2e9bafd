//! Game chat: what a message may be, and how fast one may talk.
//!
//! A message is 1 to [`MAX_CHARS`] characters once trimmed, with runs of whitespace (newlines,
//! tabs) folded into one space. Control characters and the invisible ones that can disguise or
//! reorder text (zero-width, bidirectional overrides) are refused, not silently dropped, so the
//! sender knows. Escaping for HTML is the page's job; the stored text is the text as sent.
//!
//! The flood limit is a token bucket: [`BURST`] messages at once, then one per
//! [`REFILL_MS`]; and the same text as one of one's last three messages within a minute is refused.
//! Every sender behind one address shares a second, wider bucket ([`AddressFlood`]:
//! [`ADDRESS_BURST`], then one per [`ADDRESS_REFILL_MS`]), so that a client cannot escape the
//! first by coming back as a new guest for every message.

use crate::Millis;
use std::collections::VecDeque;

/// The longest message, characters.
pub const MAX_CHARS: usize = 140;
/// Messages that may be sent in a burst.
pub const BURST: u32 = 5;
/// One more message allowed per this many ms.
pub const REFILL_MS: Millis = 2_000;
/// A repeat of a recent message is refused within this window.
pub const REPEAT_WINDOW_MS: Millis = 60_000;
/// Messages one address may send in a burst, whoever sends them (a household, an office).
pub const ADDRESS_BURST: u32 = 10;
/// One more message per address allowed per this many ms.
pub const ADDRESS_REFILL_MS: Millis = 1_000;

/// The two rooms of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Room {
    /// The two players.
    Players,
    /// Everyone watching.
    Spectators,
}

impl Room {
    /// The name used in URLs and stored rows.
    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    /// The room named `name`.
    pub fn named(name: &str) -> Option<Room> {
        match name {
            "players" => Some(Room::Players),
            "spectators" => Some(Room::Spectators),
            _ => None,
        }
    }
}

/// Why a message is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChatError {
    /// Nothing but whitespace.
    #[error("the message is empty")]
    Empty,
    /// Too long.
    #[error("a message has at most {MAX_CHARS} characters, this one {0}")]
    Long(usize),
    /// A control or invisible character.
    #[error("character {at} of the message is a control or invisible character")]
    Character {
        /// 1-based position in the text as sent.
        at: usize,
    },
    /// Too many messages too fast.
    #[error("too many messages: wait {} s", .retry_after_ms.div_ceil(1000))]
    Flood {
        /// When the next message would be allowed.
        retry_after_ms: Millis,
    },
    /// The same as a recent message.
    #[error("you just said that")]
    Repeat,
}

impl ChatError {
    /// A stable code for the interface's translations.
    pub fn code(&self) -> &'static str {
        match self {
            ChatError::Empty => "chat-empty",
            ChatError::Long(_) => "chat-long",
            ChatError::Character { .. } => "chat-character",
            ChatError::Flood { .. } => "chat-flood",
            ChatError::Repeat => "chat-repeat",
        }
    }
}

/// Characters that hide or reorder text: zero-width ones, bidirectional controls, the BOM.
fn invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}' | '\u{00ad}')
}

/// The message as it will be stored, or why it cannot be sent.
pub fn clean(text: &str) -> Result<String, ChatError> {
    if let Some(at) = text
        .chars()
        .position(|c| (c.is_control() && !c.is_whitespace()) || invisible(c))
    {
        return Err(ChatError::Character { at: at + 1 });
    }
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let n = folded.chars().count();
    if n == 0 {
        return Err(ChatError::Empty);
    }
    if n > MAX_CHARS {
        return Err(ChatError::Long(n));
    }
    Ok(folded)
}

/// One sender's flood state in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Flood {
    tokens_ms: Millis,
    at: Millis,
    recent: VecDeque<(Millis, String)>,
}

impl Flood {
    /// A sender who has said nothing yet (at `now`).
    pub fn new(now: Millis) -> Flood {
        Flood {
            tokens_ms: BURST as Millis * REFILL_MS,
            at: now,
            recent: VecDeque::new(),
        }
    }

    /// Whether `text` (already [`clean`]ed) may be sent at `now`; if so it is counted.
    pub fn allow(&mut self, text: &str, now: Millis) -> Result<(), ChatError> {
        let cap = BURST as Millis * REFILL_MS;
        let tokens = (self.tokens_ms + now.saturating_sub(self.at)).min(cap);
        if tokens < REFILL_MS {
            return Err(ChatError::Flood {
                retry_after_ms: REFILL_MS - tokens,
            });
        }
        self.recent
            .retain(|(t, _)| now.saturating_sub(*t) < REPEAT_WINDOW_MS);
        if self.recent.iter().any(|(_, s)| s == text) {
            return Err(ChatError::Repeat);
        }
        self.tokens_ms = tokens - REFILL_MS;
        self.at = now;
        self.recent.push_back((now, text.to_string()));
        if self.recent.len() > 3 {
            self.recent.pop_front();
        }
        Ok(())
    }
}

/// The flood state of one address: every sender behind it together.
#[derive(Clone, Debug)]
pub struct AddressFlood {
    tokens_ms: Millis,
    at: Millis,
}

impl AddressFlood {
    /// An address nothing was sent from yet (at `now`).
    pub fn new(now: Millis) -> AddressFlood {
        AddressFlood {
            tokens_ms: ADDRESS_BURST as Millis * ADDRESS_REFILL_MS,
            at: now,
        }
    }

    /// Whether one more message may be sent from the address at `now`; if so it is counted.
    pub fn allow(&mut self, now: Millis) -> Result<(), ChatError> {
        let cap = ADDRESS_BURST as Millis * ADDRESS_REFILL_MS;
        let tokens = (self.tokens_ms + now.saturating_sub(self.at)).min(cap);
        if tokens < ADDRESS_REFILL_MS {
            return Err(ChatError::Flood {
                retry_after_ms: ADDRESS_REFILL_MS - tokens,
            });
        }
        self.tokens_ms = tokens - ADDRESS_REFILL_MS;
        self.at = now;
        Ok(())
    }
}

/// Counts a message against its sender's limits and its address's together: refused by either,
/// it counts for neither, so a message refused for speed may be sent again once allowed and is
/// not then taken for a repeat of itself.
pub fn allow_both(
    sender: &mut Flood,
    address: &mut AddressFlood,
    text: &str,
    now: Millis,
) -> Result<(), ChatError> {
    let mut counted = sender.clone();
    counted.allow(text, now)?;
    address.allow(now)?;
    *sender = counted;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_trimmed_and_folded() {
        assert_eq!(clean("  good\n\tgame  ").unwrap(), "good game");
        assert_eq!(clean("привет, как дела?").unwrap(), "привет, как дела?");
        assert_eq!(
            clean("<script>alert(1)</script>").unwrap(),
            "<script>alert(1)</script>",
            "escaping is the page's"
        );
        assert_eq!(clean(&"я".repeat(140)).unwrap().chars().count(), 140);
    }

    #[test]
    fn bad_messages_say_why() {
        assert_eq!(clean(" \n "), Err(ChatError::Empty));
        assert_eq!(clean(&"я".repeat(141)), Err(ChatError::Long(141)));
        assert_eq!(clean("hi\u{7}"), Err(ChatError::Character { at: 3 }));
        assert_eq!(clean("a\u{202e}b"), Err(ChatError::Character { at: 2 }));
        assert_eq!(clean("\u{200b}"), Err(ChatError::Character { at: 1 }));
        assert_eq!(clean("x\0"), Err(ChatError::Character { at: 2 }));
    }

    #[test]
    fn a_burst_then_one_per_refill() {
        let mut f = Flood::new(0);
        for i in 0..BURST {
            f.allow(&format!("m{i}"), 0).unwrap();
        }
        assert_eq!(
            f.allow("more", 0),
            Err(ChatError::Flood {
                retry_after_ms: REFILL_MS
            })
        );
        assert_eq!(
            f.allow("more", 1_500),
            Err(ChatError::Flood { retry_after_ms: 500 })
        );
        f.allow("more", 2_000).unwrap();
        assert!(f.allow("again", 2_001).is_err());
        // A long pause refills the bucket only up to a burst.
        for i in 0..BURST {
            f.allow(&format!("later{i}"), 1_000_000).unwrap();
        }
        assert!(f.allow("one too many", 1_000_000).is_err());
        assert_eq!(
            ChatError::Flood {
                retry_after_ms: 1_200
            }
            .to_string(),
            "too many messages: wait 2 s"
        );
    }

    /// New senders behind one address (a client that makes itself a new guest per message)
    /// share its bucket: 20 s of trying gets [`ADDRESS_BURST`] + 20 messages, not hundreds.
    #[test]
    fn an_address_has_one_bucket_for_all_its_senders() {
        let mut a = AddressFlood::new(0);
        let mut sent = 0;
        for i in 0..2_000u64 {
            let now = i * 10; // 100 tries a second, each a fresh sender
            if Flood::new(now).allow(&format!("m{i}"), now).is_ok() && a.allow(now).is_ok() {
                sent += 1;
            }
        }
        assert_eq!(
            sent,
            ADDRESS_BURST as u64 + 20 - 1,
            "20 s at one a second after the burst"
        );
    }

    #[test]
    fn a_message_refused_by_its_address_is_not_a_repeat_when_sent_again() {
        let mut address = AddressFlood::new(0);
        // Ten players behind one address use its burst.
        for i in 0..ADDRESS_BURST {
            allow_both(&mut Flood::new(0), &mut address, &format!("line {i}"), 0).unwrap();
        }
        let mut ann = Flood::new(0);
        assert!(matches!(
            allow_both(&mut ann, &mut address, "gg", 0),
            Err(ChatError::Flood { .. })
        ));
        // Told to slow down, the sender sends it again a moment later: it goes through.
        allow_both(&mut ann, &mut address, "gg", ADDRESS_REFILL_MS).unwrap();
        assert_eq!(
            allow_both(&mut ann, &mut address, "gg", 3 * ADDRESS_REFILL_MS),
            Err(ChatError::Repeat)
        );
    }

    #[test]
    fn repeats_are_refused_for_a_minute() {
        let mut f = Flood::new(0);
        f.allow("gg", 0).unwrap();
        assert_eq!(f.allow("gg", 10_000), Err(ChatError::Repeat));
        f.allow("wp", 20_000).unwrap();
        f.allow("gg", 60_000).unwrap();
        // Only the last three count.
        f.allow("a", 70_000).unwrap();
        f.allow("b", 80_000).unwrap();
        f.allow("c", 90_000).unwrap();
        f.allow("gg", 95_000).unwrap(); // said 35 s ago, but three messages since
    }
}
