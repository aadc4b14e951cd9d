//! Messenger names: "@anna_99", "snap: anna", "mijn insta is anna.b", "👻 anna_b",
//! "anna_99 op snap", "discord anna#1234", "skype live:anna", "s•••: anna" (the app's name
//! hidden, the handle left), "add me: anna_99".

use super::common::is_common;
use super::tokens::{Tok, Token};
use super::words::{app_name, is_add_word, is_copula, is_filler, is_name_word, is_on_word, is_possessive, is_word_like_app};
use super::{ContactKind, TokenHit};

fn word(tokens: &[Token], i: usize) -> Option<&Token> {
    tokens.get(i).filter(|t| t.is(Tok::Word))
}

/// Whether a handle may start at `k`: letters in it, and if it is one word, not a common
/// word nor an app's name ("the.tom" may, "the" alone may not).
fn may_be_handle(tokens: &[Token], k: usize) -> bool {
    let Some(t) = tokens.get(k).filter(|t| t.is(Tok::Word) && !t.emoji) else { return false };
    if handle_end(tokens, k) > k {
        return tokens[k..=handle_end(tokens, k)].iter().any(Token::has_letter);
    }
    t.has_letter() && t.word.chars().count() >= 2 && !is_common(&t.word) && app_name(&t.word).is_none()
}

/// The last token of a handle starting at `k` ("anna.b_99" is three tokens, "anna#1234"
/// three too).
fn handle_end(tokens: &[Token], k: usize) -> usize {
    let mut last = k;
    while tokens.get(last + 1).is_some_and(|d| d.is(Tok::Dot) && d.literal && d.joined) && word(tokens, last + 2).is_some_and(|w| w.joined) {
        last += 2;
    }
    if tokens.get(last + 1).is_some_and(|h| h.is(Tok::Hash) && h.joined)
        && word(tokens, last + 2).is_some_and(|d| d.joined && d.word.chars().all(|c| c.is_ascii_digit()))
    {
        last += 2;
    }
    last
}

/// Whether a handle (from `k` to `last`) has a dot, a digit or "_" in it.
fn handle_like(tokens: &[Token], k: usize, last: usize) -> bool {
    last > k || tokens[k].handle_like()
}

fn add_before(tokens: &[Token], i: usize, reach: usize) -> bool {
    tokens[i.saturating_sub(reach)..i].iter().any(|t| t.is(Tok::Word) && is_add_word(&t.word))
}

pub(crate) fn find_messengers(tokens: &[Token], used: &mut [bool], out: &mut Vec<TokenHit>) {
    let mut push = |first: usize, last: usize, reason: &'static str, used: &mut [bool]| {
        used[first..=last].iter_mut().for_each(|u| *u = true);
        out.push(TokenHit { kind: ContactKind::Messenger, start: tokens[first].start, end: tokens[last].end, reason });
    };
    let n = tokens.len();
    let mut i = 0;
    while i < n {
        if used[i] {
            i += 1;
            continue;
        }
        let t = &tokens[i];
        // "anna#1234" (Discord), "live:anna_b" (Skype).
        if t.is(Tok::Word) && t.has_letter() && tokens.get(i + 1).is_some_and(|h| h.is(Tok::Hash) && h.joined) {
            if let Some(d) = word(tokens, i + 2).filter(|d| d.joined && d.word.len() == 4 && d.word.chars().all(|c| c.is_ascii_digit())) {
                let _ = d;
                push(i, i + 2, "a name and a four-digit tag", used);
                i += 3;
                continue;
            }
        }
        if t.is(Tok::Word)
            && t.word == "live"
            && tokens.get(i + 1).is_some_and(|c| c.is(Tok::Colon) && c.joined)
            && word(tokens, i + 2).is_some_and(|w| w.joined)
        {
            let last = handle_end(tokens, i + 2);
            push(i, last, "a Skype name", used);
            i = last + 1;
            continue;
        }
        // "@anna_99".
        if t.is(Tok::At) && t.literal && !(t.joined && i > 0 && tokens[i - 1].is(Tok::Word)) {
            if let Some(h) = tokens.get(i + 1).filter(|h| h.joined && may_be_handle(tokens, i + 1)) {
                let _ = h;
                let last = handle_end(tokens, i + 1);
                push(i, last, "\"@\" and a name", used);
                i = last + 1;
                continue;
            }
        }
        // "s•••: anna", "my ***: anna_99".
        if t.is(Tok::Mask) {
            let k = if tokens.get(i + 1).is_some_and(|c| matches!(c.tok, Tok::Colon | Tok::Link)) { i + 2 } else { usize::MAX };
            if let Some(h) = tokens.get(k).filter(|_| may_be_handle(tokens, k)) {
                let _ = h;
                let last = handle_end(tokens, k);
                push(i, last, "a hidden app's name and a handle", used);
                i = last + 1;
                continue;
            }
        }
        if t.is(Tok::Word) {
            if let Some(last) = after_app(tokens, i) {
                if !used[last] {
                    push(i, last, "a messenger's name and a handle", used);
                    i = last + 1;
                    continue;
                }
            }
            if let Some(last) = before_app(tokens, i) {
                push(i, last, "a handle and where to find it", used);
                i = last + 1;
                continue;
            }
            // "voeg me toe: anna_99".
            if is_add_word(&t.word) && !matches!(t.word.as_str(), "als" | "as" | "comme" | "como" | "come" | "jako" | "som") {
                let mut k = i + 1;
                while k < n
                    && k <= i + 4
                    && (matches!(tokens[k].tok, Tok::Colon | Tok::Link)
                        || tokens[k].is(Tok::Word)
                            && (is_filler(&tokens[k].word)
                                || is_on_word(&tokens[k].word)
                                || matches!(tokens[k].word.as_str(), "toe" | "op" | "up" | "hinzu" | "moi")))
                {
                    k += 1;
                }
                if k < n && may_be_handle(tokens, k) && !used[k] {
                    let last = handle_end(tokens, k);
                    if handle_like(tokens, k, last) {
                        push(k, last, "asked to be added, and a handle", used);
                        i = last + 1;
                        continue;
                    }
                }
            }
        }
        i += 1;
    }
}

/// "snap: anna", "mijn insta is anna.b", "Snapchat-naam: anna", "👻 anna_b": the last token
/// of the handle after the app's name at `i`.
fn after_app(tokens: &[Token], i: usize) -> Option<usize> {
    let (_, short) = app_name(&tokens[i].word)?;
    let word_like = is_word_like_app(&tokens[i].word);
    let mut named = tokens[i].word.split_once('-').is_some_and(|(_, rest)| is_name_word(rest) || rest == "en");
    let (mut sep, mut copula) = (false, false);
    let mut j = i + 1;
    while j < tokens.len() && j <= i + 4 {
        let t = &tokens[j];
        match t.tok {
            Tok::Colon | Tok::Link => sep = true,
            Tok::At if t.literal => sep = true,
            Tok::Comma if short => sep = true,
            Tok::Word if is_name_word(&t.word) => named = true,
            Tok::Word if is_copula(&t.word) => copula = true,
            Tok::Word if is_filler(&t.word) || is_possessive(&t.word) => {}
            _ => break,
        }
        j += 1;
    }
    let h = tokens.get(j).filter(|_| may_be_handle(tokens, j))?;
    let last = handle_end(tokens, j);
    let like = handle_like(tokens, j, last);
    let possessive = tokens[i.saturating_sub(2)..i].iter().any(|t| is_possessive(&t.word)) || tokens[i].word.ends_with("-en");
    let ok = if short {
        sep || like
    } else if sep || named {
        true
    } else if copula {
        like || possessive
    } else {
        like || (!word_like && (add_before(tokens, i, 4) || tokens[i].emoji) && h.word.chars().count() >= 3)
    };
    if !ok {
        return None;
    }
    // "snap: jessie x91": a second part that is plainly part of it.
    let mut last = last;
    if let Some(next) = word(tokens, last + 1) {
        if next.handle_like() && !is_common(&next.word) && next.start <= tokens[last].end + 1 {
            last = handle_end(tokens, last + 1);
        }
    }
    Some(last)
}

/// "anna_99 op snap", "zoek me als anna op insta", "anna 👻": the last token of the handle
/// starting at `i`.
fn before_app(tokens: &[Token], i: usize) -> Option<usize> {
    let h = tokens.get(i).filter(|h| may_be_handle(tokens, i) && h.word.chars().count() >= 2)?;
    let last = handle_end(tokens, i);
    let like = handle_like(tokens, i, last);
    let next = tokens.get(last + 1)?;
    if next.emoji && next.is(Tok::Word) {
        return (like || !is_common(&h.word)).then_some(last);
    }
    let on = next.is(Tok::Word) && is_on_word(&next.word);
    let app = tokens.get(last + 2).filter(|a| a.is(Tok::Word) && app_name(&a.word).is_some())?;
    let _ = app;
    (on && (like || add_before(tokens, i, 3))).then_some(last)
}
