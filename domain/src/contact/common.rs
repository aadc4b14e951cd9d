//! Common words of the site's languages, folded (lower case, no diacritics): never read as a
//! handle, a mail address's name or a site's name ("mijn insta is privé").

/// Common words of the site's languages: never a handle, a local part or a site's name.
pub(crate) fn is_common(word: &str) -> bool {
    COMMON.contains(&word)
}

#[rustfmt::skip]
const COMMON: &[&str] = &[
    // nl
    "ik", "je", "jij", "jou", "jouw", "u", "hij", "zij", "ze", "wij", "we", "jullie", "het", "de", "een", "en", "of", "maar", "dus", "want", "als", "dan",
    "dat", "die", "dit", "deze", "is", "ben", "bent", "zijn", "was", "waren", "heb", "hebt", "heeft", "hebben", "had", "niet", "geen", "wel", "ook", "nog",
    "al", "er", "hier", "daar", "waar", "wat", "wie", "hoe", "waarom", "wanneer", "met", "van", "voor", "naar", "op", "in", "uit", "aan", "bij", "om", "tot",
    "over", "onder", "zo", "nu", "straks", "vandaag", "morgen", "gister", "gisteren", "altijd", "nooit", "soms", "vaak", "echt", "heel", "erg", "leuk",
    "lief", "mooi", "fijn", "goed", "slecht", "prive", "traag", "langzaam", "snel", "stuk", "kapot", "leeg", "vol", "saai", "raar", "vreemd", "oud", "nieuw",
    "weg", "dood", "down", "verwijderd", "geblokkeerd", "gehackt", "offline", "online", "openbaar", "besloten", "doet", "werkt", "gaat", "zit", "sta",
    "staat", "hoor", "haha", "hihi", "hahaha", "lol", "jaja", "ja", "nee", "oke", "ok", "top", "super", "graag", "alleen", "samen", "even", "ff", "beetje",
    "veel", "weinig", "meer", "minder", "alles", "niks", "niets", "iets", "iemand", "niemand", "mij", "me", "mijn", "jouw", "zijn", "haar", "ons", "onze",
    "hun", "daarna", "eerst", "toch", "eens", "zeker", "misschien", "vind", "vindt", "wil", "wilt", "kan", "kun", "kunt", "mag", "moet", "zal", "zou",
    "gebruik", "gebruiken", "nodig", "handig", "irritant", "verslaafd", "blij", "bezig", "jaar", "uur", "dag", "week", "maand", "koffie", "wandelen",
    "kinderen", "zaterdag", "zondag", "druk", "moe", "ziek", "thuis", "werk", "school", "huis", "bed", "schat", "schatje", "lieverd", "liefje", "eerlijk",
    "gezegd", "account", "profiel", "berichtje", "bericht", "foto", "fotos", "chat", "chatten", "appen", "bellen", "mailen", "snappen", "dm", "dms", "story",
    "stories", "feed", "filter", "filters", "nieuwe", "oude", "vandaan", "dicht", "open", "uit", "aan", "beter", "slechter", "hetzelfde", "anders", "zelf",
    "ok",
    // en
    "i", "you", "he", "she", "it", "we", "they", "the", "a", "an", "and", "or", "but", "so", "if", "then", "that", "this", "these", "those", "am", "are",
    "be", "been", "have", "has", "do", "does", "did", "not", "no", "yes", "yeah", "yep", "nope", "also", "too", "still", "here", "there", "where", "what",
    "who", "how", "why", "when", "with", "of", "for", "to", "from", "at", "by", "about", "now", "today", "tomorrow", "yesterday", "always", "never",
    "sometimes", "really", "very", "nice", "cute", "sweet", "good", "bad", "private", "slow", "fast", "broken", "empty", "full", "boring", "weird", "old",
    "new", "gone", "dead", "deleted", "blocked", "hacked", "public", "acting", "working", "down", "lagging", "crashing", "glitching", "annoying", "great",
    "fine", "ok", "okay", "lol", "lmao", "haha", "hehe", "please", "pls", "thanks", "only", "just", "much", "many", "more", "less", "all", "nothing",
    "something", "someone", "me", "my", "your", "his", "her", "our", "their", "them", "him", "us", "first", "sure", "maybe", "think", "use", "using", "need",
    "want", "can", "could", "will", "would", "should", "must", "busy", "tired", "home", "work", "bed", "babe", "baby", "honey", "dear", "lot", "lots",
    "never", "ever", "again", "same", "different", "either", "neither", "account", "profile", "pics", "photos", "story", "stories", "is", "was", "were",
    "its", "it's", "im", "dont", "cant", "got", "get", "go", "going", "gonna", "wanna", "like", "love", "hate", "better", "worse", "off", "on", "up", "out",
    "in", "over", "under", "down",
    // de
    "ich", "du", "er", "sie", "es", "wir", "ihr", "der", "die", "das", "ein", "eine", "einen", "und", "oder", "aber", "denn", "wenn", "dann", "dass", "bin",
    "bist", "ist", "sind", "war", "habe", "hab", "hast", "hat", "nicht", "kein", "keine", "auch", "noch", "schon", "hier", "da", "wo", "was", "wer", "wie",
    "warum", "mit", "von", "fur", "nach", "auf", "aus", "an", "bei", "um", "zu", "uber", "jetzt", "heute", "morgen", "gestern", "immer", "nie", "manchmal",
    "sehr", "echt", "nett", "lieb", "schon", "gut", "schlecht", "privat", "langsam", "schnell", "kaputt", "leer", "voll", "langweilig", "komisch", "alt",
    "neu", "weg", "tot", "geloscht", "gesperrt", "offentlich", "spinnt", "geht", "nutze", "nutzen", "benutze", "eher", "lieber", "mal", "mich", "mir", "mein",
    "meine", "dein", "deine", "sein", "ihre", "unser", "uns", "euch", "nur", "viel", "mehr", "alles", "nichts", "etwas", "jemand", "vielleicht", "bitte",
    "danke", "ja", "nein", "doch", "heim", "arbeit", "zuhause", "total", "heute",
    // fr
    "je", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles", "le", "la", "les", "un", "une", "des", "et", "ou", "mais", "donc", "si", "que", "qui",
    "suis", "es", "est", "sommes", "etes", "sont", "ai", "as", "avons", "ont", "pas", "ne", "non", "oui", "aussi", "encore", "ici", "la", "ou", "quoi",
    "comment", "pourquoi", "quand", "avec", "de", "du", "pour", "dans", "sur", "sous", "chez", "maintenant", "aujourd", "hui", "demain", "hier", "toujours",
    "jamais", "tres", "vraiment", "gentil", "beau", "belle", "bien", "mal", "prive", "privee", "lent", "lente", "casse", "vide", "plein", "nul", "bizarre",
    "vieux", "nouveau", "bug", "beugue", "marche", "moi", "toi", "lui", "mon", "ma", "mes", "ton", "ta", "tes", "son", "sa", "ses", "notre", "votre", "leur",
    "tout", "rien", "quelque", "peut", "etre", "merci", "stp", "svp", "c", "ca", "cest", "t", "m", "j", "n", "s", "l", "d", "qu",
    // es
    "yo", "tu", "el", "ella", "nosotros", "vosotros", "ellos", "los", "las", "unos", "unas", "y", "o", "pero", "porque", "si", "soy", "eres", "somos", "son",
    "estoy", "esta", "estas", "tengo", "tienes", "tiene", "no", "tambien", "todavia", "aqui", "alli", "donde", "que", "quien", "como", "cuando", "con", "por",
    "para", "en", "sin", "sobre", "ahora", "hoy", "manana", "ayer", "siempre", "nunca", "muy", "bonito", "bonita", "bueno", "buena", "malo", "privado",
    "privada", "lento", "lenta", "roto", "vacio", "lleno", "raro", "viejo", "nuevo", "va", "fatal", "mal", "me", "te", "se", "mi", "tu", "su", "nuestro",
    "todo", "nada", "algo", "alguien", "quizas", "gracias", "vale", "claro", "los", "uso", "usas",
    // it
    "io", "lui", "lei", "noi", "voi", "loro", "il", "lo", "gli", "le", "uno", "una", "ma", "perche", "sono", "sei", "siamo", "siete", "ho", "hai", "ha",
    "abbiamo", "non", "anche", "ancora", "qui", "dove", "chi", "quando", "con", "per", "su", "tra", "fra", "oggi", "domani", "ieri", "sempre", "mai", "molto",
    "bello", "bella", "privato", "privata", "lentissimo", "lento", "rotto", "vuoto", "pieno", "strano", "vecchio", "nuovo", "mio", "mia", "tuo", "tua",
    "tutto", "niente", "qualcosa", "grazie", "si",
    // pl
    "ja", "ty", "on", "ona", "my", "wy", "oni", "i", "a", "albo", "ale", "jest", "sa", "mam", "masz", "ma", "nie", "tak", "tez", "tu", "tam", "gdzie", "co",
    "kto", "jak", "kiedy", "z", "do", "na", "w", "dzis", "jutro", "wczoraj", "zawsze", "nigdy", "bardzo", "prywatny", "prywatna", "wolny", "pusty", "moj",
    "moja", "twoj", "twoja", "wszystko", "nic", "cos", "dzieki", "to",
    // da, sv, nb
    "jeg", "du", "han", "hun", "vi", "de", "den", "det", "en", "et", "og", "eller", "men", "er", "var", "har", "ikke", "ogsa", "her", "der", "hvor", "hvad",
    "hvem", "hvordan", "med", "til", "fra", "pa", "nu", "na", "idag", "altid", "aldrig", "meget", "privat", "langsom", "min", "mit", "mine", "din", "dit",
    "alt", "intet", "noget", "tak", "ja", "nej", "jag", "hon", "och", "eller", "ar", "inte", "ocksa", "har", "dar", "vad", "vem", "hur", "till", "fran",
    "idag", "alltid", "aldrig", "mycket", "privat", "min", "mitt", "mina", "allt", "inget", "nagot", "tack", "meg", "deg", "hva", "hvem", "ikkje", "veldig",
    "mitt", "mine", "alt", "ingenting", "noe", "takk", "nei", "insta-en", "kl",
    // fi
    "mina", "sina", "han", "me", "te", "he", "ja", "tai", "mutta", "on", "olen", "olet", "ei", "en", "kylla", "myos", "viela", "tassa", "siella", "missa",
    "mita", "kuka", "miten", "milloin", "kanssa", "tanaan", "huomenna", "eilen", "aina", "koskaan", "tosi", "yksityinen", "hidas", "tyhja", "mun", "sun",
    "minun", "sinun", "kaikki", "ei", "mitaan", "jotain", "kiitos", "joo", "moi",
];
