//! Open challenges in the lobby ("seeks") and direct challenges: who may make one, who may
//! accept it, and who plays which colour.

use crate::clock::TimeControl;
use crate::rating::Category;
use reversi_core::{Color, Variant};

/// The lowest rating a range may name.
pub const RANGE_MIN: u16 = 400;
/// The highest rating a range may name.
pub const RANGE_MAX: u16 = 3200;

/// Who plays Black in a game made from a seek, as its owner chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColourChoice {
    /// The owner plays Black (moves first).
    Black,
    /// The owner plays White.
    White,
    /// Chosen at random when the seek is accepted.
    Random,
}

/// Who is seeking or accepting.
#[derive(Clone, Debug, PartialEq)]
pub struct Seeker {
    /// A stable key: the account's id, or the guest's session.
    pub key: String,
    /// Has an account (guests play casual games only).
    pub registered: bool,
    /// Is a bot account.
    pub bot: bool,
    /// Rating in the seek's category, if rated there (used for rating ranges).
    pub rating: Option<f64>,
}

/// An open challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Seek {
    /// Who made it.
    pub owner: Seeker,
    /// The variant to play.
    pub variant: Variant,
    /// The clock.
    pub control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The owner's colour.
    pub colour: ColourChoice,
    /// The ratings the owner accepts, inclusive (`None`: anyone).
    pub range: Option<(u16, u16)>,
}

/// Why a seek cannot be made or accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeekError {
    /// A guest asked for a rated game.
    #[error("rated games need an account: sign in, or make the game casual")]
    RatedNeedsAccount,
    /// The variant has no rated play.
    #[error("games of this variant are casual only")]
    NotRatedVariant,
    /// Two bots cannot play rated games.
    #[error("a rated game needs at least one person: two bots play casual games only")]
    BotsOnly,
    /// A bad rating range.
    #[error("a rating range runs from {RANGE_MIN} to {RANGE_MAX}, low to high")]
    Range,
    /// Accepting one's own seek.
    #[error("this is your own seek")]
    Own,
    /// The acceptor's rating is outside the owner's range.
    #[error("your rating is outside the range this seek accepts ({0}–{1})")]
    OutOfRange(u16, u16),
    /// A guest asked for (or accepted) a correspondence game: a guest's seat would wait for
    /// days after the guest left, and the lobby would keep the guest's seek for a week.
    #[error("correspondence games need an account: sign in, or choose a real-time control")]
    CorrespondenceNeedsAccount,
}

impl SeekError {
    /// A stable code for the interface's translations.
    pub fn code(&self) -> &'static str {
        match self {
            SeekError::RatedNeedsAccount => "seek-rated-needs-account",
            SeekError::NotRatedVariant => "seek-not-rated-variant",
            SeekError::BotsOnly => "seek-bots-only",
            SeekError::Range => "seek-range",
            SeekError::Own => "seek-own",
            SeekError::OutOfRange(..) => "seek-out-of-range",
            SeekError::CorrespondenceNeedsAccount => "seek-correspondence-needs-account",
        }
    }
}

impl Seek {
    /// The rated category, if the seek is rated.
    pub fn category(&self) -> Option<Category> {
        Category::of(self.variant, self.control)
    }

    /// Checks a new seek.
    pub fn check(&self) -> Result<(), SeekError> {
        if let Some((lo, hi)) = self.range {
            if lo > hi || lo < RANGE_MIN || hi > RANGE_MAX {
                return Err(SeekError::Range);
            }
        }
        if !self.owner.registered && self.control.is_correspondence() {
            return Err(SeekError::CorrespondenceNeedsAccount);
        }
        if self.rated {
            if !self.owner.registered {
                return Err(SeekError::RatedNeedsAccount);
            }
            if self.category().is_none() {
                return Err(SeekError::NotRatedVariant);
            }
        }
        Ok(())
    }

    /// Checks that `by` may accept this seek.
    pub fn check_accept(&self, by: &Seeker) -> Result<(), SeekError> {
        if by.key == self.owner.key {
            return Err(SeekError::Own);
        }
        if !by.registered && self.control.is_correspondence() {
            return Err(SeekError::CorrespondenceNeedsAccount);
        }
        if self.rated {
            rated_pair(&self.owner, by)?;
        }
        if let Some((lo, hi)) = self.range {
            // A player not yet rated in the category counts as a new player (1500).
            let r = by.rating.unwrap_or(crate::rating::START_RATING);
            if r < lo as f64 || r > hi as f64 {
                return Err(SeekError::OutOfRange(lo, hi));
            }
        }
        Ok(())
    }

    /// The owner's colour once accepted; `coin` decides a random choice.
    pub fn owner_colour(&self, coin: bool) -> Color {
        match self.colour {
            ColourChoice::Black => Color::Black,
            ColourChoice::White => Color::White,
            ColourChoice::Random if coin => Color::Black,
            ColourChoice::Random => Color::White,
        }
    }
}

/// Whether `a` and `b` may play a rated game: both registered, not both bots.
pub fn rated_pair(a: &Seeker, b: &Seeker) -> Result<(), SeekError> {
    if !a.registered || !b.registered {
        return Err(SeekError::RatedNeedsAccount);
    }
    if a.bot && b.bot {
        return Err(SeekError::BotsOnly);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(key: &str, registered: bool, bot: bool, rating: Option<f64>) -> Seeker {
        Seeker {
            key: key.into(),
            registered,
            bot,
            rating,
        }
    }

    fn seek(owner: Seeker, rated: bool) -> Seek {
        Seek {
            owner,
            variant: Variant::Othello,
            control: "5+3".parse().unwrap(),
            rated,
            colour: ColourChoice::Random,
            range: None,
        }
    }

    #[test]
    fn making_seeks() {
        assert_eq!(seek(who("g", false, false, None), false).check(), Ok(()));
        assert_eq!(
            seek(who("g", false, false, None), true).check(),
            Err(SeekError::RatedNeedsAccount)
        );
        let mut s = seek(who("a", true, false, None), true);
        assert_eq!(s.check(), Ok(()));
        s.variant = Variant::EightStars;
        assert_eq!(s.check(), Err(SeekError::NotRatedVariant));
        s.rated = false;
        assert_eq!(s.check(), Ok(()), "any variant casual");
        for bad in [(1600, 1500), (100, 1500), (1500, 4000)] {
            s.range = Some(bad);
            assert_eq!(s.check(), Err(SeekError::Range));
        }
    }

    /// A guest's correspondence seek would wait a week after the guest left (issue 51).
    #[test]
    fn correspondence_needs_an_account() {
        let mut g = seek(who("g", false, false, None), false);
        g.control = "3d".parse().unwrap();
        assert_eq!(g.check(), Err(SeekError::CorrespondenceNeedsAccount));
        let mut a = seek(who("a", true, false, None), false);
        a.control = "3d".parse().unwrap();
        assert_eq!(a.check(), Ok(()));
        assert_eq!(
            a.check_accept(&who("g", false, false, None)),
            Err(SeekError::CorrespondenceNeedsAccount)
        );
        assert_eq!(a.check_accept(&who("b", true, false, None)), Ok(()));
    }

    #[test]
    fn accepting_seeks() {
        let alice = who("a", true, false, Some(1700.0));
        let mut s = seek(alice.clone(), true);
        assert_eq!(s.check_accept(&alice), Err(SeekError::Own));
        assert_eq!(
            s.check_accept(&who("g", false, false, None)),
            Err(SeekError::RatedNeedsAccount)
        );
        assert_eq!(s.check_accept(&who("b", true, false, Some(1400.0))), Ok(()));
        s.range = Some((1600, 1800));
        assert_eq!(
            s.check_accept(&who("b", true, false, Some(1400.0))),
            Err(SeekError::OutOfRange(1600, 1800))
        );
        assert_eq!(
            s.check_accept(&who("c", true, false, Some(1800.0))),
            Ok(()),
            "inclusive"
        );
        assert_eq!(
            s.check_accept(&who("n", true, false, None)),
            Err(SeekError::OutOfRange(1600, 1800)),
            "new = 1500"
        );
        let botseek = seek(who("bot1", true, true, None), true);
        assert_eq!(
            botseek.check_accept(&who("bot2", true, true, None)),
            Err(SeekError::BotsOnly)
        );
        assert_eq!(botseek.check_accept(&who("p", true, false, None)), Ok(()));
        let casual = seek(who("bot1", true, true, None), false);
        assert_eq!(casual.check_accept(&who("g", false, false, None)), Ok(()));
    }

    #[test]
    fn colours() {
        let mut s = seek(who("a", true, false, None), false);
        assert_eq!(
            (s.owner_colour(true), s.owner_colour(false)),
            (Color::Black, Color::White)
        );
        s.colour = ColourChoice::White;
        assert_eq!(
            (s.owner_colour(true), s.owner_colour(false)),
            (Color::White, Color::White)
        );
        s.colour = ColourChoice::Black;
        assert_eq!(s.owner_colour(false), Color::Black);
    }
}
