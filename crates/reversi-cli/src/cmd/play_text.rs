//! The words of `reversi play`, in English and Russian.

use reversi_core::Color;

/// The language of the messages.
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
                return if v.to_ascii_lowercase().starts_with("ru") {
                    Lang::Ru
                } else {
                    Lang::En
                };
            }
        }
        Lang::En
    }
}

/// Every message, for one language.
pub struct Text {
    lang: Lang,
}

impl Text {
    /// The messages in `lang`.
    pub fn new(lang: Lang) -> Text {
        Text { lang }
    }

    fn ru(&self) -> bool {
        self.lang == Lang::Ru
    }

    /// A colour with its board letter: `Black (X)`.
    pub fn color(&self, c: Color) -> String {
        match (self.ru(), c) {
            (false, Color::Black) => "Black (X)".into(),
            (false, Color::White) => "White (O)".into(),
            (true, Color::Black) => "Чёрные (X)".into(),
            (true, Color::White) => "Белые (O)".into(),
        }
    }

    /// Disc counts.
    pub fn counts(&self, black: u32, white: u32) -> String {
        if self.ru() {
            format!("Чёрные (X): {black}   Белые (O): {white}")
        } else {
            format!("Black (X): {black}   White (O): {white}")
        }
    }

    /// Whose turn it is.
    pub fn to_move(&self, c: Color) -> String {
        if self.ru() {
            format!("Ход: {}", self.color(c))
        } else {
            format!("{} to move", self.color(c))
        }
    }

    /// The prompt for a human's move.
    pub fn prompt(&self, c: Color) -> String {
        if self.ru() {
            format!("Ваш ход, {} (или help): ", self.color(c))
        } else {
            format!("Your move, {} (or help): ", self.color(c))
        }
    }

    /// The last move and what it flipped.
    pub fn last_move(&self, c: Color, sq: &str, flipped: &[String]) -> String {
        let list = flipped.join(" ");
        if self.ru() {
            format!("Последний ход: {} {sq}, перевёрнуты: {list}", self.color(c))
        } else {
            format!("Last move: {} {sq}, flipped: {list}", self.color(c))
        }
    }

    /// A forced pass.
    pub fn pass(&self, c: Color) -> String {
        if self.ru() {
            format!("{} не может сходить и пасует.", self.color(c))
        } else {
            format!("{} has no legal move and passes.", self.color(c))
        }
    }

    /// The AI's move.
    pub fn ai_move(&self, c: Color, sq: &str, score: &str) -> String {
        if self.ru() {
            format!("Компьютер за {} ходит {sq} (оценка {score}).", self.color(c))
        } else {
            format!(
                "The computer, {}, plays {sq} (evaluation {score}).",
                self.color(c)
            )
        }
    }

    /// The AI is thinking.
    pub fn thinking(&self) -> &'static str {
        if self.ru() {
            "Компьютер думает…"
        } else {
            "The computer is thinking…"
        }
    }

    /// The final result.
    pub fn result(&self, black: u32, white: u32, winner: Option<Color>, margin: i32) -> String {
        let score = format!("{black}–{white}");
        match (self.ru(), winner) {
            (false, None) => format!("Game over: a draw, {score}."),
            (true, None) => format!("Игра окончена: ничья, {score}."),
            (false, Some(c)) => format!("Game over: {} wins {score} (+{margin}).", self.color(c)),
            (true, Some(c)) => format!(
                "Игра окончена: победили {} со счётом {score} (+{margin}).",
                self.color(c)
            ),
        }
    }

    /// What can be done once the game is over.
    pub fn after_end(&self) -> &'static str {
        if self.ru() {
            "Можно: undo, save ФАЙЛ, load ФАЙЛ, quit."
        } else {
            "You can: undo, save FILE, load FILE, quit."
        }
    }

    /// An input line that could not be read (not UTF-8, or far too long).
    pub fn unreadable(&self) -> &'static str {
        if self.ru() {
            "Эту строку не удалось прочитать (не текст UTF-8 или слишком длинная). Введите клетку, например d3, или help."
        } else {
            "That line could not be read (not UTF-8 text, or far too long). Type a square such as d3, or help."
        }
    }

    /// Input that is neither a square nor a command.
    pub fn not_understood(&self, input: &str) -> String {
        let input = reversi_core::clip(input, reversi_core::quote::QUOTE_CHARS);
        if self.ru() {
            format!("«{input}» — не клетка и не команда. Введите клетку, например d3, или help.")
        } else {
            format!("`{input}` is neither a square nor a command. Type a square such as d3, or help.")
        }
    }

    /// A square that is off this board.
    pub fn off_board(&self, input: &str) -> String {
        if self.ru() {
            format!("Клетки {input} нет на этой доске.")
        } else {
            format!("{input} is not a square of this board.")
        }
    }

    /// An illegal move, with the legal ones.
    pub fn illegal(&self, sq: &str, legal: &str) -> String {
        if self.ru() {
            format!("Ход {sq} невозможен. Возможные ходы: {legal}.")
        } else {
            format!("{sq} is not a legal move. Legal moves: {legal}.")
        }
    }

    /// Undo at the start.
    pub fn nothing_to_undo(&self) -> &'static str {
        if self.ru() {
            "Нечего отменять."
        } else {
            "There is nothing to undo."
        }
    }

    /// Redo with nothing undone.
    pub fn nothing_to_redo(&self) -> &'static str {
        if self.ru() {
            "Нечего возвращать."
        } else {
            "There is nothing to redo."
        }
    }

    /// A command that needs a file name.
    pub fn needs_file(&self, cmd: &str) -> String {
        if self.ru() {
            format!("Команде {cmd} нужно имя файла: {cmd} ФАЙЛ.")
        } else {
            format!("{cmd} needs a file name: {cmd} FILE.")
        }
    }

    /// The game was saved.
    pub fn saved(&self, path: &str) -> String {
        if self.ru() {
            format!("Партия записана в {path}.")
        } else {
            format!("Game saved to {path}.")
        }
    }

    /// The game was loaded.
    pub fn loaded(&self, path: &str) -> String {
        if self.ru() {
            format!("Партия загружена из {path}.")
        } else {
            format!("Game loaded from {path}.")
        }
    }

    /// A file could not be written or read.
    pub fn file_error(&self, path: &str, err: &str) -> String {
        if self.ru() {
            format!("Ошибка с файлом {path}: {err}")
        } else {
            format!("Problem with {path}: {err}")
        }
    }

    /// The hints heading.
    pub fn hints(&self, list: &str) -> String {
        if self.ru() {
            format!("Подсказка (лучшие ходы, оценка в фишках): {list}")
        } else {
            format!("Hint (best moves, evaluation in discs): {list}")
        }
    }

    /// Goodbye.
    pub fn bye(&self) -> &'static str {
        if self.ru() {
            "До свидания!"
        } else {
            "Goodbye!"
        }
    }

    /// The list of commands.
    pub fn help(&self) -> &'static str {
        if self.ru() {
            "Команды:\n  d3          сделать ход (столбец a–h, строка 1–8)\n  hint [N]    лучшие ходы с оценками\n  undo        отменить ход (до вашего предыдущего хода)\n  redo        вернуть отменённый ход\n  save ФАЙЛ   записать партию (.ggf — GGF, иначе запись ходов)\n  load ФАЙЛ   загрузить партию (GGF или запись ходов)\n  board       показать доску\n  quit        выйти\n  help        эта справка\nНа доске: X чёрные, O белые, * возможный ход, [X] последний ход, x/o перевёрнутые им фишки."
        } else {
            "Commands:\n  d3          play a move (column a-h, row 1-8)\n  hint [N]    the best moves with evaluations\n  undo        take back a move (to your previous turn)\n  redo        replay an undone move\n  save FILE   save the game (.ggf: GGF, otherwise a transcript)\n  load FILE   load a game (GGF or a transcript)\n  board       show the board\n  quit        leave\n  help        this list\nOn the board: X black, O white, * a legal move, [X] the last move, x/o the discs it flipped."
        }
    }
}
