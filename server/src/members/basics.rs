//! Profile basics: gender, sexuality and location, asked right after signup
//! (`/complete-signup`) and changeable later (location in the settings).

use domain::profile::{validate_basics, validate_details, validate_location, Attribute, BasicsForm, DetailsForm, LocationForm, Region};
use domain::site::SiteSettings;
use sqlx::Row;

use super::Members;
use crate::error::AppError;

/// What a member filled in so far (`None` where nothing yet).
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct ProfileBasics {
    pub name: String,
    /// `YYYY-MM-DD`.
    pub date_of_birth: String,
    pub gender: Option<String>,
    pub sexuality: Option<String>,
    pub country: Option<String>,
    pub region: Option<String>,
    pub city: Option<String>,
    pub status: String,
}

impl ProfileBasics {
    pub fn gender(&self) -> Option<domain::profile::Gender> {
        self.gender.as_deref().and_then(domain::profile::Gender::parse)
    }

    /// The genders the member looks for; `None` until gender and sexuality are filled in.
    pub fn seeks(&self) -> Option<&'static [domain::profile::Gender]> {
        domain::profile::seeks(self.gender.as_deref(), self.sexuality.as_deref())
    }
}

impl ProfileBasics {
    /// `/complete-signup` is done once gender, sexuality and a region are known.
    pub fn complete(&self) -> bool {
        self.gender.is_some() && self.sexuality.is_some() && self.region.is_some()
    }
}

impl Members {
    pub async fn basics(&self, user_id: i64) -> Result<ProfileBasics, AppError> {
        let row =
            sqlx::query_as::<_, ProfileBasics>("SELECT name, date_of_birth, gender, sexuality, country, region, city, status FROM profiles WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(self.db.pool())
                .await?;
        row.ok_or_else(|| domain::ErrorCode::NotFound.into())
    }

    /// Saves gender, sexuality and location after checking them all; nothing changes on error.
    pub async fn save_basics(&self, site: &SiteSettings, user_id: i64, form: &BasicsForm) -> Result<(), AppError> {
        let valid = validate_basics(form, &site.countries, &self.regions_for(site))?;
        sqlx::query("UPDATE profiles SET gender = $1, sexuality = $2, country = $3, region = $4, city = $5 WHERE user_id = $6")
            .bind(valid.gender.code())
            .bind(valid.sexuality.code())
            .bind(&valid.location.country)
            .bind(&valid.location.region)
            .bind(&valid.location.city)
            .bind(user_id)
            .execute(self.db.pool())
            .await?;
        super::search::refresh_searchable(self.db.pool(), user_id).await?;
        Ok(())
    }

    /// Saves where the member lives; nothing changes on error.
    pub async fn save_location(&self, site: &SiteSettings, user_id: i64, form: &LocationForm) -> Result<(), AppError> {
        let valid = validate_location(form, &site.countries, &self.regions_for(site))?;
        sqlx::query("UPDATE profiles SET country = $1, region = $2, city = $3 WHERE user_id = $4")
            .bind(&valid.country)
            .bind(&valid.region)
            .bind(&valid.city)
            .bind(user_id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// The member's choice fields, interests and about text, for the editor.
    pub async fn details(&self, user_id: i64) -> Result<DetailsForm, AppError> {
        let row = sqlx::query("SELECT hair_colour, eye_colour, body_type, relationship_status, tattoos, reason FROM profiles WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?
            .ok_or(domain::ErrorCode::NotFound)?;
        let mut attributes = Vec::new();
        for a in Attribute::ALL {
            attributes.push((a.field().to_string(), row.try_get::<Option<String>, _>(a.field())?.unwrap_or_default()));
        }
        let interests: Vec<(String,)> =
            sqlx::query_as("SELECT interest FROM profile_interests WHERE user_id = $1 ORDER BY interest").bind(user_id).fetch_all(self.db.pool()).await?;
        Ok(DetailsForm {
            attributes,
            interests: interests.into_iter().map(|(i,)| i).collect(),
            about: crate::moderation::own(&self.db, user_id).await?.0.unwrap_or_default(),
        })
    }

    /// Where the member's profile text stands (waiting for review, or turned down and why).
    pub async fn own_text(&self, user_id: i64) -> Result<crate::moderation::OwnText, AppError> {
        Ok(crate::moderation::own(&self.db, user_id).await?.1)
    }

    /// Saves the details after checking them all; nothing changes on error.
    pub async fn save_details(&self, user_id: i64, form: &DetailsForm, now: i64) -> Result<(), AppError> {
        let valid = validate_details(form)?;
        let mut tx = self.db.begin().await?;
        let value = |a: Attribute| valid.attributes.iter().find(|(x, _)| *x == a).and_then(|(_, v)| *v);
        sqlx::query(
            "UPDATE profiles SET hair_colour = $1, eye_colour = $2, body_type = $3, relationship_status = $4, tattoos = $5, reason = $6 WHERE user_id = $7",
        )
        .bind(value(Attribute::HairColour))
        .bind(value(Attribute::EyeColour))
        .bind(value(Attribute::BodyType))
        .bind(value(Attribute::RelationshipStatus))
        .bind(value(Attribute::Tattoos))
        .bind(value(Attribute::Reason))
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        // The text others see changes only once staff approve it.
        crate::moderation::submit(&mut tx, &self.text_classifier, user_id, valid.about.as_deref(), now).await?;
        sqlx::query("DELETE FROM profile_interests WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
        for interest in &valid.interests {
            sqlx::query("INSERT INTO profile_interests (user_id, interest) VALUES ($1, $2)").bind(user_id).bind(*interest).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The site's region nearest to a browser position (the geolocation button), if any.
    pub fn guess_region(&self, site: &SiteSettings, lat: f64, lon: f64) -> Option<Region> {
        self.regions.guess(&site.countries, lat, lon).cloned()
    }
}
