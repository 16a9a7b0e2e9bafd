//! The words of Reversi, in English and Russian: every message the web app, the terminal game
//! and the printed sheets show comes from one Fluent file per language
//! (`locales/en.ftl`, `locales/ru.ftl`, embedded in the binary), so that Russian plurals
//! (1 фишка, 2 фишки, 5 фишек) and word order are the translators' business, not the code's.
//!
//! ```
//! use reversi_i18n::{tr, t, Lang};
//! assert_eq!(tr(Lang::En, "color-black"), "Black");
//! assert_eq!(t!(Lang::Ru, "discs-count", n = 5), "5 фишек");
//! assert_eq!(t!(Lang::Ru, "discs-count", n = 2), "2 фишки");
//! ```
//!
//! The web front end formats the same messages in the browser (with Fluent's own JavaScript
//! library), from the text [`source`] gives it.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

pub use fluent_bundle::{FluentArgs as Args, FluentValue as Value};

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Russian.
    Ru,
}

impl Lang {
    /// Both languages.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The language's code: `en` or `ru`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// The language of a locale name (`LANG`-style, `ru_RU.UTF-8`) or an HTTP
    /// `Accept-Language` value: Russian when it starts with `ru`, English otherwise.
    pub fn from_locale(locale: &str) -> Lang {
        if locale.trim().to_ascii_lowercase().starts_with("ru") {
            Lang::Ru
        } else {
            Lang::En
        }
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        match s.to_ascii_lowercase().as_str() {
            "en" | "english" => Ok(Lang::En),
            "ru" | "russian" => Ok(Lang::Ru),
            _ => Err(format!(
                "language `{}` must be `en` or `ru`",
                s.chars().take(40).collect::<String>()
            )),
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

const EN: &str = include_str!("../locales/en.ftl");
const RU: &str = include_str!("../locales/ru.ftl");
const LEARN_EN: &str = include_str!("../locales/learn.en.ftl");
const LEARN_RU: &str = include_str!("../locales/learn.ru.ftl");
const ABOUT_EN: &str = include_str!("../locales/about.en.ftl");
const ABOUT_RU: &str = include_str!("../locales/about.ru.ftl");
const MAIL_EN: &str = include_str!("../locales/mail.en.ftl");
const MAIL_RU: &str = include_str!("../locales/mail.ru.ftl");

/// A file of messages. The web front end loads [`Part::Main`] on every page and the others
/// only with the pages that need them (the lessons' text is as long as the rest together);
/// everything else here sees all of them as one set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// `LANG.ftl`: the interface, the terminal, the printed sheets.
    Main,
    /// `learn.LANG.ftl`: the lessons of `/learn`.
    Learn,
    /// `about.LANG.ftl`: the page about the game's history.
    About,
    /// `mail.LANG.ftl`: the letters the site mails (the server's alone).
    Mail,
}

impl Part {
    /// Every part.
    pub const ALL: [Part; 4] = [Part::Main, Part::Learn, Part::About, Part::Mail];

    /// The part's name (`learn`), as the web front end asks for it; `main` for [`Part::Main`].
    pub fn name(self) -> &'static str {
        match self {
            Part::Main => "main",
            Part::Learn => "learn",
            Part::About => "about",
            Part::Mail => "mail",
        }
    }

    /// The part of a name written by [`Part::name`].
    pub fn parse(s: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// The Fluent source of `lang`'s main messages (what the web front end loads on every page).
pub fn source(lang: Lang) -> &'static str {
    part_source(lang, Part::Main)
}

/// The Fluent source of one part of `lang`'s messages.
pub fn part_source(lang: Lang, part: Part) -> &'static str {
    match (lang, part) {
        (Lang::En, Part::Main) => EN,
        (Lang::Ru, Part::Main) => RU,
        (Lang::En, Part::Learn) => LEARN_EN,
        (Lang::Ru, Part::Learn) => LEARN_RU,
        (Lang::En, Part::About) => ABOUT_EN,
        (Lang::Ru, Part::About) => ABOUT_RU,
        (Lang::En, Part::Mail) => MAIL_EN,
        (Lang::Ru, Part::Mail) => MAIL_RU,
    }
}

fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: OnceLock<[FluentBundle<FluentResource>; 2]> = OnceLock::new();
    let all = BUNDLES.get_or_init(|| {
        Lang::ALL.map(|l| {
            let id: unic_langid::LanguageIdentifier = l.code().parse().expect("a language code");
            let mut b = FluentBundle::new_concurrent(vec![id]);
            // Plain text out: no Unicode isolation marks around arguments (the terminal and
            // the printed sheets show them as boxes).
            b.set_use_isolating(false);
            for part in Part::ALL {
                let res =
                    FluentResource::try_new(part_source(l, part).to_string()).unwrap_or_else(|(_, e)| {
                        panic!("{} {} messages do not parse: {e:?}", l.code(), part.name())
                    });
                b.add_resource(res).expect("no message defined twice");
            }
            b
        })
    });
    &all[lang as usize]
}

/// The message `id` in `lang`, without arguments.
pub fn tr(lang: Lang, id: &str) -> String {
    format(lang, id, None)
}

/// The message `id` in `lang` with `args`. A message that does not exist gives its id (the
/// tests make sure that none is missing).
pub fn format(lang: Lang, id: &str, args: Option<&FluentArgs>) -> String {
    let b = bundle(lang);
    let Some(pattern) = b.get_message(id).and_then(|m| m.value()) else {
        return id.to_string();
    };
    let mut errors = Vec::new();
    b.format_pattern(pattern, args, &mut errors).into_owned()
}

/// Whether `lang` has the message `id`.
pub fn has(lang: Lang, id: &str) -> bool {
    bundle(lang).has_message(id)
}

/// The ids of every message of `lang`, in file order (the parts one after another).
pub fn message_ids(lang: Lang) -> Vec<String> {
    Part::ALL.into_iter().flat_map(|p| part_ids(lang, p)).collect()
}

/// The ids of the messages of one part of `lang`, in file order.
pub fn part_ids(lang: Lang, part: Part) -> Vec<String> {
    let res = fluent_syntax::parser::parse(part_source(lang, part)).unwrap_or_else(|(r, _)| r);
    res.body
        .iter()
        .filter_map(|e| match e {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
            fluent_syntax::ast::Entry::Term(t) => Some(format!("-{}", t.id.name)),
            _ => None,
        })
        .collect()
}

/// `t!(lang, "id")` or `t!(lang, "id", name = value, …)`: the message with its arguments
/// (numbers, strings, anything a [`Value`] is made from).
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:expr) => {
        $crate::tr($lang, $id)
    };
    ($lang:expr, $id:expr, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::Args::new();
        $(args.set(stringify!($name), $value);)+
        $crate::format($lang, $id, Some(&args))
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_parse_and_have_the_same_messages() {
        for lang in Lang::ALL {
            for part in Part::ALL {
                let (res, errors) = match fluent_syntax::parser::parse(part_source(lang, part)) {
                    Ok(r) => (r, Vec::new()),
                    Err((r, e)) => (r, e),
                };
                assert!(errors.is_empty(), "{lang} {}: {errors:?}", part.name());
                assert!(!res.body.is_empty());
            }
            for part in Part::ALL {
                let (mut en, mut ru) = (part_ids(Lang::En, part), part_ids(Lang::Ru, part));
                en.sort();
                ru.sort();
                assert_eq!(en, ru, "{}: the two languages' ids differ", part.name());
            }
        }
        let en = message_ids(Lang::En);
        let ru = message_ids(Lang::Ru);
        let missing_ru: Vec<_> = en.iter().filter(|id| !ru.contains(id)).collect();
        let missing_en: Vec<_> = ru.iter().filter(|id| !en.contains(id)).collect();
        assert!(missing_ru.is_empty(), "not in ru.ftl: {missing_ru:?}");
        assert!(missing_en.is_empty(), "not in en.ftl: {missing_en:?}");
        let mut sorted = en.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), en.len(), "an id defined twice");
    }

    /// Russian agreement and plurals (issue 55's audit): a colour is plural («чёрные
    /// пропускают ход», as the source texts put it), and counts take the three forms.
    #[test]
    fn russian_agrees_and_counts() {
        let ru = Lang::Ru;
        assert_eq!(
            crate::t!(ru, "play-pass", color = "black"),
            "У чёрных (X) нет хода: они пропускают ход."
        );
        for (n, word) in [
            (1, "ход."),
            (2, "хода."),
            (4, "хода."),
            (5, "ходов."),
            (11, "ходов."),
            (21, "ход."),
            (22, "хода."),
        ] {
            let s = crate::t!(ru, "learn-go-on", n = n);
            assert!(s.ends_with(&format!("{n} {word}")), "{n}: {s}");
        }
        for (n, word) in [
            (1, "фишку"),
            (3, "фишки"),
            (5, "фишек"),
            (12, "фишек"),
            (21, "фишку"),
        ] {
            let s = crate::t!(ru, "learn-right-most-flips", value = n);
            assert!(s.contains(&format!("{n} {word}")), "{n}: {s}");
        }
        assert_eq!(crate::t!(Lang::En, "learn-go-on", n = 1), "One more move.");
    }

    #[test]
    fn every_message_formats_without_errors() {
        // Each message is formatted with every variable the file names set (to a number): a
        // reference to a missing message or term, or a syntax slip, is an error.
        for lang in Lang::ALL {
            let b = bundle(lang);
            let mut args = FluentArgs::new();
            for v in Part::ALL
                .into_iter()
                .flat_map(|p| variables(part_source(lang, p)))
            {
                args.set(v, 3);
            }
            for id in message_ids(lang).into_iter().filter(|i| !i.starts_with('-')) {
                let Some(p) = b.get_message(&id).and_then(|m| m.value()) else {
                    continue;
                };
                let mut errors = Vec::new();
                let _ = b.format_pattern(p, Some(&args), &mut errors);
                assert!(errors.is_empty(), "{lang} {id}: {errors:?}");
            }
        }
    }

    /// Each message's `$variables`, by id (a message runs from its `id =` line to the next
    /// line that starts neither with a space nor with `[`/`*` of a variant).
    fn message_variables(src: &str) -> std::collections::BTreeMap<String, Vec<String>> {
        let mut out = std::collections::BTreeMap::new();
        let mut id: Option<String> = None;
        let mut text = String::new();
        let mut flush = |id: &mut Option<String>, text: &mut String| {
            if let Some(i) = id.take() {
                let mut v = variables(text);
                v.sort();
                out.insert(i, v);
            }
            text.clear();
        };
        for line in src.lines() {
            let starts_message = line.split_once(" =").is_some_and(|(head, _)| {
                !head.is_empty() && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            });
            if starts_message {
                flush(&mut id, &mut text);
                id = Some(line.split_once(" =").unwrap().0.to_string());
            } else if line.starts_with('#') || (line.trim().is_empty() && !line.is_empty()) {
                flush(&mut id, &mut text);
                continue;
            }
            text.push_str(line);
            text.push('\n');
        }
        flush(&mut id, &mut text);
        out
    }

    /// A message says the same things in both languages: the same `$variables` (a page passes
    /// one set of them; a variable renamed in one file only shows as an error there). Russian
    /// may name the colour where English needs not: its verbs and adjectives agree with it.
    #[test]
    fn both_languages_use_the_same_variables() {
        let agreement = |v: &Vec<String>| v.iter().filter(|x| *x != "color").cloned().collect::<Vec<_>>();
        for part in Part::ALL {
            let en = message_variables(part_source(Lang::En, part));
            let ru = message_variables(part_source(Lang::Ru, part));
            let differ: Vec<_> = en
                .iter()
                .filter(|(id, v)| {
                    ru.get(*id).is_some_and(|r| {
                        r != *v && !(agreement(r) == agreement(v) && v.iter().all(|x| r.contains(x)))
                    })
                })
                .map(|(id, v)| format!("{id}: en {v:?}, ru {:?}", ru[id]))
                .collect();
            assert!(differ.is_empty(), "{}: {differ:#?}", part.name());
        }
    }

    /// Every `$variable` the file names.
    fn variables(src: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for part in src.split('$').skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
        }
        out
    }

    #[test]
    fn russian_plurals_follow_the_rules() {
        for (n, want) in [
            (1, "1 фишка"),
            (2, "2 фишки"),
            (4, "4 фишки"),
            (5, "5 фишек"),
            (11, "11 фишек"),
            (12, "12 фишек"),
            (21, "21 фишка"),
            (22, "22 фишки"),
            (25, "25 фишек"),
            (64, "64 фишки"),
            (100, "100 фишек"),
            (111, "111 фишек"),
        ] {
            assert_eq!(t!(Lang::Ru, "discs-count", n = n), want, "{n}");
        }
        assert_eq!(t!(Lang::En, "discs-count", n = 1), "1 disc");
        assert_eq!(t!(Lang::En, "discs-count", n = 2), "2 discs");
        assert_eq!(tr(Lang::En, "no-such-message"), "no-such-message");
    }
}
