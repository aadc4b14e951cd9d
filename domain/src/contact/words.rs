//! The words the finder knows, folded as `normalise` folds them (lower case, no diacritics).

/// The digits a number word stands for ("nul", "zes", "achtenveertig", "forty", "douze").
pub(crate) fn number_word(word: &str) -> Option<&'static str> {
    if let Some(d) = simple_number(word) {
        return Some(d);
    }
    // "achtenveertig", "drieendertig" (nl) and "achtundvierzig" (de): a unit, "en"/"und", tens.
    for joint in ["en", "und"] {
        let mut from = 0;
        while let Some(at) = word[from..].find(joint) {
            let (unit, tens) = (&word[..from + at], &word[from + at + joint.len()..]);
            if let (Some(u), Some(t)) = (unit_of(unit), simple_number(tens)) {
                if t.len() == 2 && t.ends_with('0') && t != "10" {
                    return Some(TWO_DIGITS[(usize::from(t.as_bytes()[0] - b'0')) * 10 + u]);
                }
            }
            from += at + 1;
        }
    }
    None
}

fn unit_of(word: &str) -> Option<usize> {
    match word {
        "ein" => Some(1),
        _ => simple_number(word).filter(|d| d.len() == 1 && *d != "0").map(|d| usize::from(d.as_bytes()[0] - b'0')),
    }
}

const TWO_DIGITS: [&str; 100] = [
    "00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25",
    "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "50", "51",
    "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76", "77",
    "78", "79", "80", "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91", "92", "93", "94", "95", "96", "97", "98", "99",
];

fn simple_number(word: &str) -> Option<&'static str> {
    Some(match word {
        "nul" | "zero" | "null" | "cero" | "noll" | "nolla" | "oh" => "0",
        "een" | "one" | "eins" | "un" | "une" | "uno" | "jeden" | "ett" | "yksi" | "et" => "1",
        "twee" | "two" | "zwei" | "zwo" | "deux" | "dos" | "due" | "dwa" | "to" | "tva" | "kaksi" => "2",
        "drie" | "three" | "drei" | "trois" | "tres" | "tre" | "trzy" | "kolme" => "3",
        "vier" | "four" | "quatre" | "cuatro" | "quattro" | "cztery" | "fire" | "fyra" | "nelja" => "4",
        "vijf" | "five" | "funf" | "fuenf" | "cinq" | "cinco" | "cinque" | "piec" | "fem" | "viisi" => "5",
        "zes" | "six" | "sechs" | "seis" | "sei" | "szesc" | "seks" | "sex" | "kuusi" => "6",
        "zeven" | "seven" | "sieben" | "sept" | "siete" | "sette" | "siedem" | "syv" | "sju" | "seitseman" => "7",
        "acht" | "eight" | "huit" | "ocho" | "otto" | "osiem" | "otte" | "atta" | "atte" | "kahdeksan" => "8",
        "negen" | "nine" | "neun" | "neuf" | "nueve" | "nove" | "dziewiec" | "ni" | "nio" | "yhdeksan" => "9",
        "tien" | "ten" | "zehn" | "dix" | "diez" | "dieci" => "10",
        "elf" | "eleven" | "undici" => "11",
        "twaalf" | "twelve" | "zwolf" | "douze" | "doce" | "dodici" => "12",
        "dertien" | "thirteen" | "dreizehn" | "treize" | "trece" => "13",
        "veertien" | "fourteen" | "vierzehn" | "quatorze" | "catorce" => "14",
        "vijftien" | "fifteen" | "funfzehn" | "quinze" | "quince" => "15",
        "zestien" | "sixteen" | "sechzehn" | "seize" => "16",
        "zeventien" | "seventeen" | "siebzehn" => "17",
        "achttien" | "eighteen" | "achtzehn" => "18",
        "negentien" | "nineteen" | "neunzehn" => "19",
        "twintig" | "twenty" | "zwanzig" | "vingt" | "veinte" | "venti" => "20",
        "dertig" | "thirty" | "dreissig" | "trente" | "treinta" | "trenta" => "30",
        "veertig" | "forty" | "vierzig" | "quarante" | "cuarenta" | "quaranta" => "40",
        "vijftig" | "fifty" | "funfzig" | "cinquante" | "cincuenta" | "cinquanta" => "50",
        "zestig" | "sixty" | "sechzig" | "soixante" | "sesenta" | "sessanta" => "60",
        "zeventig" | "seventy" | "siebzig" | "setenta" | "settanta" => "70",
        "tachtig" | "eighty" | "achtzig" | "ochenta" | "ottanta" => "80",
        "negentig" | "ninety" | "neunzig" | "noventa" | "novanta" => "90",
        _ => return None,
    })
}

/// Words that may stand between the groups of one number written over a sentence ("06 48
/// en dan 29 17 33").
pub(crate) fn is_number_connector(word: &str) -> bool {
    matches!(
        word,
        "en" | "dan"
            | "daarna"
            | "and"
            | "then"
            | "und"
            | "dann"
            | "puis"
            | "y"
            | "luego"
            | "e"
            | "poi"
            | "i"
            | "potem"
            | "og"
            | "sa"
            | "och"
            | "sen"
            | "ja"
            | "sitten"
            | "is"
            | "es"
            | "ist"
            | "est"
            | "er"
            | "ar"
            | "on"
            | "c"
    )
}

/// Words near a number that say it is one to call ("bel", "ring", "nummer", "sms").
pub(crate) fn is_phone_cue(word: &str) -> bool {
    const STEMS: &[&str] = &[
        "bel", "call", "ring", "nummer", "number", "numero", "numer", "nr", "tel", "sms", "app", "whats", "handy", "mobil", "cell", "soita", "puhelin",
        "zadzwon", "text", "llama", "chiama", "appel", "num", "phone",
    ];
    STEMS.iter().any(|s| word.starts_with(s))
}

/// Words that stand for "@".
pub(crate) fn is_at_word(word: &str) -> bool {
    matches!(
        word,
        "at" | "apenstaartje"
            | "apestaart"
            | "klammeraffe"
            | "arroba"
            | "chiocciola"
            | "arobase"
            | "malpa"
            | "snabel-a"
            | "krollalfa"
            | "kissanhanta"
            | "miukumauku"
    )
}

/// Words that stand for ".".
pub(crate) fn is_dot_word(word: &str) -> bool {
    matches!(word, "dot" | "punt" | "punkt" | "point" | "punto" | "ponto" | "kropka" | "punktum" | "prik" | "prikk" | "piste" | "nokta")
}

/// Top-level domains a joined "name.tld" may end in.
pub(crate) fn is_tld(word: &str) -> bool {
    matches!(
        word,
        "com"
            | "net"
            | "org"
            | "info"
            | "biz"
            | "nl"
            | "be"
            | "de"
            | "eu"
            | "fr"
            | "es"
            | "it"
            | "pl"
            | "dk"
            | "se"
            | "no"
            | "fi"
            | "at"
            | "ch"
            | "uk"
            | "co"
            | "io"
            | "me"
            | "tv"
            | "cc"
            | "ly"
            | "ee"
            | "ai"
            | "app"
            | "dev"
            | "page"
            | "site"
            | "online"
            | "xyz"
            | "top"
            | "vip"
            | "club"
            | "live"
            | "fun"
            | "love"
            | "sexy"
            | "cam"
            | "chat"
            | "link"
            | "bio"
            | "fans"
            | "shop"
            | "store"
            | "blog"
            | "icu"
            | "lol"
            | "pro"
            | "life"
            | "world"
            | "space"
            | "website"
            | "tech"
            | "us"
            | "ca"
            | "au"
            | "ru"
            | "ua"
            | "cz"
            | "sk"
            | "hu"
            | "ro"
            | "pt"
            | "gr"
            | "ie"
            | "lu"
            | "li"
            | "is"
            | "gg"
            | "to"
            | "nu"
            | "so"
            | "la"
            | "im"
            | "ws"
            | "mobi"
            | "name"
            | "tk"
            | "ml"
            | "men"
            | "date"
            | "dating"
            | "xxx"
            | "porn"
            | "adult"
            | "sex"
            | "hot"
            | "webcam"
            | "photos"
            | "pics"
            | "social"
            | "one"
            | "today"
            | "email"
            | "family"
            | "best"
            | "cool"
            | "wtf"
            | "fyi"
            | "click"
            | "bar"
            | "party"
            | "red"
            | "pink"
            | "baby"
            | "girl"
            | "boy"
            | "guru"
            | "ninja"
            | "rocks"
            | "zone"
            | "cloud"
            | "host"
            | "tk1"
            | "nz"
            | "br"
            | "mx"
            | "ar"
            | "cl"
            | "tr"
            | "in"
            | "jp"
            | "cn"
    )
}

/// The domains that read as a domain only when plainly written as one (they are also words).
pub(crate) fn is_word_like_tld(word: &str) -> bool {
    matches!(
        word,
        "be" | "de"
            | "es"
            | "it"
            | "no"
            | "at"
            | "me"
            | "to"
            | "nu"
            | "so"
            | "la"
            | "im"
            | "is"
            | "in"
            | "us"
            | "one"
            | "fun"
            | "love"
            | "live"
            | "page"
            | "date"
            | "bar"
            | "hot"
            | "red"
            | "best"
            | "cool"
            | "today"
            | "chat"
            | "name"
            | "life"
            | "world"
            | "sex"
            | "pro"
            | "top"
            | "men"
            | "girl"
            | "boy"
            | "baby"
            | "party"
            | "click"
            | "link"
            | "ar"
    )
}

/// Domains that read as one even with spaces around the dot ("anna . nl").
pub(crate) fn is_plain_tld(word: &str) -> bool {
    matches!(
        word,
        "com"
            | "net"
            | "org"
            | "info"
            | "nl"
            | "de"
            | "be"
            | "eu"
            | "fr"
            | "es"
            | "it"
            | "pl"
            | "dk"
            | "se"
            | "fi"
            | "ch"
            | "at"
            | "uk"
            | "no"
            | "me"
            | "io"
            | "xyz"
            | "online"
            | "club"
            | "site"
            | "vip"
            | "cam"
            | "fun"
            | "love"
            | "live"
            | "page"
            | "sexy"
            | "ly"
            | "ee"
            | "bio"
    )
}

/// Mail services whose name makes "name at service" an address, and "gmail: name" one too.
pub(crate) fn is_mail_service(word: &str) -> bool {
    matches!(
        word,
        "gmail"
            | "googlemail"
            | "hotmail"
            | "outlook"
            | "yahoo"
            | "icloud"
            | "ziggo"
            | "kpnmail"
            | "kpnplanet"
            | "telenet"
            | "gmx"
            | "protonmail"
            | "proton"
            | "msn"
            | "libero"
            | "aol"
            | "onet"
            | "wanadoo"
            | "laposte"
            | "tutanota"
            | "yandex"
            | "mailbox"
            | "posteo"
            | "freenet"
            | "tiscali"
            | "skynet"
            | "xs4all"
            | "planet"
            | "hetnet"
            | "casema"
            | "chello"
            | "quicknet"
            | "upcmail"
            | "t-online"
            | "seznam"
            | "interia"
            | "telia"
            | "hotmai"
            | "gmial"
    )
}

/// A messenger's name as members write it: "snap", "ig", "👻" (as "snapchat"), "Snapchat-naam",
/// "1nsta", "$nap". The app's name and whether it is a short one that needs a mark after it.
pub(crate) fn app_name(word: &str) -> Option<(&'static str, bool)> {
    let base = word.split('-').next().unwrap_or(word);
    let mut leet = String::with_capacity(base.len());
    for c in base.chars() {
        leet.push(match c {
            '1' | '!' => 'i',
            '0' => 'o',
            '4' => 'a',
            '3' => 'e',
            '5' | '$' => 's',
            '7' => 't',
            c => c,
        });
    }
    let strong = match leet.as_str() {
        "whatsapp" | "whatsap" | "watsapp" | "whatsaap" | "whatapp" | "wapp" | "whatsup" => "whatsapp",
        "snapchat" | "snap" | "snapp" | "snapje" | "snaps" | "snapchatnaam" => "snapchat",
        "telegram" | "telegramm" => "telegram",
        "instagram" | "insta" | "instagramm" | "instaa" | "gram" => "instagram",
        "kik" | "skype" | "discord" | "wechat" | "viber" | "threema" | "signal" | "wickr" | "tiktok" | "facebook" | "onlyfans" | "fansly" | "reddit"
        | "twitter" | "line" | "messenger" | "session" | "kakao" | "linktree" => "app",
        _ => "",
    };
    if !strong.is_empty() {
        return Some((strong, false));
    }
    match leet.as_str() {
        "ig" | "sc" | "tg" | "dc" | "fb" | "tt" | "of" | "wa" | "tele" | "tlg" | "snp" | "kk" | "wh" | "msn" | "x" => Some(("short", true)),
        _ => None,
    }
}

/// Whether the messenger's name is one that "ik snap het" shows is also a word.
pub(crate) fn is_word_like_app(word: &str) -> bool {
    matches!(word, "snap" | "snaps" | "signal" | "line" | "messenger" | "session" | "gram" | "tele")
}

/// Words that say a name follows a messenger's name ("naam", "username", "id").
pub(crate) fn is_name_word(word: &str) -> bool {
    matches!(
        word,
        "naam"
            | "name"
            | "username"
            | "gebruikersnaam"
            | "user"
            | "id"
            | "handle"
            | "account"
            | "acc"
            | "nick"
            | "nickname"
            | "benutzername"
            | "nom"
            | "pseudo"
            | "nombre"
            | "usuario"
            | "nome"
            | "nazwa"
            | "brugernavn"
            | "anvandarnamn"
            | "brukernavn"
            | "kayttajanimi"
            | "tunnus"
            | "adres"
            | "address"
            | "adresse"
            | "addy"
            | "naampje"
    )
}

/// Words that say what comes is ("is", "ist", "c'est", "er", "to").
pub(crate) fn is_copula(word: &str) -> bool {
    matches!(word, "is" | "es" | "ist" | "est" | "c" | "e" | "er" | "ar" | "on" | "to" | "=" | "heet" | "heisst" | "called")
}

/// Words that may stand between a messenger's name and its handle without saying anything.
pub(crate) fn is_filler(word: &str) -> bool {
    matches!(word, "me" | "mij" | "mich" | "moi" | "mi" | "mig" | "meg" | "mua" | "ff" | "even" | "gerust" | "maar" | "dan" | "dus" | "ok" | "oke" | "xx" | "x")
}

/// "my" in the site's languages (so "mijn snap is annabanana" names a handle).
pub(crate) fn is_possessive(word: &str) -> bool {
    matches!(
        word,
        "mijn" | "mn" | "my" | "mein" | "meine" | "mon" | "ma" | "mi" | "mio" | "mia" | "moj" | "moje" | "min" | "mitt" | "mit" | "mun" | "minun" | "meu" | "n"
    )
}

/// Prepositions between a handle and where it is ("anna_99 op snap").
pub(crate) fn is_on_word(word: &str) -> bool {
    matches!(word, "op" | "on" | "auf" | "bei" | "sur" | "en" | "su" | "na" | "pa" | "via" | "bij" | "in" | "at" | "over" | "chez" | "w" | "i" | "per" | "van")
}

/// Words that ask to be added ("add me", "voeg me toe", "zoek me op").
pub(crate) fn is_add_word(word: &str) -> bool {
    matches!(
        word,
        "add"
            | "voeg"
            | "zoek"
            | "find"
            | "search"
            | "such"
            | "suche"
            | "fug"
            | "ajoute"
            | "ajoutes"
            | "agregame"
            | "agrega"
            | "anade"
            | "aggiungimi"
            | "dodaj"
            | "follow"
            | "volg"
            | "folge"
            | "tilfoj"
            | "lagg"
            | "legg"
            | "lisaa"
            | "als"
            | "as"
            | "comme"
            | "como"
            | "come"
            | "jako"
            | "som"
            | "dm"
            | "text"
            | "kik"
            | "toevoegen"
            | "adden"
    )
}
