//! WTHOR, the French federation's binary game database (`data/wthor/`, `data/README.md`).
//!
//! Every file starts with a 16-byte little-endian [`WthorHeader`], followed by fixed-size records:
//! - `WTH_YYYY.wtb`: 68-byte games on 8×8 ([`parse_games`]); `.wtd` files hold 104-byte games on
//!   10×10 and are read the same way;
//! - `WTHOR.JOU`: 20-byte player names, `WTHOR.TRN`: 26-byte tournament names ([`parse_names`]),
//!   NUL-padded Latin-1.
//!
//! A game record stores the tournament and both players by number, black's final disc count
//! (empties to the winner), black's theoretical score with perfect play from
//! [`WthorHeader::depth`] empties, and the moves as `10 * row + col` bytes (`11` = a1, `88` = h8;
//! `12 * row + col` on 10×10), 0 after the last. Passes are not stored: [`WthorGame::to_game`]
//! replays the moves and inserts the forced passes.

use crate::game::{Game, GameError};
use crate::rules::{Rules, Variant};
use crate::square::{Move, Square};

/// The size of the header every WTHOR file starts with.
pub const HEADER_LEN: usize = 16;
/// The size of a game record on 8×8 (`.wtb`).
pub const GAME_LEN_8: usize = 68;
/// The size of a game record on 10×10 (`.wtd`).
pub const GAME_LEN_10: usize = 104;
/// The size of a player record (`WTHOR.JOU`).
pub const PLAYER_LEN: usize = 20;
/// The size of a tournament record (`WTHOR.TRN`).
pub const TOURNAMENT_LEN: usize = 26;

/// The date a WTHOR file was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WthorDate {
    /// The full year (century byte × 100 + year byte).
    pub year: u16,
    /// The month, 1–12.
    pub month: u8,
    /// The day of the month.
    pub day: u8,
}

/// The 16-byte header of every WTHOR file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WthorHeader {
    /// When the file was made (bytes 0–3).
    pub created: WthorDate,
    /// The number of games (N1, bytes 4–7); 0 in name files.
    pub game_count: u32,
    /// The number of names (N2, bytes 8–9) in a `.jou`/`.trn` file; 0 in game files.
    pub record_count: u16,
    /// The year of the games (bytes 10–11); 0 in name files.
    pub year: u16,
    /// The board size (byte 12): 0 or 8 for 8×8, 10 for 10×10.
    pub board_size: u8,
    /// The file type (byte 13): 0 for games, 1 for solitaires.
    pub kind: u8,
    /// The number of empties from which the theoretical score is computed (byte 14; 0 means 22).
    pub depth: u8,
}

impl WthorHeader {
    /// Reads a header from the first 16 bytes of `bytes`.
    pub fn parse(bytes: &[u8]) -> Result<WthorHeader, WthorError> {
        let h: &[u8; HEADER_LEN] = bytes
            .get(..HEADER_LEN)
            .and_then(|h| h.try_into().ok())
            .ok_or(WthorError::TruncatedHeader { len: bytes.len() })?;
        Ok(WthorHeader {
            created: WthorDate {
                year: h[0] as u16 * 100 + h[1] as u16,
                month: h[2],
                day: h[3],
            },
            game_count: u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
            record_count: u16::from_le_bytes([h[8], h[9]]),
            year: u16::from_le_bytes([h[10], h[11]]),
            board_size: h[12],
            kind: h[13],
            depth: h[14],
        })
    }

    /// The board side the game records are for: 8 or 10.
    pub fn side(&self) -> Result<u8, WthorError> {
        match self.board_size {
            0 | 8 => Ok(8),
            10 => Ok(10),
            n => Err(WthorError::BadBoardSize(n)),
        }
    }

    /// The empties at which the theoretical score starts (the stored depth, 0 read as 22).
    pub fn theoretical_depth(&self) -> u8 {
        if self.depth == 0 {
            22
        } else {
            self.depth
        }
    }
}

/// A WTHOR file that cannot be read: what is wrong and where (byte offset, record index, ply).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WthorError {
    /// Fewer than 16 bytes.
    #[error("truncated header: the file has {len} bytes, the header needs 16")]
    TruncatedHeader {
        /// The file length.
        len: usize,
    },
    /// A board size other than 0, 8 or 10.
    #[error("byte 12: board size {0} is not 0, 8 or 10")]
    BadBoardSize(u8),
    /// A file type other than games.
    #[error("byte 13: file type {0} is not a game file (0)")]
    NotGames(u8),
    /// The file ends inside a record.
    #[error("truncated record {index} at byte {offset}: it needs {needed} bytes, {available} are left")]
    TruncatedRecord {
        /// 0-based record index.
        index: usize,
        /// Byte offset of the record.
        offset: usize,
        /// The record size.
        needed: usize,
        /// Bytes left in the file.
        available: usize,
    },
    /// Bytes after the last record announced by the header.
    #[error("{extra} bytes after the {count} records the header announces (from byte {offset})")]
    TrailingBytes {
        /// The number of records in the header.
        count: usize,
        /// Byte offset of the first extra byte.
        offset: usize,
        /// The number of extra bytes.
        extra: usize,
    },
    /// A move byte that is not a square.
    #[error("game {game}, ply {ply} (byte {offset}): move byte {byte} is not a square")]
    BadMove {
        /// 0-based game index.
        game: usize,
        /// 1-based move number (passes not counted).
        ply: usize,
        /// The byte.
        byte: u8,
        /// Byte offset in the file.
        offset: usize,
    },
    /// A move byte after the 0 that ends the move list.
    #[error("game {game}, ply {ply} (byte {offset}): move byte {byte} after the end of the moves")]
    MoveAfterEnd {
        /// 0-based game index.
        game: usize,
        /// 1-based move number.
        ply: usize,
        /// The byte.
        byte: u8,
        /// Byte offset in the file.
        offset: usize,
    },
}

/// One game record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WthorGame {
    /// Index of the tournament in `WTHOR.TRN`.
    pub tournament: u16,
    /// Index of the black player in `WTHOR.JOU`.
    pub black: u16,
    /// Index of the white player in `WTHOR.JOU`.
    pub white: u16,
    /// Black's final disc count as stored (empties to the winner).
    pub black_discs: u8,
    /// Black's disc count with perfect play from [`WthorHeader::depth`] empties.
    pub theoretical: u8,
    /// Board side: 8, or 10 for `.wtd` games.
    pub side: u8,
    moves: Vec<Square>,
}

impl WthorGame {
    /// A game record (for tests and conversions); `side` is 8 or 10.
    pub fn new(
        tournament: u16,
        black: u16,
        white: u16,
        black_discs: u8,
        theoretical: u8,
        side: u8,
        moves: Vec<Square>,
    ) -> WthorGame {
        WthorGame {
            tournament,
            black,
            white,
            black_discs,
            theoretical,
            side,
            moves,
        }
    }

    /// The squares played, in order (passes are not stored).
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The rules the game was played under: standard Othello, or 10×10 for `.wtd` games.
    pub fn rules(&self) -> Rules {
        if self.side == 10 {
            Rules::new(Variant::Grand, 0)
        } else {
            Rules::othello()
        }
    }

    /// Replays the game from the start, inserting forced passes.
    pub fn to_game(&self) -> Result<Game, GameError> {
        let moves: Vec<Move> = self.moves.iter().map(|&s| Move::Play(s)).collect();
        Game::replay(self.rules(), &moves)
    }

    /// Black's stored result as a disc difference (`2 × black_discs − squares`): positive when black
    /// won.
    pub fn black_margin(&self) -> i32 {
        2 * self.black_discs as i32 - (self.side as i32 * self.side as i32)
    }
}

/// A game file: its header and its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGames {
    /// The header.
    pub header: WthorHeader,
    /// The games, in file order.
    pub games: Vec<WthorGame>,
}

/// A player (`.jou`) or tournament (`.trn`) file: its header and the names, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorNames {
    /// The header.
    pub header: WthorHeader,
    /// The names; a record's index is its number in game records.
    pub names: Vec<String>,
}

impl WthorNames {
    /// The name with number `index`, if there is one.
    pub fn get(&self, index: u16) -> Option<&str> {
        self.names.get(index as usize).map(String::as_str)
    }
}

fn records(bytes: &[u8], count: usize, len: usize) -> Result<std::slice::ChunksExact<'_, u8>, WthorError> {
    let body = &bytes[HEADER_LEN..];
    let whole = body.len() / len;
    if whole < count {
        let offset = HEADER_LEN + whole * len;
        return Err(WthorError::TruncatedRecord {
            index: whole,
            offset,
            needed: len,
            available: bytes.len() - offset,
        });
    }
    if body.len() > count * len {
        let offset = HEADER_LEN + count * len;
        return Err(WthorError::TrailingBytes {
            count,
            offset,
            extra: bytes.len() - offset,
        });
    }
    Ok(body.chunks_exact(len))
}

/// Reads a game file (`.wtb`, or `.wtd` on 10×10): header and every record, checking each move byte.
pub fn parse_games(bytes: &[u8]) -> Result<WthorGames, WthorError> {
    let header = WthorHeader::parse(bytes)?;
    if header.kind != 0 {
        return Err(WthorError::NotGames(header.kind));
    }
    let side = header.side()?;
    let (len, base) = if side == 10 {
        (GAME_LEN_10, 12)
    } else {
        (GAME_LEN_8, 10)
    };
    // The sizes are checked before anything is allocated from the header's count.
    let records = records(bytes, header.game_count as usize, len)?;
    let mut games = Vec::with_capacity(records.len());
    for (game, r) in records.enumerate() {
        let record_offset = HEADER_LEN + game * len;
        let word = |i: usize| u16::from_le_bytes([r[i], r[i + 1]]);
        let mut moves = Vec::with_capacity(len - 8);
        let mut ended = false;
        for (k, &byte) in r[8..].iter().enumerate() {
            let offset = record_offset + 8 + k;
            let ply = k + 1;
            if byte == 0 {
                ended = true;
                continue;
            }
            if ended {
                return Err(WthorError::MoveAfterEnd {
                    game,
                    ply,
                    byte,
                    offset,
                });
            }
            let (row, col) = (byte / base, byte % base);
            match Square::new(col.wrapping_sub(1), row.wrapping_sub(1)) {
                Some(sq) if (1..=side).contains(&row) && (1..=side).contains(&col) => moves.push(sq),
                _ => {
                    return Err(WthorError::BadMove {
                        game,
                        ply,
                        byte,
                        offset,
                    })
                }
            }
        }
        games.push(WthorGame {
            tournament: word(0),
            black: word(2),
            white: word(4),
            black_discs: r[6],
            theoretical: r[7],
            side,
            moves,
        });
    }
    Ok(WthorGames { header, games })
}

fn parse_names(bytes: &[u8], len: usize) -> Result<WthorNames, WthorError> {
    let header = WthorHeader::parse(bytes)?;
    let names = records(bytes, header.record_count as usize, len)?
        .map(|r| {
            let end = r.iter().position(|&b| b == 0).unwrap_or(r.len());
            // Latin-1: every byte is the code point of the same value.
            r[..end]
                .iter()
                .map(|&b| b as char)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    Ok(WthorNames { header, names })
}

/// Reads a player file (`WTHOR.JOU`, 20-byte records).
pub fn parse_players(bytes: &[u8]) -> Result<WthorNames, WthorError> {
    parse_names(bytes, PLAYER_LEN)
}

/// Reads a tournament file (`WTHOR.TRN`, 26-byte records).
pub fn parse_tournaments(bytes: &[u8]) -> Result<WthorNames, WthorError> {
    parse_names(bytes, TOURNAMENT_LEN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(n1: u32, n2: u16, year: u16, size: u8) -> Vec<u8> {
        let mut h = vec![20, 26, 2, 23];
        h.extend(n1.to_le_bytes());
        h.extend(n2.to_le_bytes());
        h.extend(year.to_le_bytes());
        h.extend([size, 0, 24, 0]);
        h
    }

    fn game(moves: &[u8]) -> Vec<u8> {
        let mut r = vec![3, 0, 1, 0, 2, 0, 40, 36];
        r.extend(moves);
        r.resize(GAME_LEN_8, 0);
        r
    }

    #[test]
    fn reads_games() {
        let mut f = header(2, 0, 2024, 8);
        f.extend(game(&[56, 64, 33]));
        f.extend(game(&[]));
        let g = parse_games(&f).unwrap();
        assert_eq!(
            g.header.created,
            WthorDate {
                year: 2026,
                month: 2,
                day: 23
            }
        );
        assert_eq!(
            (g.header.game_count, g.header.year, g.header.depth),
            (2, 2024, 24)
        );
        assert_eq!(g.games.len(), 2);
        let first = &g.games[0];
        assert_eq!(
            (
                first.tournament,
                first.black,
                first.white,
                first.black_discs,
                first.theoretical
            ),
            (3, 1, 2, 40, 36)
        );
        assert_eq!(first.black_margin(), 16);
        let names: Vec<String> = first.moves().iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["f5", "d6", "c3"]);
        let game = first.to_game().unwrap();
        assert_eq!(game.transcript(), "f5d6c3");
        assert!(g.games[1].moves().is_empty());
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            parse_games(&[20, 26]),
            Err(WthorError::TruncatedHeader { len: 2 })
        );
        let mut f = header(2, 0, 2024, 8);
        f.extend(game(&[56]));
        f.extend(&game(&[])[..30]);
        assert_eq!(
            parse_games(&f),
            Err(WthorError::TruncatedRecord {
                index: 1,
                offset: 84,
                needed: 68,
                available: 30
            })
        );
        let mut f = header(1, 0, 2024, 8);
        f.extend(game(&[56, 64, 90]));
        assert_eq!(
            parse_games(&f),
            Err(WthorError::BadMove {
                game: 0,
                ply: 3,
                byte: 90,
                offset: 26
            })
        );
        let mut f = header(1, 0, 2024, 8);
        f.extend(game(&[56, 0, 33]));
        let e = parse_games(&f).unwrap_err();
        assert_eq!(
            e,
            WthorError::MoveAfterEnd {
                game: 0,
                ply: 3,
                byte: 33,
                offset: 26
            }
        );
        assert_eq!(
            e.to_string(),
            "game 0, ply 3 (byte 26): move byte 33 after the end of the moves"
        );
        let mut f = header(1, 0, 2024, 8);
        f.extend(game(&[19]));
        assert!(matches!(
            parse_games(&f),
            Err(WthorError::BadMove { byte: 19, .. })
        ));
        let mut f = header(0, 0, 2024, 8);
        f.push(1);
        assert_eq!(
            parse_games(&f),
            Err(WthorError::TrailingBytes {
                count: 0,
                offset: 16,
                extra: 1
            })
        );
        assert_eq!(
            parse_games(&header(0, 0, 2024, 9)),
            Err(WthorError::BadBoardSize(9))
        );
    }

    #[test]
    fn reads_ten_by_ten_games() {
        let mut f = header(1, 0, 2024, 10);
        let mut r = vec![0, 0, 0, 0, 0, 0, 60, 50];
        // g6 = col 7 + 12 * row 6.
        r.push(7 + 12 * 6);
        r.resize(GAME_LEN_10, 0);
        f.extend(r);
        let g = parse_games(&f).unwrap();
        assert_eq!(g.games[0].moves(), [Square::parse("g6").unwrap()]);
        assert_eq!(g.games[0].black_margin(), 20);
        assert!(g.games[0].to_game().is_ok());
    }

    #[test]
    fn reads_names() {
        let mut f = header(0, 2, 0, 0);
        let mut a = b"Tastet Marc".to_vec();
        a.resize(PLAYER_LEN, 0);
        let mut b = vec![b'L', 0xE9, b'a'];
        b.resize(PLAYER_LEN, 0);
        f.extend(a);
        f.extend(b);
        let n = parse_players(&f).unwrap();
        assert_eq!(n.names, ["Tastet Marc", "Léa"]);
        assert_eq!(n.get(1), Some("Léa"));
        assert_eq!(n.get(2), None);
        assert!(matches!(
            parse_tournaments(&f),
            Err(WthorError::TruncatedRecord {
                index: 1,
                offset: 42,
                ..
            })
        ));
    }
}
