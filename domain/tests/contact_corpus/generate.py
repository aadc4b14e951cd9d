"""Writes generated.tsv: variations on the written corpus (written.tsv), from a fixed seed.

Each line: language, kinds ("none" or a comma list), text with the contact details between
⟦ and ⟧. Run `python3 generate.py` here; the output is committed.
"""
import random

R = random.Random(20240551)

LANGS = ["nl", "en", "de", "fr", "es", "it", "pl", "da", "sv", "nb", "fi"]

DIGIT_WORDS = {
    "nl": "nul een twee drie vier vijf zes zeven acht negen".split(),
    "en": "zero one two three four five six seven eight nine".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
    "da": "nul en to tre fire fem seks syv otte ni".split(),
    "sv": "noll ett två tre fyra fem sex sju åtta nio".split(),
    "nb": "null en to tre fire fem seks sju åtte ni".split(),
    "fi": "nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän".split(),
}
THEN = {"nl": "en dan", "en": "and then", "de": "und dann", "fr": "et puis", "es": "y luego", "it": "e poi",
        "pl": "i potem", "da": "og så", "sv": "och sen", "nb": "og så", "fi": "ja sitten"}
AT = {"nl": ["apenstaartje", "at", "(at)"], "en": ["at", "(at)", "[at]"], "de": ["ät", "(at)", "klammeraffe"],
      "fr": ["arobase", "(at)", "at"], "es": ["arroba", "(arroba)", "at"], "it": ["chiocciola", "(at)", "at"],
      "pl": ["małpa", "(at)", "at"], "da": ["snabel-a", "(at)", "at"], "sv": ["snabel-a", "(at)", "at"],
      "nb": ["krøllalfa", "(at)", "at"], "fi": ["ät", "(at)", "at"]}
DOT = {"nl": ["punt", "(punt)", "dot"], "en": ["dot", "(dot)", "[dot]"], "de": ["punkt", "(punkt)", "dot"],
       "fr": ["point", "(point)", "dot"], "es": ["punto", "(punto)", "dot"], "it": ["punto", "(punto)", "dot"],
       "pl": ["kropka", "(kropka)", "dot"], "da": ["punktum", "prik", "dot"], "sv": ["punkt", "(punkt)", "dot"],
       "nb": ["punktum", "prikk", "dot"], "fi": ["piste", "(piste)", "dot"]}
NUMBERS = {
    "nl": ["06 48 29 17 33", "0612345678", "06-23456789", "0031 6 11223344", "+31 6 98765432", "010-4567890", "0475 12 34 56"],
    "en": ["07700 900123", "+44 7911 123456", "555 867 5309", "07123 456789", "+1 212 555 0187"],
    "de": ["0151 23456789", "+49 170 1234567", "0176 98765432", "030 12345678"],
    "fr": ["06 12 34 56 78", "07 98 76 54 32", "+33 6 11 22 33 44"],
    "es": ["612 345 678", "+34 699 123 456", "655 44 33 22"],
    "it": ["347 123 4567", "+39 333 765 4321", "320 111 2233"],
    "pl": ["512 345 678", "+48 601 234 567"],
    "da": ["23 48 61 79", "+45 31 22 44 55", "40 11 22 33"],
    "sv": ["070-123 45 67", "+46 73 987 65 43", "076 555 12 34"],
    "nb": ["412 34 567", "+47 934 56 789", "98 76 54 32"],
    "fi": ["040 123 4567", "+358 50 987 6543", "045 111 2233"],
}
FRAMES = {
    "nl": [("bel me maar op {}", ""), ("hier is mijn nummer: {}", " 😘"), ("app me {}", " xx"), ("{}", " bel me vanavond"),
           ("oke dan, {}", ""), ("mijn nr: {}", " maar niet doorgeven he"), ("als je durft: {}", " 😈")],
    "en": [("call me on {}", ""), ("text me {}", " x"), ("here you go {}", " 😘"), ("{}", " hit me up"), ("my number: {}", "")],
    "de": [("ruf mich an: {}", ""), ("schreib mir {}", " 😘"), ("meine Nummer {}", ""), ("{}", " meld dich")],
    "fr": [("appelle-moi {}", ""), ("mon num {}", " 😘"), ("{}", " écris-moi"), ("voilà {}", "")],
    "es": [("llámame {}", ""), ("mi número {}", " 😘"), ("{}", " escríbeme"), ("toma {}", "")],
    "it": [("chiamami {}", ""), ("il mio numero {}", " 😘"), ("{}", " scrivimi")],
    "pl": [("zadzwoń {}", ""), ("mój numer {}", " 😘"), ("{}", " napisz")],
    "da": [("ring til mig {}", ""), ("mit nummer {}", " 😘"), ("{}", " skriv")],
    "sv": [("ring mig {}", ""), ("mitt nummer {}", " 😘"), ("{}", " sms:a")],
    "nb": [("ring meg {}", ""), ("nummeret mitt {}", " 😘"), ("{}", " send sms")],
    "fi": [("soita {}", ""), ("mun numero {}", " 😘"), ("{}", " laita viestiä")],
}
SUPER = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
FULL = str.maketrans("0123456789", "０１２３４５６７８９")
BOLD = str.maketrans("0123456789", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗")
CIRCLED = str.maketrans("0123456789", "⓪①②③④⑤⑥⑦⑧⑨")
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff", "\u200e"]
SYMBOLS = [" | ", ",", ", ", " 💋 ", "🔥", " • ", "~", " * ", " ♥ ", "_", " / ", " - ", ". ", " ❤️ ", "😘", " :) "]


def digits_of(number):
    return [c for c in number if c.isdigit()]


def phone(lang):
    number = R.choice(NUMBERS[lang])
    way = R.randrange(12)
    if way == 0:  # invisible characters inside
        inv = R.choice(INVISIBLE)
        return "⟦" + inv.join(number.replace(" ", "")) + "⟧"
    if way == 1:
        sym = R.choice(SYMBOLS)
        return "⟦" + sym.join(number.split(" ")) + "⟧" if " " in number else "⟦" + sym.join([number[:4], number[4:7], number[7:]]) + "⟧"
    if way == 2:  # words
        ws = [DIGIT_WORDS[lang][int(d)] for d in digits_of(number)]
        sep = R.choice([" ", ", ", "-", " "])
        return "⟦" + sep.join(ws) + "⟧"
    if way == 3:
        return "⟦" + number.translate(R.choice([SUPER, SUB, FULL, BOLD, CIRCLED])) + "⟧"
    if way == 4:  # split over the sentence
        ds = "".join(digits_of(number))
        cut = R.randrange(3, 6)
        return "⟦" + ds[:cut] + "⟧ " + THEN[lang] + " ⟦" + ds[cut:] + "⟧"
    if way == 5:  # letter O for zero
        return "⟦" + number.replace("0", R.choice(["O", "o"])) + "⟧"
    if way == 6:  # keycaps
        return "⟦" + "".join(c + "\ufe0f\u20e3" if c.isdigit() else c for c in number) + "⟧"
    if way == 7:  # every digit spaced
        return "⟦" + " ".join(digits_of(number)) + "⟧"
    if way == 8:  # mixed words and digits
        ds = digits_of(number)
        return "⟦" + " ".join(DIGIT_WORDS[lang][int(d)] if i % 2 else d for i, d in enumerate(ds)) + "⟧"
    if way == 9:
        inv = R.choice(INVISIBLE)
        return "⟦" + inv.join(number.split(" ")) + "⟧" if " " in number else "⟦" + number + "⟧"
    return "⟦" + number + "⟧"


NAMES = ["lisa", "anouk", "fleur", "kim", "noor", "jessie", "emma", "lena", "chloe", "maria", "giulia", "kasia", "mette",
         "ingrid", "aino", "sophie", "bram", "tom", "joost", "mark", "sven", "lars", "pierre", "pablo", "marco"]
PROVIDERS = ["gmail.com", "hotmail.com", "outlook.com", "yahoo.com", "live.nl", "ziggo.nl", "gmx.de", "web.de", "orange.fr",
             "icloud.com", "proton.me", "wp.pl", "telia.se", "online.no", "libero.it", "kpnmail.nl", "hotmail.es"]


def local_part():
    name = R.choice(NAMES)
    return R.choice([name, name + str(R.randrange(70, 100)), name + "_" + R.choice(["x", "xx", "b", "hot", "xo"]),
                     name + "." + R.choice(["devries", "smith", "m", "k", "b"]), "heet" + name, name + "tje" + str(R.randrange(1, 30))])


def email(lang):
    local, provider = local_part(), R.choice(PROVIDERS)
    host, tld = provider.split(".")
    way = R.randrange(9)
    if way in (3, 7):
        host = R.choice(["gmail", "hotmail", "outlook", "yahoo", "gmx", "icloud", "ziggo", "protonmail", "libero"])
    if way == 0:
        return f"⟦{local} @ {host} . {tld}⟧"
    if way == 1:
        return f"⟦{local} {R.choice(AT[lang])} {host} {R.choice(DOT[lang])} {tld}⟧"
    if way == 2:
        return f"⟦{local}[@]{host}[.]{tld}⟧"
    if way == 3:
        label = {"nl": "mijn {} is", "en": "my {} is", "de": "mein {} ist", "fr": "mon {} c'est", "es": "mi {} es"}.get(lang, "{}:")
        return label.format(host) + f" ⟦{local}⟧"
    if way == 4:
        return f"⟦{local}⟧ (a) " + R.choice(["•••", "***", "xxx.com", "•••.com"])
    if way == 5:
        return f"⟦{local}@{host}.{tld}⟧".replace("a", R.choice(["а", "a"])).replace("o", R.choice(["о", "o"]))
    if way == 6:
        inv = R.choice(INVISIBLE)
        return f"⟦{local}{inv}@{inv}{host}.{tld}⟧"
    if way == 7:
        return f"{host}: ⟦{local}⟧"
    return f"⟦{local}@{host}.{tld}⟧"


SITE_TLDS = ["nl", "com", "de", "fun", "love", "club", "site", "online", "xyz", "me", "live", "vip", "page", "cam", "fr", "es"]


def web(lang):
    name = R.choice(NAMES) + R.choice(["-fotos", "site", "cam", "-prive", "world", "x", "pics"])
    tld = R.choice(SITE_TLDS)
    way = R.randrange(9)
    if way == 0:
        return f"⟦{name} . {tld}⟧"
    if way == 1:
        return f"⟦{name}[.]{tld}⟧"
    if way == 2:
        return f"⟦{name} {R.choice(DOT[lang])} {tld}⟧"
    if way == 3:
        return f"⟦w w w . {name} . {tld}⟧"
    if way == 4:
        return f"⟦{R.choice(['linktr.ee', 'lnk.bio', 'beacons.ai', 'bit.ly', 'onlyfans.com', 'fansly.com', 'allmylinks.com'])}/{R.choice(NAMES)}{R.choice(['_x', '99', '.b', ''])}⟧"
    if way == 5:
        return f"⟦https://{name}.{tld}/{R.choice(['fotos', 'me', 'vip', 'privé'])}⟧"
    if way == 6:
        return f"⟦www.{name}.{tld}⟧"
    if way == 7:
        return f"⟦{name}(.){tld}⟧"
    return f"⟦{name}.{tld}⟧"


APPS = ["snap", "snapchat", "insta", "ig", "sc", "tg", "telegram", "kik", "👻", "discord", "skype", "tiktok", "Snapchat-naam", "IG", "Insta"]


def handle():
    name = R.choice(NAMES)
    return R.choice([name + "_" + str(R.randrange(80, 100)), name + "." + R.choice(["b", "x", "hot"]), name + str(R.randrange(1, 99)),
                     "x" + name + "x", name + "_official", "the." + name])


def messenger(lang):
    app, h = R.choice(APPS), handle()
    if app == "discord":
        return f"discord ⟦{R.choice(NAMES)}#{R.randrange(1000, 9999)}⟧"
    if app == "skype":
        return f"skype ⟦live:{h}⟧"
    way = R.randrange(7)
    if way == 0:
        return f"{app}: ⟦{h}⟧"
    if way == 1:
        return f"{app} ⟦@{h}⟧"
    if way == 2:
        verb = {"nl": "op", "en": "on", "de": "auf", "fr": "sur", "es": "en", "it": "su", "pl": "na", "da": "på", "sv": "på", "nb": "på", "fi": "on"}[lang]
        return f"⟦{h}⟧ {verb} {app}"
    if way == 3:
        return f"{R.choice(['•••', '***', 's•••', 'i***'])}: ⟦{h}⟧"
    if way == 4:
        return f"⟦@{h}⟧"
    if way == 5:
        return f"{app} = ⟦{h}⟧"
    return f"{app} - ⟦{h}⟧"


KIND_FRAMES = {
    "nl": [("{}", ""), ("hoi schat, ", " 😘"), ("laten we hier weg gaan: ", ""), ("", " stuur me wat"), ("ik vind je echt leuk, ", " doe maar"),
           ("hier is te duur, ", ""), ("voor de zekerheid: ", " x")],
    "en": [("{}", ""), ("hey babe ", " 😘"), ("this site is so expensive, ", ""), ("", " message me there"), ("ok fine ", "")],
    "de": [("{}", ""), ("hey süße ", " 😘"), ("hier ist es zu teuer, ", ""), ("", " schreib mir dort")],
    "fr": [("{}", ""), ("coucou ", " 😘"), ("c'est trop cher ici, ", ""), ("", " écris-moi là-bas")],
    "es": [("{}", ""), ("hola guapa ", " 😘"), ("aquí es muy caro, ", ""), ("", " escríbeme allí")],
    "it": [("{}", ""), ("ciao bella ", " 😘"), ("qui costa troppo, ", "")],
    "pl": [("{}", ""), ("hej ", " 😘"), ("tu jest za drogo, ", "")],
    "da": [("{}", ""), ("hej søde ", " 😘"), ("her er for dyrt, ", "")],
    "sv": [("{}", ""), ("hej snygging ", " 😘"), ("här är för dyrt, ", "")],
    "nb": [("{}", ""), ("hei søta ", " 😘"), ("her er for dyrt, ", "")],
    "fi": [("{}", ""), ("moi ", " 😘"), ("täällä on liian kallista, ", "")],
}


def framed(lang, detail, frames):
    pre, post = R.choice(frames[lang])
    if "{}" in pre:
        return pre.format(detail) + post
    return pre + detail + post


ORDINARY = {
    "nl": ["ik ben {age} en woon in {city}", "zaterdag {date} om {time}?", "ik ben {height} en sport {n} keer per week",
           "heb {n} kinderen van {n2} en {n3}", "{credits} credits gekocht voor {price}", "mijn {app} is privé",
           "{App} doet raar vandaag", "ben net thuis.{Word} eerst eten", "ik heb {app}, {app2} en {app3} maar gebruik ze niet",
           "bel me niet hoor, ik ben op mijn werk tot {time}", "trein van {time} had {n} min vertraging",
           "ik zit niet op {app}, alleen hier", "om {time} of {time2}, wat jij wilt", "hoi! leuk dat je reageert.{Word} vertel eens wat over jezelf",
           "ik heb {n} katten en {n2} honden en {n3} vissen", "vandaag {n} km gefietst en {n2} km gelopen",
           "we hebben {date} en {date2} afgesproken toch", "mijn postcode begint met {pc}", "ik ben {age}, hij is {age2}",
           "kun je op {date} om {time}? anders {date2}", "heb je {app}? ik vind het niks",
           "jij bent zo leuk, ik moest de hele dag aan je denken en ik kan niet wachten om je te zien, {date} om {time} bij het cafe op de hoek? kus",
           "sorry voor de late reactie, was tot {time} aan het werk en daarna nog {n} uur boodschappen gedaan haha",
           "ik vind het hier fijner dan op {app}, daar word je alleen maar lastig gevallen"],
    "en": ["I'm {age} and live in {city}", "saturday {date} at {time}?", "I'm {height} and work out {n} times a week",
           "bought {credits} credits for {price}", "my {app} is private", "{App} is acting up today", "just got home.{Word} dinner first",
           "I have {app}, {app2} and {app3} but never use them", "don't call me, I'm at work until {time}",
           "at {time} or {time2}, your choice", "I have {n} cats and {n2} dogs", "are you free {date} at {time}?",
           "you're so sweet, I've been thinking about you all day and honestly I can't wait to meet, {date} at {time} at the bar? x",
           "sorry I was busy.{Word} talk later"],
    "de": ["ich bin {age} und wohne in {city}", "Samstag {date} um {time}?", "ich bin {height} groß", "{credits} Credits für {price} gekauft",
           "mein {app} ist privat", "{App} spinnt heute", "bin gerade heim.{Word} erstmal essen", "ich habe {n} Katzen und {n2} Hunde",
           "ruf mich nicht an, ich arbeite bis {time}", "um {time} oder {time2}?"],
    "fr": ["j'ai {age} ans et j'habite à {city}", "samedi {date} à {time} ?", "je mesure {height}", "{credits} crédits pour {price}",
           "mon {app} est privé", "{App} bug aujourd'hui", "je suis rentrée.{Word} je mange", "j'ai {n} chats et {n2} chiens"],
    "es": ["tengo {age} años y vivo en {city}", "el sábado {date} a las {time}?", "mido {height}", "{credits} créditos por {price}",
           "mi {app} es privado", "{App} va fatal hoy", "ya llegué.{Word} a cenar", "tengo {n} gatos y {n2} perros"],
    "it": ["ho {age} anni e vivo a {city}", "sabato {date} alle {time}?", "sono alta {height}", "il mio {app} è privato", "ho {n} gatti"],
    "pl": ["mam {age} lat i mieszkam w {city}", "w sobotę {date} o {time}?", "mój {app} jest prywatny", "mam {n} koty"],
    "da": ["jeg er {age} og bor i {city}", "lørdag {date} kl. {time}?", "min {app} er privat", "jeg har {n} katte"],
    "sv": ["jag är {age} och bor i {city}", "lördag {date} kl {time}?", "min {app} är privat", "jag har {n} katter"],
    "nb": ["jeg er {age} og bor i {city}", "lørdag {date} kl. {time}?", "{app}-en min er privat", "jeg har {n} katter"],
    "fi": ["olen {age} ja asun {city}", "lauantaina {date} klo {time}?", "mun {app} on yksityinen", "mulla on {n} kissaa"],
}
CITIES = ["Amsterdam", "Utrecht", "Gent", "Berlin", "Paris", "Madrid", "Roma", "Kraków", "Aarhus", "Göteborg", "Bergen", "Tampere"]
WORDS = ["Nu", "Eerst", "Dan", "Now", "Then", "Jetzt", "Maintenant", "Ahora", "Zo", "Ok", "Me", "It", "No", "Be"]
APP_NAMES = ["insta", "snapchat", "whatsapp", "telegram", "tiktok", "facebook", "snap", "signal", "kik", "discord", "skype", "twitter"]


def ordinary(lang):
    t = R.choice(ORDINARY[lang])
    d = lambda: R.choice([f"{R.randrange(1, 29):02d}-{R.randrange(1, 13):02d}-2024", f"{R.randrange(1, 29)}/{R.randrange(1, 13)}",
                          f"{R.randrange(1, 29):02d}.{R.randrange(1, 13):02d}.2025", f"{R.randrange(1, 29)}.{R.randrange(1, 13)}."])
    tm = lambda: R.choice([f"{R.randrange(7, 24)}.{R.choice(['00', '15', '30', '45'])}", f"{R.randrange(7, 24)}:{R.choice(['00', '15', '30', '45'])}",
                           f"{R.randrange(7, 24)}u", f"{R.randrange(7, 24)}h{R.choice(['00', '30'])}"])
    apps = R.sample(APP_NAMES, 3)
    return t.format(age=R.randrange(18, 75), age2=R.randrange(18, 75), city=R.choice(CITIES), date=d(), date2=d(), time=tm(), time2=tm(),
                    height=R.choice(["1.85", "1,72", "1.68m", "185 cm", "1m80"]), n=R.randrange(1, 12), n2=R.randrange(1, 15), n3=R.randrange(1, 20),
                    credits=R.choice([100, 250, 500, 1000, 2500]), price=R.choice(["€ 49,95", "19.99", "€99", "149,00 euro", "£29.99"]),
                    app=apps[0], app2=apps[1], app3=apps[2], App=apps[0].capitalize(), Word=R.choice(WORDS), pc=R.choice(["1012", "35", "2511", "9700"]))


def main():
    lines = []
    seen = set()
    makers = [("phone", phone), ("email", email), ("web", web), ("messenger", messenger)]
    while len(lines) < 300:
        lang = R.choice(LANGS)
        kind, make = R.choice(makers)
        detail = make(lang)
        text = framed(lang, detail, FRAMES if kind == "phone" else KIND_FRAMES)
        if text not in seen:
            seen.add(text)
            lines.append(f"{lang}\t{kind}\t{text}")
    n = 0
    while n < 300:
        lang = R.choice(LANGS)
        text = ordinary(lang)
        if text not in seen:
            seen.add(text)
            lines.append(f"{lang}\tnone\t{text}")
            n += 1
    with open("generated.tsv", "w", encoding="utf-8") as f:
        f.write("# generated by generate.py from a fixed seed: language\tkinds\ttext (contact details between ⟦ and ⟧)\n")
        f.write("\n".join(lines) + "\n")


main()
