//! Email and web addresses in the folded text's tokens: "jan @ hotmail . com", "jan [at]
//! gmail [dot] com", "gmail: jan88", "jan (a) •••", "www punt anna punt nl", "anna[.]nl",
//! "linktr.ee/anna", "https://…".

use super::common::is_common;
use super::tokens::{Tok, Token};
use super::words::{is_copula, is_filler, is_mail_service, is_name_word, is_on_word, is_plain_tld, is_possessive, is_tld, is_word_like_tld};
use super::{ContactKind, TokenHit};

fn word(tokens: &[Token], i: usize) -> Option<&Token> {
    tokens.get(i).filter(|t| t.is(Tok::Word))
}

/// The start of the name that ends just before `at` ("jan.de.vries" before "@").
fn name_back(tokens: &[Token], at: usize) -> Option<usize> {
    let mut j = at.checked_sub(1)?;
    word(tokens, j)?;
    while j >= 2 && tokens[j - 1].is(Tok::Dot) && word(tokens, j - 2).is_some() && (!tokens[j - 1].literal || (tokens[j - 1].joined && tokens[j].joined)) {
        j -= 2;
    }
    Some(j)
}

/// The name `word (. word)*` from `i`: the index after it and how many dots.
fn name_forward(tokens: &[Token], i: usize) -> Option<(usize, usize)> {
    word(tokens, i)?;
    let (mut j, mut dots) = (i + 1, 0);
    while tokens.get(j).is_some_and(|t| t.is(Tok::Dot)) && word(tokens, j + 1).is_some_and(|w| !w.word.is_empty()) {
        j += 2;
        dots += 1;
    }
    Some((j, dots))
}

/// The end of what sticks to an address (its path, "?query") in the folded text.
fn stretch(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    if !rest.starts_with(['/', ':']) {
        return end;
    }
    let stuck = rest.find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '!' | ')' | '"' | '\'')).unwrap_or(rest.len());
    end + rest[..stuck].trim_end_matches(['.', '?']).len()
}

fn hidden(t: Option<&Token>) -> bool {
    t.is_some_and(|t| t.is(Tok::Mask) || (t.is(Tok::Word) && (t.word == "xxx" || t.word.chars().all(|c| c == 'x') && t.word.len() >= 3)))
}

fn alpha(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic())
}

pub(crate) fn find_emails(tokens: &[Token], used: &mut [bool], out: &mut Vec<TokenHit>) {
    let mut push = |first: usize, last: usize, end: usize, reason: &'static str, used: &mut [bool]| {
        used[first..=last].iter_mut().for_each(|u| *u = true);
        out.push(TokenHit { kind: ContactKind::Email, start: tokens[first].start, end, reason });
    };
    for a in 0..tokens.len() {
        if !tokens[a].is(Tok::At) || used[a] {
            continue;
        }
        let Some(local) = name_back(tokens, a) else { continue };
        if used[local] || (is_common(&tokens[local].word) && local + 1 == a && !tokens[a].literal) {
            continue;
        }
        // "jan (a) •••", "jan@•••": the service hidden, the name left.
        if hidden(tokens.get(a + 1)) {
            let end = tokens[a + 1].end;
            let end = if tokens.get(a + 2).is_some_and(|d| d.is(Tok::Dot)) && word(tokens, a + 3).is_some() { tokens[a + 3].end } else { end };
            push(local, a + 1, end, "a name and \"@\" with the rest hidden", used);
            continue;
        }
        let Some((end, dots)) = name_forward(tokens, a + 1) else { continue };
        let service = &tokens[a + 1].word;
        let last = &tokens[end - 1];
        let literal_dot = dots > 0 && tokens[end - 2].literal;
        let tld_ok = dots > 0
            && alpha(&last.word)
            && (is_tld(&last.word) || (tokens[a].literal && literal_dot && tokens[end - 2].joined && (2..=6).contains(&last.word.len())))
            && (!last.capital || tokens[end - 2].joined);
        let mut end_byte = last.end;
        let mut last_tok = end - 1;
        if hidden(tokens.get(end)) {
            end_byte = tokens[end].end;
            last_tok = end;
        }
        // "insta @anna": a handle, not an address.
        let handle_style = tokens[a].literal && !tokens[a].joined && tokens[a + 1].joined && dots == 0;
        if (is_mail_service(service) && !handle_style) || tld_ok || last_tok == end {
            push(local, last_tok, end_byte, "a name, \"@\" and a mail domain", used);
        }
    }
    // "gmail: jan88", "mijn hotmail is jan88", "jan.b op gmail".
    for p in 0..tokens.len() {
        if used[p] || !tokens[p].is(Tok::Word) || !is_mail_service(&tokens[p].word) {
            continue;
        }
        if let Some((h, last)) = handle_after_service(tokens, p) {
            if !used[h] {
                push(p, last, tokens[last].end, "a mail service and a name", used);
                continue;
            }
        }
        if p >= 2 && (tokens[p - 1].is(Tok::At) || tokens[p - 1].is(Tok::Word) && is_on_word(&tokens[p - 1].word)) {
            if let Some(local) = name_back(tokens, p - 1) {
                let name = &tokens[local];
                let dotted = local + 2 < p;
                if !used[local] && name.has_letter() && !is_common(&name.word) && (dotted || name.word.len() >= 3) {
                    push(local, p, tokens[p].end, "a name on a mail service", used);
                }
            }
        }
    }
}

/// The handle after a mail service's name: its index and the last token of it.
fn handle_after_service(tokens: &[Token], p: usize) -> Option<(usize, usize)> {
    let (mut j, mut sep, mut named, mut copula) = (p + 1, false, false, false);
    while j < tokens.len() && j <= p + 4 {
        let t = &tokens[j];
        match t.tok {
            Tok::Colon | Tok::Link => sep = true,
            Tok::Word if is_name_word(&t.word) || matches!(t.word.as_str(), "mail" | "email" | "e-mail" | "adres" | "address") => named = true,
            Tok::Word if is_copula(&t.word) => copula = true,
            Tok::Word if is_filler(&t.word) => {}
            _ => break,
        }
        j += 1;
    }
    let h = word(tokens, j)?;
    if !h.has_letter() || h.word.chars().count() < 2 || is_common(&h.word) || is_mail_service(&h.word) {
        return None;
    }
    let possessive = (p >= 1 && is_possessive(&tokens[p - 1].word)) || (p >= 2 && is_possessive(&tokens[p - 2].word));
    let ok = sep || named || (copula && (h.handle_like() || possessive));
    if !ok {
        return None;
    }
    let mut last = j;
    while tokens.get(last + 1).is_some_and(|d| d.is(Tok::Dot) && d.joined) && word(tokens, last + 2).is_some_and(|w| w.joined) {
        last += 2;
    }
    Some((j, last))
}

pub(crate) fn find_webs(text: &str, tokens: &[Token], used: &mut [bool], out: &mut Vec<TokenHit>) {
    let mut i = 0;
    while i < tokens.len() {
        if used[i] || !tokens[i].is(Tok::Word) {
            i += 1;
            continue;
        }
        let t = &tokens[i];
        let mut found: Option<(usize, &'static str)> = None;
        if matches!(t.word.as_str(), "http" | "https" | "hxxp" | "hxxps") && tokens.get(i + 1).is_some_and(|c| c.is(Tok::Colon)) {
            let mut host = i + 2;
            while tokens.get(host).is_some_and(|s| s.is(Tok::Slash)) {
                host += 1;
            }
            if let Some((end, _)) = name_forward(tokens, host) {
                found = Some((end, "a web address with its scheme"));
            }
        } else if t.word == "www" && tokens.get(i + 1).is_some_and(|d| d.is(Tok::Dot)) {
            if let Some((end, _)) = name_forward(tokens, i + 2) {
                found = Some((end, "\"www\" and a name"));
            }
        } else if i > 0 && tokens[i - 1].is(Tok::At) {
            // The domain of an address, not a site.
        } else if let Some((end, dots)) = name_forward(tokens, i) {
            // The longest stretch that ends in a domain ("anna.nl.Kijk" is "anna.nl").
            let site = (0..dots).map(|d| end - 2 * d).find(|&e| site_name(tokens, i, e));
            if let Some(end) = site {
                found = Some((end, "a name and a top-level domain"));
            } else if let Some(end) = comma_site(tokens, i) {
                found = Some((end, "a name and a top-level domain after a comma"));
            }
        }
        match found {
            Some((end, reason)) => {
                let end_byte = stretch(text, tokens[end - 1].end);
                used[i..end].iter_mut().for_each(|u| *u = true);
                out.push(TokenHit { kind: ContactKind::Web, start: t.start, end: end_byte, reason });
                i = end;
            }
            None => i += 1,
        }
    }
}

/// Whether `tokens[i..end]` (names and dots) reads as a site's address.
fn site_name(tokens: &[Token], i: usize, end: usize) -> bool {
    let (tld, dot, name) = (&tokens[end - 1], &tokens[end - 2], &tokens[end - 3]);
    if !alpha(&tld.word) || !tokens[i..end].iter().all(|t| t.is(Tok::Dot) || t.word.chars().any(char::is_alphanumeric)) {
        return false;
    }
    if tokens[i..end].iter().step_by(2).all(|t| t.word.chars().all(|c| c.is_ascii_digit())) || name.word.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let bracketed = !dot.literal && dot.word.starts_with(['(', '[', '{', '<']);
    let next_is_word = tokens.get(end).is_some_and(|n| n.is(Tok::Word) && !n.emoji);
    if bracketed {
        return is_tld(&tld.word);
    }
    if dot.literal && dot.joined && tld.joined {
        return is_tld(&tld.word) && !tld.capital && !(is_word_like_tld(&tld.word) && is_common(&name.word));
    }
    // Spaced dots and words for the dot: "anna . nl", "anna punt nl".
    is_plain_tld(&tld.word)
        && !tld.capital
        && name.has_letter()
        && !is_common(&name.word)
        && !is_common(&tokens[i].word)
        && (!is_word_like_tld(&tld.word) || !next_is_word || name.word.contains('-'))
}

/// "anna,nl": a comma for the dot, joined, with a common domain.
fn comma_site(tokens: &[Token], i: usize) -> Option<usize> {
    let (name, comma, tld) = (tokens.get(i)?, tokens.get(i + 1)?, tokens.get(i + 2)?);
    let ok = comma.is(Tok::Comma)
        && tld.is(Tok::Word)
        && comma.joined
        && tld.joined
        && matches!(tld.word.as_str(), "com" | "nl" | "net" | "org" | "de")
        && name.word.chars().count() >= 4
        && !is_common(&name.word);
    ok.then_some(i + 3)
}
