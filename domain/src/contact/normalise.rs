//! The text as the finder reads it: one fold of the characters members use to disguise what
//! they write, with a way back to the original text for every character.
//!
//! Hand-written rather than full Unicode NFKC (`unicode-normalization` brings tables of a few
//! hundred kilobytes into the browser's build): it covers the ranges that matter here —
//! full-width forms, superscript and subscript digits, circled, parenthesised, squared and
//! mathematical letters and digits, small capitals, Latin letters with diacritics, Cyrillic
//! and Greek letters that look Latin, the many dots, at signs, hyphens and spaces — and drops
//! invisible and formatting characters (zero-width space, joiners, soft hyphen, word joiner,
//! byte order mark, direction marks, variation selectors, combining marks such as the keycap).

/// A folded text: lower case ASCII where the original had a look-alike, and for every byte
/// the original character it came from.
pub(crate) struct Folded {
    pub text: String,
    /// For each byte of `text`: the byte range of the original character it came from.
    origin: Vec<(u32, u32)>,
    /// The original text's length.
    len: usize,
}

impl Folded {
    /// The original text's byte range for the folded range `start..end` (non-empty), with
    /// the invisible characters and marks that follow it ("0️⃣": the keycap belongs to the 0).
    pub fn original(&self, start: usize, end: usize) -> (usize, usize) {
        let next = self.origin.get(end).map_or(self.len, |o| o.0 as usize);
        (self.origin[start].0 as usize, next.max(self.origin[end - 1].1 as usize))
    }
}

/// What one character folds to.
enum Fold {
    Drop,
    Char(char),
    Str(&'static str),
}

/// Latin-1 letters with diacritics, from U+00C0, folded to their base letters (lower case).
const LATIN1: &[&str] = &[
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", // C0–CF
    "d", "n", "o", "o", "o", "o", "o", "x", "o", "u", "u", "u", "u", "y", "th", "ss", // D0–DF
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", // E0–EF
    "d", "n", "o", "o", "o", "o", "o", "/", "o", "u", "u", "u", "u", "y", "th", "y", // F0–FF
];

/// Latin Extended-A (U+0100–U+017F), two code points per base letter mostly: each character's
/// base letter, in order.
const LATIN_EXT_A: &str = "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiiiijjkkkllllllllllnnnnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";

/// Cyrillic and Greek letters that look like Latin ones.
fn confusable(c: char) -> Option<char> {
    Some(match c {
        'а' | 'А' | 'α' | 'Α' => 'a',
        'в' | 'В' | 'β' | 'Β' => 'b',
        'с' | 'С' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'Е' | 'ε' | 'Ε' | 'ё' => 'e',
        'ɡ' => 'g',
        'н' | 'Н' | 'Η' => 'h',
        'і' | 'І' | 'ι' | 'Ι' | 'ӏ' => 'i',
        'ј' | 'Ј' => 'j',
        'к' | 'К' | 'κ' | 'Κ' => 'k',
        'м' | 'М' | 'Μ' => 'm',
        'п' | 'η' | 'Ν' => 'n',
        'о' | 'О' | 'ο' | 'Ο' | 'σ' => 'o',
        'р' | 'Р' | 'ρ' | 'Ρ' => 'p',
        'ѕ' | 'Ѕ' => 's',
        'т' | 'Т' | 'τ' | 'Τ' => 't',
        'υ' | 'Υ' => 'u',
        'ν' => 'v',
        'ш' | 'ω' => 'w',
        'х' | 'Х' | 'χ' | 'Χ' => 'x',
        'у' | 'У' | 'γ' => 'y',
        'Ζ' => 'z',
        _ => return None,
    })
}

/// Small capitals and other letter forms used for "fancy text".
fn letter_form(c: char) -> Option<char> {
    Some(match c {
        'ᴀ' => 'a',
        'ʙ' => 'b',
        'ᴄ' => 'c',
        'ᴅ' => 'd',
        'ᴇ' => 'e',
        'ꜰ' => 'f',
        'ɢ' => 'g',
        'ʜ' => 'h',
        'ɪ' => 'i',
        'ᴊ' => 'j',
        'ᴋ' => 'k',
        'ʟ' => 'l',
        'ᴍ' => 'm',
        'ɴ' => 'n',
        'ᴏ' => 'o',
        'ᴘ' => 'p',
        'ǫ' => 'q',
        'ʀ' => 'r',
        'ꜱ' => 's',
        'ᴛ' => 't',
        'ᴜ' => 'u',
        'ᴠ' => 'v',
        'ᴡ' => 'w',
        'ʏ' => 'y',
        'ᴢ' => 'z',
        'ⁱ' => 'i',
        'ⁿ' => 'n',
        _ => return None,
    })
}

fn ascii(n: u32) -> Fold {
    Fold::Char(char::from_u32(n).map(|c| c.to_ascii_lowercase()).unwrap_or(' '))
}

fn letter(i: u32) -> Fold {
    ascii(u32::from(b'a') + i % 26)
}

fn digit(d: u32) -> Fold {
    ascii(u32::from(b'0') + d)
}

const TENS_AND_UP: [&str; 11] = ["10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20"];

fn fold(c: char) -> Fold {
    let n = c as u32;
    if c.is_ascii() {
        return Fold::Char(c.to_ascii_lowercase());
    }
    match n {
        // Invisible and formatting characters, variation selectors, combining marks.
        0x00AD
        | 0x034F
        | 0x061C
        | 0x115F
        | 0x1160
        | 0x17B4
        | 0x17B5
        | 0x180B..=0x180F
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x2060..=0x206F
        | 0x3164
        | 0xFE00..=0xFE0F
        | 0xFEFF
        | 0xFFA0
        | 0xFFF9..=0xFFFB
        | 0x1BCA0..=0x1BCA3
        | 0xE0000..=0xE0FFF => Fold::Drop,
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF => Fold::Drop,
        // Spaces.
        0x00A0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 => Fold::Char(' '),
        0x00C0..=0x00FF => match LATIN1[(n - 0xC0) as usize] {
            "x" => Fold::Char('×'),
            "/" => Fold::Char('÷'),
            s => Fold::Str(s),
        },
        0x0100..=0x017F => LATIN_EXT_A.as_bytes().get((n - 0x100) as usize).map_or(Fold::Char(c), |&b| Fold::Char(char::from(b))),
        // Superscript and subscript digits.
        0x00B9 => digit(1),
        0x00B2 | 0x00B3 => digit(n - 0xB0),
        0x2070 => digit(0),
        0x2074..=0x2079 => digit(n - 0x2070),
        0x2080..=0x2089 => digit(n - 0x2080),
        // Circled, parenthesised and dingbat digits.
        0x2460..=0x2473 => {
            Fold::Str(if n < 0x2469 { ["1", "2", "3", "4", "5", "6", "7", "8", "9"][(n - 0x2460) as usize] } else { TENS_AND_UP[(n - 0x2469) as usize] })
        }
        0x2474..=0x247C => digit(n - 0x2473),
        0x2488..=0x2490 => digit(n - 0x2487),
        0x24EA | 0x24FF | 0x1F10B | 0x1F10C => digit(0),
        0x24F5..=0x24FD => digit(n - 0x24F4),
        0x2776..=0x277E => digit(n - 0x2775),
        0x2780..=0x2788 => digit(n - 0x277F),
        0x278A..=0x2792 => digit(n - 0x2789),
        0x1F100 => digit(0),
        0x1F101..=0x1F10A => digit(n - 0x1F101),
        // Circled, parenthesised, squared letters.
        0x249C..=0x24B5 => letter(n - 0x249C),
        0x24B6..=0x24CF => letter(n - 0x24B6),
        0x24D0..=0x24E9 => letter(n - 0x24D0),
        0x1F110..=0x1F129 => letter(n - 0x1F110),
        0x1F130..=0x1F149 => letter(n - 0x1F130),
        0x1F150..=0x1F169 => letter(n - 0x1F150),
        0x1F170..=0x1F189 => letter(n - 0x1F170),
        // Mathematical letters (13 styles of A–Z a–z) and digits.
        0x1D400..=0x1D6A3 => letter((n - 0x1D400) % 52),
        0x1D7CE..=0x1D7FF => digit((n - 0x1D7CE) % 10),
        // Other digits: Arabic-Indic, Devanagari.
        0x0660..=0x0669 => digit(n - 0x0660),
        0x06F0..=0x06F9 => digit(n - 0x06F0),
        0x0966..=0x096F => digit(n - 0x0966),
        // Full-width ASCII.
        0xFF01..=0xFF5E => ascii(n - 0xFF01 + 0x21),
        // Look-alike marks.
        0xFE6B => Fold::Char('@'),
        0x3002 | 0xFE52 | 0xFF61 | 0x2024 | 0x06D4 => Fold::Char('.'),
        0x2010..=0x2015 | 0x2212 | 0xFE63 | 0x2043 => Fold::Char('-'),
        0xFE55 | 0x2236 => Fold::Char(':'),
        0x2044 | 0x2215 => Fold::Char('/'),
        _ => {
            if let Some(l) = confusable(c).or_else(|| letter_form(c)) {
                Fold::Char(l)
            } else if c.is_uppercase() {
                c.to_lowercase().next().map_or(Fold::Char(c), Fold::Char)
            } else {
                Fold::Char(c)
            }
        }
    }
}

/// Folds a text for the finder.
pub(crate) fn fold_text(text: &str) -> Folded {
    let mut out = String::with_capacity(text.len());
    let mut origin: Vec<(u32, u32)> = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let span = (i as u32, (i + c.len_utf8()) as u32);
        let before = out.len();
        match fold(c) {
            Fold::Drop => continue,
            Fold::Char(f) => out.push(f),
            Fold::Str(s) => out.push_str(s),
        }
        origin.resize(origin.len() + out.len() - before, span);
    }
    Folded { text: digits_for_letters(out), origin, len: text.len() }
}

/// "O6 I2345678": in a word of digits and the letters o, l and i only, the letters stand for
/// 0 and 1 (ASCII for ASCII, so the way back stays).
fn digits_for_letters(text: String) -> String {
    let mut bytes = text.into_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] >= 0x80) {
            i += 1;
        }
        let word = &mut bytes[start..i];
        let digit_like = word.iter().all(|b| b.is_ascii_digit() || matches!(b, b'o' | b'l' | b'i'));
        if digit_like && word.len() >= 2 && word.iter().any(u8::is_ascii_digit) {
            for b in word.iter_mut() {
                *b = match *b {
                    b'o' => b'0',
                    b'l' | b'i' => b'1',
                    other => other,
                };
            }
        }
    }
    String::from_utf8(bytes).expect("ASCII letters replaced by ASCII digits")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_look_alikes_and_drops_invisible_characters() {
        let folded = fold_text("Ｊａｎ\u{200B}@ⓖ𝐦𝐚𝐢𝐥．cоm ⁰⁶¹² O6 l2 ät ᴀɴɴᴀ 0️⃣");
        assert_eq!(folded.text, "jan@gmail.com 0612 06 12 at anna 0");
        // The way back: "ⓖ" is three bytes in the original.
        let g = folded.text.find('g').unwrap();
        assert_eq!(folded.original(g, g + 1), (13, 16));
    }
}
