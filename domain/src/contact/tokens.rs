//! The folded text as words and marks: "@" and "." however written ("(at)", "[.]", "punt",
//! "ät"), ":", "/", "#", masks ("•••", "***"), and single letters spaced out ("w w w") joined
//! into the word they spell.

use super::words::{app_name, is_at_word, is_dot_word};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    Word,
    /// "@", or a word or bracket that stands for it.
    At,
    /// ".", or a word or bracket that stands for it.
    Dot,
    Colon,
    Slash,
    Hash,
    Comma,
    /// "=", "→", "-" standing alone: "snap - anna".
    Link,
    /// "•••", "***": a part someone hid (and so points at what is left).
    Mask,
}

#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub tok: Tok,
    /// Byte range in the folded text.
    pub start: usize,
    pub end: usize,
    /// The word (folded), or the mark as written.
    pub word: String,
    /// Nothing stands between this and the token before.
    pub joined: bool,
    /// "@" or "." written as such (not a word, not in brackets).
    pub literal: bool,
    /// An emoji standing for a messenger (👻).
    pub emoji: bool,
    /// Written with a capital and then small letters in the original ("Nu" in "thuis.Nu").
    pub capital: bool,
}

impl Token {
    pub fn is(&self, tok: Tok) -> bool {
        self.tok == tok
    }

    pub fn has_letter(&self) -> bool {
        self.word.chars().any(char::is_alphabetic)
    }

    /// A name as handles are made: letters with digits, "_" or a dot inside ("anna_99",
    /// "jan1990"), not a number with a unit ("85kg", "3e").
    pub fn handle_like(&self) -> bool {
        let w = &self.word;
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let digits = w.chars().filter(char::is_ascii_digit).count();
        if letters == 0 || w.chars().count() < 3 {
            return false;
        }
        w.contains('_') || (digits > 0 && !(w.starts_with(|c: char| c.is_ascii_digit()) && letters <= 3))
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// What a bracketed mark stands for: "(at)", "[@]", "(a)", "[.]", "(punt)".
fn bracketed(inner: &str) -> Option<Tok> {
    let inner = inner.trim();
    if inner == "@" || inner == "a" || is_at_word(inner) {
        Some(Tok::At)
    } else if inner == "." || is_dot_word(inner) {
        Some(Tok::Dot)
    } else {
        None
    }
}

pub(crate) fn tokenize(text: &str) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut prev_end = usize::MAX;
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().unwrap_or(' ');
        let len = c.len_utf8();
        let joined = prev_end == i;
        let push = |out: &mut Vec<Token>, tok: Tok, start: usize, end: usize, word: String, literal: bool, emoji: bool| {
            out.push(Token { tok, start, end, word, joined, literal, emoji, capital: false });
            end
        };
        if is_word_char(c) || (c == '$' && text[i + 1..].starts_with(|d: char| d.is_alphabetic())) {
            let mut end = i + len;
            while let Some(d) = text[end..].chars().next() {
                if is_word_char(d) || (d == '-' && text[end + 1..].starts_with(is_word_char)) {
                    end += d.len_utf8();
                } else {
                    break;
                }
            }
            let word = text[i..end].replace('$', "s");
            prev_end = push(&mut out, Tok::Word, i, end, word, false, false);
            i = end;
            continue;
        }
        let single = match c {
            '@' => Some((Tok::At, true)),
            '.' => Some((Tok::Dot, true)),
            ':' => Some((Tok::Colon, false)),
            '/' => Some((Tok::Slash, false)),
            '#' => Some((Tok::Hash, false)),
            ',' => Some((Tok::Comma, false)),
            '=' | '→' | '➡' | '>' | '-' | '⇒' | '➜' | '➔' | '~' => Some((Tok::Link, false)),
            _ => None,
        };
        if let Some((tok, literal)) = single {
            prev_end = push(&mut out, tok, i, i + len, c.to_string(), literal, false);
            i += len;
            continue;
        }
        if matches!(c, '•' | '*' | '●' | '∙' | '·' | '◦' | '…') {
            let mut end = i + len;
            while let Some(d) = text[end..].chars().next().filter(|d| matches!(d, '•' | '*' | '●' | '∙' | '·' | '◦' | '…' | '.')) {
                end += d.len_utf8();
            }
            prev_end = push(&mut out, Tok::Mask, i, end, text[i..end].to_string(), false, false);
            i = end;
            continue;
        }
        if matches!(c, '(' | '[' | '{' | '<') {
            let close = match c {
                '(' => ')',
                '[' => ']',
                '{' => '}',
                _ => '>',
            };
            if let Some(n) = text[i + 1..].find(close).filter(|n| *n <= 14) {
                if let Some(tok) = bracketed(&text[i + 1..i + 1 + n]) {
                    let end = i + 1 + n + 1;
                    prev_end = push(&mut out, tok, i, end, text[i..end].to_string(), false, false);
                    i = end;
                    continue;
                }
            }
        }
        if c == '👻' || c == '📸' || c == '📷' {
            let word = if c == '👻' { "snapchat" } else { "instagram" };
            prev_end = push(&mut out, Tok::Word, i, i + len, word.to_string(), false, true);
            i += len;
            continue;
        }
        // Spaces and any other character part two tokens.
        i += len;
    }
    fold_words(out, text)
}

/// Words that stand for marks, spelled-out words, hidden letters in a messenger's name.
fn fold_words(tokens: Vec<Token>, text: &str) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        // "w w w", "s n a p", "s.n.a.p": three or more single letters spaced or dotted.
        if t.is(Tok::Word) && t.word.chars().count() == 1 && t.has_letter() {
            let (mut j, mut word, mut dotted) = (i, t.word.clone(), false);
            loop {
                let gap_is_space = |a: &Token, b: &Token| b.start == a.end + 1 && text.as_bytes()[a.end] == b' ';
                let single = |k: usize| tokens.get(k).is_some_and(|n| n.is(Tok::Word) && n.word.chars().count() == 1 && n.has_letter());
                if single(j + 1) && gap_is_space(&tokens[j], &tokens[j + 1]) && !dotted {
                    word.push_str(&tokens[j + 1].word);
                    j += 1;
                } else if tokens.get(j + 1).is_some_and(|d| d.is(Tok::Dot) && d.literal && d.joined)
                    && single(j + 2)
                    && tokens[j + 2].joined
                    && (j == i || dotted)
                {
                    word.push_str(&tokens[j + 2].word);
                    j += 2;
                    dotted = true;
                } else {
                    break;
                }
            }
            if word.chars().count() >= 3 {
                out.push(Token { tok: Tok::Word, end: tokens[j].end, word, ..t.clone() });
                i = j + 1;
                continue;
            }
        }
        // "sn@p", "wh@tsapp": a messenger's name with "@" for "a".
        if t.is(Tok::Word)
            && tokens.get(i + 1).is_some_and(|a| a.is(Tok::At) && a.literal && a.joined)
            && tokens.get(i + 2).is_some_and(|w| w.is(Tok::Word) && w.joined)
        {
            let word = format!("{}a{}", t.word, tokens[i + 2].word);
            if app_name(&word).is_some_and(|(_, short)| !short) {
                out.push(Token { tok: Tok::Word, end: tokens[i + 2].end, word, ..t.clone() });
                i += 3;
                continue;
            }
        }
        // "g mail".
        if t.is(Tok::Word) && t.word == "g" && tokens.get(i + 1).is_some_and(|w| w.is(Tok::Word) && w.word == "mail") {
            out.push(Token { tok: Tok::Word, end: tokens[i + 1].end, word: "gmail".into(), ..t.clone() });
            i += 2;
            continue;
        }
        let mut t = t.clone();
        if t.is(Tok::Word) {
            if is_at_word(&t.word) {
                t.tok = Tok::At;
            } else if is_dot_word(&t.word) {
                t.tok = Tok::Dot;
            }
        }
        out.push(t);
        i += 1;
    }
    out
}
