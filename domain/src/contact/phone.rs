//! Phone numbers: runs of digit groups and number words ("06 48 29 17 33", "nul zes, vier
//! acht", "06 48 en dan 29 17 33") with whatever members put between the groups, told apart
//! from the numbers of ordinary talk (dates, times, prices, heights, counts, years).

use super::words::{is_number_connector, is_phone_cue, number_word};
use super::PHONE_MIN_DIGITS;

/// A phone number found in the folded text: byte range and why.
pub(crate) struct PhoneHit {
    pub start: usize,
    pub end: usize,
    pub reason: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Digits that may be part of a number.
    Number,
    /// Digits that are a date, a time, a price, a measure.
    Quantity,
    Connector,
    Word,
}

#[derive(Debug, Clone)]
struct Item {
    kind: Kind,
    start: usize,
    end: usize,
    digits: String,
    /// Groups of ASCII digits (not number words).
    groups: usize,
    /// "en": "one" in Danish, Swedish and Norwegian, "and" in Dutch.
    soft: bool,
    /// A date, a time or a decimal (a quantity that may be part of a number after all).
    dated: bool,
}

/// Visible characters between two items (spaces and invisible ones aside).
fn visible(gap: &str) -> usize {
    gap.chars().filter(|c| !c.is_whitespace()).count()
}

fn is_date(groups: &[&str], seps: &[u8]) -> bool {
    let n = |g: &str| g.parse::<u32>().unwrap_or(99);
    let small = |g: &str, max: u32| g.len() <= 2 && (1..=max).contains(&n(g));
    let same_sep = seps.iter().all(|s| *s == seps[0] && matches!(s, b'-' | b'/' | b'.'));
    match groups {
        [a, b] => same_sep && ((small(a, 31) && small(b, 12)) || (small(a, 12) && small(b, 31))),
        [a, b, y] => {
            same_sep
                && ((small(a, 31) && small(b, 12)) || (small(a, 12) && small(b, 31)))
                && (y.len() == 2 || (y.len() == 4 && (y.starts_with("19") || y.starts_with("20"))))
        }
        _ => false,
    }
}

fn is_time(groups: &[&str], seps: &[u8]) -> bool {
    matches!(groups, [h, m] if h.len() <= 2 && m.len() == 2 && h.parse::<u32>().is_ok_and(|h| h <= 24) && m.parse::<u32>().is_ok_and(|m| m <= 59))
        && matches!(seps, [b':' | b'.' | b'h' | b'u'])
}

fn is_decimal(groups: &[&str], seps: &[u8]) -> bool {
    matches!(groups, [a, b] if a.len() <= 4 && (1..=2).contains(&b.len())) && matches!(seps, [b',' | b'.'])
}

fn is_thousands(groups: &[&str], seps: &[u8]) -> bool {
    groups.len() >= 2
        && groups[0].len() <= 3
        && seps.iter().all(|s| matches!(s, b'.' | b',' | b' '))
        && groups[1..].iter().enumerate().all(|(k, g)| g.len() == 3 || (k == groups.len() - 2 && g.len() == 2))
}

/// Reads the folded text into digit chunks, number words, connectors and other words.
fn items(text: &str, cue: &mut bool) -> Vec<Item> {
    let b = text.as_bytes();
    let mut out: Vec<Item> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            // A chunk: digit groups joined by one of . , : / - h (no spaces).
            let start = i;
            let mut groups: Vec<(usize, usize)> = Vec::new();
            let mut seps: Vec<u8> = Vec::new();
            loop {
                let g = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                groups.push((g, i));
                if i + 1 < b.len() && matches!(b[i], b'.' | b',' | b':' | b'/' | b'-' | b'h' | b'u') && b[i + 1].is_ascii_digit() {
                    seps.push(b[i]);
                    i += 1;
                } else {
                    break;
                }
            }
            let end = i;
            let strs: Vec<&str> = groups.iter().map(|&(s, e)| &text[s..e]).collect();
            let digits: String = strs.concat();
            // A unit or a letter stuck to it ("85kg", "3e", "A2"), but not a number word ("nul06").
            let word_after: String = text[end..].chars().take_while(|c| c.is_alphabetic()).collect();
            let word_before: String = text[..start].chars().rev().take_while(|c| c.is_alphabetic()).collect::<Vec<_>>().into_iter().rev().collect();
            let letter_after = !word_after.is_empty() && number_word(&word_after).is_none();
            let letter_before = !word_before.is_empty() && number_word(&word_before).is_none();
            let before = text[..start].trim_end();
            let after = text[end..].trim_start();
            let currency = before.ends_with(['€', '$', '£'])
                || ["€", "euro", "eur", ",-", "kr", "zl", "%", "°", "pln", "sek", "dkk", "nok", "x "].iter().any(|u| after.starts_with(u));
            let unit = (letter_after || letter_before) && digits.len() < 8;
            let date_or_time = is_date(&strs, &seps) || is_time(&strs, &seps) || is_decimal(&strs, &seps);
            let quantity = date_or_time || (currency && (digits.len() < 9 || is_thousands(&strs, &seps))) || unit;
            let groups_n = groups.len();
            out.push(Item {
                kind: if quantity { Kind::Quantity } else { Kind::Number },
                start,
                end,
                digits,
                groups: groups_n,
                soft: false,
                dated: date_or_time && !currency && !unit,
            });
            continue;
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        if c.is_alphabetic() {
            let start = i;
            while let Some(d) = text[i..].chars().next().filter(|d| d.is_alphabetic()) {
                i += d.len_utf8();
            }
            let word = &text[start..i];
            if word == "en" {
                out.push(Item { kind: Kind::Number, start, end: i, digits: "1".into(), groups: 0, soft: true, dated: false });
            } else if let Some(d) = number_word(word) {
                out.push(Item { kind: Kind::Number, start, end: i, digits: d.to_string(), groups: 0, soft: false, dated: false });
            } else if is_number_connector(word) {
                out.push(Item { kind: Kind::Connector, start, end: i, digits: String::new(), groups: 0, soft: false, dated: false });
            } else {
                *cue |= is_phone_cue(word);
                out.push(Item { kind: Kind::Word, start, end: i, digits: String::new(), groups: 0, soft: false, dated: false });
            }
            continue;
        }
        i += c.len_utf8();
    }
    // "06-12 34 56 78", "00 - 1-10 - 00000", "0.0 nul 0": a date, time or decimal among other
    // digits is part of the number.
    // "1-1 - 1-1 - 1-1": three or more "dates" in a row without commas are digits in groups.
    let mut k = 0;
    while k < out.len() {
        let mut j = k;
        while j + 1 < out.len() && out[j].dated && out[j + 1].dated && {
            let gap = &text[out[j].end..out[j + 1].start];
            visible(gap) <= 4 && !gap.contains(',')
        } {
            j += 1;
        }
        if j >= k + 2 {
            out[k..=j].iter_mut().for_each(|item| item.kind = Kind::Number);
        }
        k = j + 1;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for k in 0..out.len() {
            if out[k].kind != Kind::Quantity || !out[k].dated {
                continue;
            }
            let near = |a: &Item, b: &Item| a.kind == Kind::Number && !a.soft && visible(&text[a.end.min(b.end)..a.start.max(b.start)]) <= 4;
            if (k > 0 && near(&out[k - 1], &out[k])) || out.get(k + 1).is_some_and(|n| near(n, &out[k])) {
                out[k].kind = Kind::Number;
                changed = true;
            }
        }
    }
    out
}

/// A run of number items with small gaps between.
#[derive(Debug)]
struct Run {
    first: usize,
    last: usize,
    digits: usize,
    plus: bool,
    /// How many "en" are in it, and how many other number words.
    soft: usize,
    spelled: usize,
}

impl Run {
    /// Its digits, "en" counted as "one" only among other number words.
    fn count(&self) -> usize {
        if self.spelled >= 3 {
            self.digits
        } else {
            self.digits - self.soft
        }
    }
}

pub(crate) fn find_phones(text: &str) -> Vec<PhoneHit> {
    let mut cue = false;
    let items = items(text, &mut cue);
    let numbers: Vec<usize> = (0..items.len()).filter(|&k| items[k].kind == Kind::Number).collect();
    if numbers.is_empty() {
        return Vec::new();
    }
    // Runs: consecutive number items with at most two connectors and a few marks between.
    let mut runs: Vec<Run> = Vec::new();
    let mut gaps_words: Vec<usize> = Vec::new();
    for &k in &numbers {
        let item = &items[k];
        if let Some(run) = runs.last_mut() {
            let between = &items[run.last + 1..k];
            let connectors = between.iter().filter(|b| b.kind == Kind::Connector).count();
            let blocked = between.iter().any(|b| matches!(b.kind, Kind::Word | Kind::Quantity));
            let gap = &text[items[k - 1].end..item.start];
            let marks: usize = visible(gap);
            if !blocked && connectors <= 2 && marks <= 4 {
                run.last = k;
                run.digits += item.digits.len();
                run.soft += usize::from(item.soft);
                run.spelled += usize::from(item.groups == 0 && !item.soft);
                continue;
            }
            gaps_words.push(if between.iter().any(|b| b.kind == Kind::Quantity) {
                usize::MAX
            } else {
                between.iter().filter(|b| b.kind != Kind::Number).count()
            });
        }
        let plus = text[..item.start].trim_end().ends_with('+') || item.digits.starts_with("00");
        runs.push(Run {
            first: k,
            last: k,
            digits: item.digits.len(),
            plus,
            soft: usize::from(item.soft),
            spelled: usize::from(item.groups == 0 && !item.soft),
        });
    }
    let mut hits = Vec::new();
    let mut r = 0;
    while r < runs.len() {
        let run = &runs[r];
        if is_phone(&items[run.first..=run.last], run, cue) {
            hits.push(hit(text, &items, run, "digits in one run"));
            r += 1;
            continue;
        }
        // A number told in parts over a sentence: "begint met 06 48 … en eindigt op 17 33".
        if let Some(next) = runs.get(r + 1) {
            let total = run.count() + next.count();
            let starts = |x: &Run| x.plus || items[x.first].digits.starts_with('0');
            if gaps_words[r] <= 5 && (PHONE_MIN_DIGITS..=15).contains(&total) && run.count() >= 2 && next.count() >= 2 && (starts(run) || starts(next)) {
                hits.push(hit(text, &items, run, "a number told in parts"));
                hits.push(hit(text, &items, next, "a number told in parts"));
                r += 2;
                continue;
            }
        }
        r += 1;
    }
    hits
}

fn hit(text: &str, items: &[Item], run: &Run, reason: &'static str) -> PhoneHit {
    let mut start = items[run.first].start;
    let before = text[..start].trim_end();
    if before.ends_with('+') {
        start = before.len() - 1;
    }
    PhoneHit { start, end: items[run.last].end, reason }
}

fn is_phone(run_items: &[Item], run: &Run, cue: bool) -> bool {
    let numbers: Vec<&Item> = run_items.iter().filter(|i| i.kind == Kind::Number && !i.soft).collect();
    let values: Vec<u64> = numbers.iter().map(|i| if i.digits.len() <= 4 { i.digits.parse().unwrap_or(0) } else { u64::MAX }).collect();
    // Counting ("1, 2, 3, … 10") and lists of years are no number to call.
    if values.len() >= 3 && values.windows(2).all(|w| w[0].checked_add(1) == Some(w[1])) {
        return false;
    }
    let groups: Vec<&&Item> = numbers.iter().filter(|i| i.groups > 0).collect();
    if groups.len() >= 2 && run.spelled <= 1 && groups.iter().all(|i| i.digits.len() == 4 && (i.digits.starts_with("19") || i.digits.starts_with("20"))) {
        return false;
    }
    let structured = numbers.len() >= 3 && numbers.iter().all(|i| i.groups > 0 && (2..=3).contains(&i.digits.len()));
    run.count() >= PHONE_MIN_DIGITS || (run.count() == PHONE_MIN_DIGITS - 1 && (run.plus || cue || structured))
}
