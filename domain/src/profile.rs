//! Profile basics (SPEC §3 Profile): gender, sexuality and where a member lives, as asked by
//! `/complete-signup` and the location settings. The same checks run in the browser and on the
//! server; which countries and regions exist comes from the site and the region data.

use serde::{Deserialize, Serialize};

use crate::error::Field;
use crate::error::{ApiError, ErrorCode};

pub const CITY_MAX_CHARS: usize = 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gender {
    Male,
    Female,
}

impl Gender {
    pub const ALL: [Gender; 2] = [Gender::Male, Gender::Female];
    pub fn code(self) -> &'static str {
        match self {
            Gender::Male => "male",
            Gender::Female => "female",
        }
    }
    pub fn parse(code: &str) -> Option<Gender> {
        Gender::ALL.into_iter().find(|g| g.code() == code)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sexuality {
    Hetero,
    Gay,
    Lesbian,
    Bi,
}

impl Sexuality {
    pub const ALL: [Sexuality; 4] = [Sexuality::Hetero, Sexuality::Gay, Sexuality::Lesbian, Sexuality::Bi];
    pub fn code(self) -> &'static str {
        match self {
            Sexuality::Hetero => "hetero",
            Sexuality::Gay => "gay",
            Sexuality::Lesbian => "lesbian",
            Sexuality::Bi => "bi",
        }
    }
    pub fn parse(code: &str) -> Option<Sexuality> {
        Sexuality::ALL.into_iter().find(|s| s.code() == code)
    }
    /// Gay is for men and lesbian for women; hetero and bi fit both.
    pub fn fits(self, gender: Gender) -> bool {
        !matches!((self, gender), (Sexuality::Gay, Gender::Female) | (Sexuality::Lesbian, Gender::Male))
    }
    /// The choices offered to a member of this gender.
    pub fn choices_for(gender: Gender) -> Vec<Sexuality> {
        Sexuality::ALL.into_iter().filter(|s| s.fits(gender)).collect()
    }
    /// Which genders a member of this gender and sexuality is looking for.
    pub fn seeks(self, gender: Gender) -> &'static [Gender] {
        const MALE: &[Gender] = &[Gender::Male];
        const FEMALE: &[Gender] = &[Gender::Female];
        match (self, gender) {
            (Sexuality::Bi, _) => &Gender::ALL,
            (Sexuality::Hetero, Gender::Male) | (Sexuality::Gay | Sexuality::Lesbian, Gender::Female) => FEMALE,
            (Sexuality::Hetero, Gender::Female) | (Sexuality::Gay | Sexuality::Lesbian, Gender::Male) => MALE,
        }
    }
}

/// The genders a member looks for, from the stored codes; `None` until both are filled in.
pub fn seeks(gender: Option<&str>, sexuality: Option<&str>) -> Option<&'static [Gender]> {
    gender.and_then(Gender::parse).zip(sexuality.and_then(Sexuality::parse)).map(|(g, s)| s.seeks(g))
}

/// The choice fields of a profile (SPEC §3). Values are codes; `profile.{field}.{code}` in
/// `locales/` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attribute {
    HairColour,
    EyeColour,
    BodyType,
    RelationshipStatus,
    Tattoos,
    Reason,
}

impl Attribute {
    pub const ALL: [Attribute; 6] =
        [Attribute::HairColour, Attribute::EyeColour, Attribute::BodyType, Attribute::RelationshipStatus, Attribute::Tattoos, Attribute::Reason];

    /// The field's name: its column, its locale prefix and its entry in the site's
    /// `visible_profile_fields`.
    pub fn field(self) -> &'static str {
        match self {
            Attribute::HairColour => "hair_colour",
            Attribute::EyeColour => "eye_colour",
            Attribute::BodyType => "body_type",
            Attribute::RelationshipStatus => "relationship_status",
            Attribute::Tattoos => "tattoos",
            Attribute::Reason => "reason",
        }
    }

    pub fn choices(self) -> &'static [&'static str] {
        match self {
            Attribute::HairColour => &["black", "brown", "blond", "red", "grey", "other"],
            Attribute::EyeColour => &["brown", "blue", "green", "grey", "hazel"],
            Attribute::BodyType => &["slim", "athletic", "average", "curvy", "full"],
            Attribute::RelationshipStatus => &["single", "relationship", "married", "divorced", "widowed"],
            Attribute::Tattoos => &["none", "some", "many"],
            Attribute::Reason => &["fun", "chat", "friendship", "relationship", "adventure"],
        }
    }

    /// An empty value clears the field; anything else must be one of the choices.
    pub fn check(self, value: &str) -> Result<Option<&'static str>, ApiError> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(None);
        }
        self.choices().iter().find(|c| **c == value).map(|c| Some(*c)).ok_or_else(|| ApiError::field(Field::Form, ErrorCode::ChoiceInvalid))
    }
}

/// Interests members choose from, with their icons (SPEC §3); `profile.interest.{code}` names
/// them. Written into the `interests` table at start-up.
pub const INTERESTS: [(&str, &str); 24] = [
    ("music", "🎵"),
    ("travel", "✈️"),
    ("sports", "⚽"),
    ("cooking", "🍳"),
    ("movies", "🎬"),
    ("reading", "📚"),
    ("dancing", "💃"),
    ("fitness", "🏋️"),
    ("nature", "🌲"),
    ("beach", "🏖️"),
    ("art", "🎨"),
    ("photography", "📷"),
    ("gaming", "🎮"),
    ("wine", "🍷"),
    ("coffee", "☕"),
    ("animals", "🐾"),
    ("cycling", "🚴"),
    ("festivals", "🎉"),
    ("theatre", "🎭"),
    ("fashion", "👗"),
    ("cars", "🚗"),
    ("yoga", "🧘"),
    ("gardening", "🌷"),
    ("going_out", "🍸"),
];

pub const ABOUT_MAX_CHARS: usize = 1000;
pub const MAX_INTERESTS: usize = 10;

/// The rest of the profile as the editor sends it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DetailsForm {
    /// (field, code) per choice field; an empty code clears it.
    pub attributes: Vec<(String, String)>,
    pub interests: Vec<String>,
    pub about: String,
}

/// Checked details: every [`Attribute`] with its value or none, known interests, tidy text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Details {
    pub attributes: Vec<(Attribute, Option<&'static str>)>,
    pub interests: Vec<&'static str>,
    pub about: Option<String>,
}

/// Checks the details: choices from their lists, at most [`MAX_INTERESTS`] known interests,
/// an about text of at most [`ABOUT_MAX_CHARS`] without control characters (line breaks kept).
pub fn validate_details(form: &DetailsForm) -> Result<Details, Vec<ApiError>> {
    let mut errors = Vec::new();
    let mut attributes = Vec::new();
    for a in Attribute::ALL {
        let value = form.attributes.iter().find(|(f, _)| f == a.field()).map(|(_, v)| v.as_str()).unwrap_or("");
        match a.check(value) {
            Ok(v) => attributes.push((a, v)),
            Err(e) => errors.push(e),
        }
    }
    let mut interests: Vec<&'static str> = Vec::new();
    for code in &form.interests {
        match INTERESTS.iter().find(|(c, _)| c == code) {
            Some((c, _)) if !interests.contains(c) => interests.push(c),
            Some(_) => {}
            None => errors.push(ApiError::field(Field::Form, ErrorCode::ChoiceInvalid)),
        }
    }
    if interests.len() > MAX_INTERESTS {
        errors.push(ApiError::field(Field::Form, ErrorCode::TooManyInterests).with("max", MAX_INTERESTS));
    }
    let about: String = form.about.trim().chars().filter(|c| !c.is_control() || *c == '\n').collect();
    let about = about.replace("\n\n\n", "\n\n");
    if about.chars().count() > ABOUT_MAX_CHARS {
        errors.push(ApiError::field(Field::Form, ErrorCode::AboutTooLong).with("max", ABOUT_MAX_CHARS));
    }
    if errors.is_empty() {
        Ok(Details { attributes, interests, about: (!about.is_empty()).then_some(about) })
    } else {
        Err(errors)
    }
}

/// A region a member can live in (one line of the region data).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Region {
    pub code: String,
    pub country: String,
    pub name: String,
}

/// What `/complete-signup` and the location settings send, as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocationForm {
    pub country: String,
    pub region: String,
    pub city: String,
}

/// A checked location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub country: String,
    pub region: String,
    pub city: String,
}

/// Checks a location against the site's countries and the region data: the country must be one
/// of the site's, the region must lie in that country, the city is required, at most
/// [`CITY_MAX_CHARS`] characters, and made of letters, spaces, hyphens, apostrophes and dots.
pub fn validate_location(form: &LocationForm, site_countries: &[String], regions: &[Region]) -> Result<Location, Vec<ApiError>> {
    let mut errors = Vec::new();
    let country = form.country.trim().to_ascii_uppercase();
    if !site_countries.iter().any(|c| c.eq_ignore_ascii_case(&country)) {
        errors.push(ApiError::field(Field::Country, ErrorCode::CountryRequired));
    }
    let region = form.region.trim().to_string();
    if !regions.iter().any(|r| r.code == region && r.country == country) {
        errors.push(ApiError::field(Field::Region, ErrorCode::RegionRequired));
    }
    let city = form.city.split_whitespace().collect::<Vec<_>>().join(" ");
    if city.is_empty() {
        errors.push(ApiError::field(Field::City, ErrorCode::CityRequired));
    } else if city.chars().count() > CITY_MAX_CHARS
        || !city.chars().all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’' | '.'))
        || !city.chars().any(char::is_alphabetic)
    {
        errors.push(ApiError::field(Field::City, ErrorCode::CityInvalid));
    }
    if errors.is_empty() {
        Ok(Location { country, region, city })
    } else {
        Err(errors)
    }
}

/// What `/complete-signup` sends besides the location.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BasicsForm {
    pub gender: String,
    pub sexuality: String,
    pub location: LocationForm,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Basics {
    pub gender: Gender,
    pub sexuality: Sexuality,
    pub location: Location,
}

/// Checks the profile basics; every wrong field gets its own error.
pub fn validate_basics(form: &BasicsForm, site_countries: &[String], regions: &[Region]) -> Result<Basics, Vec<ApiError>> {
    let mut errors = Vec::new();
    let gender = Gender::parse(form.gender.trim());
    if gender.is_none() {
        errors.push(ApiError::field(Field::Gender, ErrorCode::GenderRequired));
    }
    let sexuality = Sexuality::parse(form.sexuality.trim());
    match (sexuality, gender) {
        (None, _) => errors.push(ApiError::field(Field::Sexuality, ErrorCode::SexualityRequired)),
        (Some(s), Some(g)) if !s.fits(g) => errors.push(ApiError::field(Field::Sexuality, ErrorCode::SexualityRequired)),
        _ => {}
    }
    let location = validate_location(&form.location, site_countries, regions);
    match (gender, sexuality, location) {
        (Some(gender), Some(sexuality), Ok(location)) if errors.is_empty() => Ok(Basics { gender, sexuality, location }),
        (_, _, location) => {
            if let Err(mut more) = location {
                errors.append(&mut more);
            }
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn regions() -> Vec<Region> {
        vec![
            Region { code: "NL-NH".into(), country: "NL".into(), name: "Noord-Holland".into() },
            Region { code: "BE-VAN".into(), country: "BE".into(), name: "Antwerpen".into() },
        ]
    }
    fn countries() -> Vec<String> {
        vec!["NL".into(), "BE".into()]
    }
    fn location(country: &str, region: &str, city: &str) -> LocationForm {
        LocationForm { country: country.into(), region: region.into(), city: city.into() }
    }
    fn keys(errors: &[ApiError]) -> Vec<&str> {
        errors.iter().map(|e| e.locale_key()).collect()
    }

    #[test]
    fn a_full_location_passes_and_is_tidied() {
        let ok = validate_location(&location("nl", "NL-NH", "  Den   Helder "), &countries(), &regions()).unwrap();
        assert_eq!(ok, Location { country: "NL".into(), region: "NL-NH".into(), city: "Den Helder".into() });
        assert!(validate_location(&location("BE", "BE-VAN", "’s-Gravenwezel"), &countries(), &regions()).is_ok());
        assert!(validate_location(&location("NL", "NL-NH", "St. Maarten"), &countries(), &regions()).is_ok());
    }

    #[test]
    fn country_must_be_the_sites_and_region_must_lie_in_it() {
        let e = validate_location(&location("DE", "NL-NH", "Berlin"), &countries(), &regions()).unwrap_err();
        assert_eq!(keys(&e), ["validation.country_required", "validation.region_required"]);
        let e = validate_location(&location("BE", "NL-NH", "Gent"), &countries(), &regions()).unwrap_err();
        assert_eq!(keys(&e), ["validation.region_required"]);
        assert_eq!(e[0].field, Some(Field::Region));
    }

    #[test]
    fn city_required_and_plain() {
        let e = validate_location(&location("NL", "NL-NH", "   "), &countries(), &regions()).unwrap_err();
        assert_eq!(keys(&e), ["validation.city_required"]);
        for bad in ["<script>", "Haarlem1", "---", &"a".repeat(CITY_MAX_CHARS + 1)] {
            let e = validate_location(&location("NL", "NL-NH", bad), &countries(), &regions()).unwrap_err();
            assert_eq!(keys(&e), ["validation.city_invalid"], "{bad}");
        }
    }

    #[test]
    fn basics_check_gender_and_fitting_sexuality() {
        let form = |g: &str, s: &str| BasicsForm { gender: g.into(), sexuality: s.into(), location: location("NL", "NL-NH", "Haarlem") };
        let ok = validate_basics(&form("female", "lesbian"), &countries(), &regions()).unwrap();
        assert_eq!((ok.gender, ok.sexuality), (Gender::Female, Sexuality::Lesbian));
        assert_eq!(keys(&validate_basics(&form("male", "lesbian"), &countries(), &regions()).unwrap_err()), ["validation.sexuality_required"]);
        assert_eq!(keys(&validate_basics(&form("", "bi"), &countries(), &regions()).unwrap_err()), ["validation.gender_required"]);
        let all = validate_basics(&BasicsForm::default(), &countries(), &regions()).unwrap_err();
        assert_eq!(
            keys(&all),
            [
                "validation.gender_required",
                "validation.sexuality_required",
                "validation.country_required",
                "validation.region_required",
                "validation.city_required"
            ]
        );
    }

    #[test]
    fn attributes_accept_their_choices_and_empty_only() {
        for a in Attribute::ALL {
            for c in a.choices() {
                assert_eq!(a.check(c).unwrap(), Some(*c));
            }
            assert_eq!(a.check("  ").unwrap(), None);
            assert_eq!(a.check("purple").unwrap_err().locale_key(), "validation.choice_invalid");
        }
    }

    #[test]
    fn details_check_choices_interests_and_text() {
        let form = DetailsForm {
            attributes: vec![("hair_colour".into(), "red".into()), ("tattoos".into(), "".into())],
            interests: vec!["music".into(), "travel".into(), "music".into()],
            about: "  Hallo!\u{7}\nIk ben Anna.  ".into(),
        };
        let ok = validate_details(&form).unwrap();
        assert!(ok.attributes.contains(&(Attribute::HairColour, Some("red"))));
        assert!(ok.attributes.contains(&(Attribute::Tattoos, None)));
        assert_eq!(ok.attributes.len(), Attribute::ALL.len());
        assert_eq!(ok.interests, ["music", "travel"], "duplicates fold");
        assert_eq!(ok.about.as_deref(), Some("Hallo!\nIk ben Anna."));

        let bad = DetailsForm {
            attributes: vec![("eye_colour".into(), "purple".into())],
            interests: vec!["knitting".into()],
            about: "x".repeat(ABOUT_MAX_CHARS + 1),
        };
        let keys: Vec<String> = validate_details(&bad).unwrap_err().into_iter().map(|e| e.locale_key().to_string()).collect();
        assert_eq!(keys, ["validation.choice_invalid", "validation.choice_invalid", "validation.about_too_long"]);
        let many = DetailsForm { interests: INTERESTS.iter().take(MAX_INTERESTS + 1).map(|(c, _)| c.to_string()).collect(), ..Default::default() };
        assert_eq!(validate_details(&many).unwrap_err()[0].locale_key(), "validation.too_many_interests");
    }

    #[test]
    fn who_seeks_whom() {
        assert_eq!(Sexuality::Hetero.seeks(Gender::Male), [Gender::Female]);
        assert_eq!(Sexuality::Hetero.seeks(Gender::Female), [Gender::Male]);
        assert_eq!(Sexuality::Gay.seeks(Gender::Male), [Gender::Male]);
        assert_eq!(Sexuality::Lesbian.seeks(Gender::Female), [Gender::Female]);
        assert_eq!(Sexuality::Bi.seeks(Gender::Male), Gender::ALL);
        assert_eq!(Sexuality::choices_for(Gender::Male), [Sexuality::Hetero, Sexuality::Gay, Sexuality::Bi]);
        assert_eq!(seeks(Some("female"), Some("hetero")), Some(&[Gender::Male][..]));
        assert_eq!((seeks(None, Some("hetero")), seeks(Some("male"), None), seeks(Some("robot"), Some("bi"))), (None, None, None));
    }

    proptest! {
        #[test]
        fn codes_round_trip(i in 0usize..4, j in 0usize..2) {
            prop_assert_eq!(Sexuality::parse(Sexuality::ALL[i].code()), Some(Sexuality::ALL[i]));
            prop_assert_eq!(Gender::parse(Gender::ALL[j].code()), Some(Gender::ALL[j]));
        }

        #[test]
        fn offered_choices_always_validate(j in 0usize..2, pick in 0usize..3) {
            let gender = Gender::ALL[j];
            let choices = Sexuality::choices_for(gender);
            let s = choices[pick % choices.len()];
            let form = BasicsForm { gender: gender.code().into(), sexuality: s.code().into(), location: location("NL", "NL-NH", "Haarlem") };
            prop_assert!(validate_basics(&form, &countries(), &regions()).is_ok());
        }

        #[test]
        fn any_city_text_never_panics_and_accepted_cities_are_tidy(city in "\\PC{0,80}") {
            if let Ok(ok) = validate_location(&location("NL", "NL-NH", &city), &countries(), &regions()) {
                prop_assert!(!ok.city.starts_with(' ') && !ok.city.ends_with(' ') && !ok.city.contains("  "));
                prop_assert!(ok.city.chars().count() <= CITY_MAX_CHARS);
                prop_assert!(!ok.city.contains('<'));
            }
        }
    }
}
