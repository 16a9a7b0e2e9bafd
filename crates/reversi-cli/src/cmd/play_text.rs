//! The words of `reversi play`: the `play-*` messages of `reversi-i18n`, in English or Russian.

use reversi_core::Color;
use reversi_i18n::{t, tr};

/// The language of the messages (`--lang`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// English.
    En,
    /// Russian.
    Ru,
}

impl Lang {
    /// `--lang` if given, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`): Russian for `ru…`.
    pub fn choose(flag: Option<Lang>) -> Lang {
        if let Some(l) = flag {
            return l;
        }
        for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Ok(v) = std::env::var(var) {
                if v.is_empty() {
                    continue;
                }
                return match reversi_i18n::Lang::from_locale(&v) {
                    reversi_i18n::Lang::Ru => Lang::Ru,
                    reversi_i18n::Lang::En => Lang::En,
                };
            }
        }
        Lang::En
    }
}

/// Every message of the game, for one language.
pub struct Text {
    lang: reversi_i18n::Lang,
}

fn key(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl Text {
    /// The messages in `lang`.
    pub fn new(lang: Lang) -> Text {
        Text {
            lang: match lang {
                Lang::En => reversi_i18n::Lang::En,
                Lang::Ru => reversi_i18n::Lang::Ru,
            },
        }
    }

    /// Disc counts.
    pub fn counts(&self, black: u32, white: u32) -> String {
        t!(self.lang, "play-counts", black = black, white = white)
    }

    /// Whose turn it is.
    pub fn to_move(&self, c: Color) -> String {
        t!(self.lang, "play-to-move", color = key(c))
    }

    /// The prompt for a human's move.
    pub fn prompt(&self, c: Color) -> String {
        t!(self.lang, "play-prompt", color = key(c))
    }

    /// The last move and what it flipped.
    pub fn last_move(&self, c: Color, sq: &str, flipped: &[String]) -> String {
        t!(
            self.lang,
            "play-last-move",
            color = key(c),
            square = sq,
            flipped = flipped.join(" ")
        )
    }

    /// A forced pass.
    pub fn pass(&self, c: Color) -> String {
        t!(self.lang, "play-pass", color = key(c))
    }

    /// The AI's move.
    pub fn ai_move(&self, c: Color, sq: &str, score: &str) -> String {
        t!(
            self.lang,
            "play-ai-move",
            color = key(c),
            square = sq,
            score = score
        )
    }

    /// The AI is thinking.
    pub fn thinking(&self) -> String {
        tr(self.lang, "play-thinking")
    }

    /// The final result.
    pub fn result(&self, black: u32, white: u32, winner: Option<Color>, margin: i32) -> String {
        match winner {
            None => t!(self.lang, "play-result-draw", black = black, white = white),
            // An equal count won by the tie rule (`--tie second-wins`).
            Some(c) if black == white => t!(
                self.lang,
                "play-result-tie-win",
                color = key(c),
                black = black,
                white = white
            ),
            Some(c) => t!(
                self.lang,
                "play-result-win",
                color = key(c),
                black = black,
                white = white,
                margin = margin
            ),
        }
    }

    /// Which colour the draw gave the person playing the computer (`--lot`).
    pub fn lot(&self, c: Color) -> String {
        t!(self.lang, "play-lot", color = key(c))
    }

    /// What can be done once the game is over.
    pub fn after_end(&self) -> String {
        tr(self.lang, "play-after-end")
    }

    /// An input line that could not be read (not UTF-8, or far too long).
    pub fn unreadable(&self) -> String {
        tr(self.lang, "play-unreadable")
    }

    /// Input that is neither a square nor a command.
    pub fn not_understood(&self, input: &str) -> String {
        let input = reversi_core::clip(input, reversi_core::quote::QUOTE_CHARS);
        t!(self.lang, "play-not-understood", input = input.as_ref())
    }

    /// A square that is off this board.
    pub fn off_board(&self, input: &str) -> String {
        t!(self.lang, "play-off-board", square = input)
    }

    /// An illegal move, with the legal ones.
    pub fn illegal(&self, sq: &str, legal: &str) -> String {
        t!(self.lang, "play-illegal", square = sq, legal = legal)
    }

    /// Undo at the start.
    pub fn nothing_to_undo(&self) -> String {
        tr(self.lang, "play-nothing-to-undo")
    }

    /// Redo with nothing undone.
    pub fn nothing_to_redo(&self) -> String {
        tr(self.lang, "play-nothing-to-redo")
    }

    /// A command that needs a file name.
    pub fn needs_file(&self, cmd: &str) -> String {
        t!(self.lang, "play-needs-file", command = cmd)
    }

    /// The game was saved.
    pub fn saved(&self, path: &str) -> String {
        t!(self.lang, "play-saved", path = path)
    }

    /// The game was loaded.
    pub fn loaded(&self, path: &str) -> String {
        t!(self.lang, "play-loaded", path = path)
    }

    /// A file could not be written or read.
    pub fn file_error(&self, path: &str, err: &str) -> String {
        t!(self.lang, "play-file-error", path = path, error = err)
    }

    /// The hints heading.
    pub fn hints(&self, list: &str) -> String {
        t!(self.lang, "play-hints", list = list)
    }

    /// Goodbye.
    pub fn bye(&self) -> String {
        tr(self.lang, "play-bye")
    }

    /// The list of commands.
    pub fn help(&self) -> String {
        tr(self.lang, "play-help")
    }
}
