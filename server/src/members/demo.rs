//! Demo members, so that a new site looks alive: spread over the sites' countries, regions,
//! ages and genders, with generated portraits. They are marked fictional (SPEC §3: the site's
//! fictional icon and warning show on them) and cannot log in (no password).

use std::path::Path;

use domain::profile::Attribute;
use sqlx::Row;

use super::avatars::{self, portrait, Rng};
use crate::db::Db;
use crate::error::AppError;

/// Portraits per gender; members share them (a pool keeps 100,000 members cheap, and a small
/// seed draws only a few).
fn portraits_per_gender(count: u32) -> u64 {
    (count as u64 / 50).clamp(4, 40)
}

const FEMALE: [&str; 40] = [
    "Anna",
    "Sanne",
    "Lotte",
    "Emma",
    "Julia",
    "Sophie",
    "Lisa",
    "Eva",
    "Fleur",
    "Iris",
    "Noor",
    "Lieke",
    "Femke",
    "Marloes",
    "Ilse",
    "Nina",
    "Laura",
    "Sarah",
    "Hanna",
    "Mila",
    "Lena",
    "Marie",
    "Leonie",
    "Clara",
    "Amelie",
    "Charlotte",
    "Camille",
    "Chloé",
    "Manon",
    "Elise",
    "Inès",
    "Léa",
    "Nathalie",
    "Petra",
    "Sabine",
    "Yasmin",
    "Zoë",
    "Roos",
    "Britt",
    "Esmee",
];
const MALE: [&str; 40] = [
    "Daan", "Bram", "Lucas", "Sem", "Thijs", "Jesse", "Ruben", "Tim", "Stijn", "Niels", "Koen", "Jeroen", "Bas", "Mark", "Pieter", "Wout", "Lars", "Max",
    "Jonas", "Felix", "Paul", "Leon", "Elias", "Noah", "Finn", "Lukas", "Tobias", "Hugo", "Louis", "Arthur", "Jules", "Théo", "Mathis", "Karim", "Sven",
    "Milan", "Dries", "Wouter", "Robin", "Ivo",
];
const ABOUT: [&str; 6] = [
    "Spontaan, nieuwsgierig en altijd in voor een goed gesprek.",
    "Houd van lange wandelingen, goede wijn en mensen met humor.",
    "Op zoek naar iemand die net zo graag lacht als ik.",
    "Avontuurlijk en eerlijk. Zeg gewoon hallo!",
    "Nieuw hier, benieuwd wie ik ontmoet.",
    "Werk hard, geniet harder.",
];

/// Creates `count` demo members on each site that has none yet (0: none). Portraits go to
/// `media_dir/public/demo/` when a folder is given. Returns how many members were created.
pub async fn seed_demo_members(db: &Db, media_dir: Option<&Path>, count: u32, now: i64) -> Result<u64, AppError> {
    if count == 0 {
        return Ok(0);
    }
    if let Some(dir) = media_dir {
        write_portraits(&dir.join("public/demo"), portraits_per_gender(count)).await?;
        crate::landers::make_clip(&dir.join("public/demo")).await;
    }
    let regions = super::super::regions::shipped();
    let interests: Vec<&str> = domain::profile::INTERESTS.iter().map(|(code, _)| *code).collect();
    let sites = sqlx::query("SELECT id, countries FROM sites ORDER BY id").fetch_all(db.pool()).await?;
    let mut created = 0;
    for site in sites {
        let site_id: i64 = site.try_get("id")?;
        let countries: Vec<String> = serde_json::from_str(&site.try_get::<String, _>("countries")?).unwrap_or_default();
        let (existing,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM users WHERE site_id = $1 AND fictional = $2").bind(site_id).bind(true).fetch_one(db.pool()).await?;
        if existing > 0 || countries.is_empty() {
            continue;
        }
        let site_regions: Vec<_> = regions.iter().filter(|r| countries.contains(&r.region.country)).collect();
        let mut rng = Rng::new(site_id as u64 * 7919);
        let mut n = 0u32;
        while n < count {
            let batch = (count - n).min(250);
            let mut tx = db.begin().await?;
            for i in n..n + batch {
                let female = rng.below(100) < 55;
                let name = if female { *rng.pick(&FEMALE) } else { *rng.pick(&MALE) };
                let age = 18 + (rng.below(45) + rng.below(20)) as i64;
                let birth = domain::account::Ymd::from_unix(now - (age * 365 + rng.below(360) as i64) * 86_400).iso();
                let region = rng.pick(&site_regions);
                let sexuality = match rng.below(20) {
                    0 => "bi",
                    1 => {
                        if female {
                            "lesbian"
                        } else {
                            "gay"
                        }
                    }
                    _ => "hetero",
                };
                // Most were last here some time in the past month, one in eight in the last hour.
                let ago = rng.below(30 * 86_400) as i64;
                let active = now - if i % 8 == 0 { ago % 3_600 } else { ago };
                let portrait = rng.below(portraits_per_gender(count));
                let gender = if female { "female" } else { "male" };
                let (photo, thumb) = match media_dir {
                    Some(_) => (Some(format!("public/demo/{gender}-{portrait}.jpg")), Some(format!("public/demo/{gender}-{portrait}-thumb.jpg"))),
                    None => (None, None),
                };
                let (user_id,): (i64,) = sqlx::query_as(
                    "INSERT INTO users (site_id, email, password_hash, status, language, signup_date, fictional) VALUES ($1, $2, '', $6, $3, $4, $5) RETURNING id",
                )
                .bind(site_id)
                .bind(format!("demo-{i}@demo.invalid"))
                .bind("nl")
                .bind(active - 86_400 * 30)
                .bind(true)
                .bind(domain::account::UserStatus::Active.as_str())
                .fetch_one(&mut *tx)
                .await?;
                let mut attrs: Vec<Option<&str>> = Vec::new();
                for a in Attribute::ALL {
                    attrs.push(if rng.below(5) == 0 { None } else { Some(*rng.pick(a.choices())) });
                }
                sqlx::query(
                    "INSERT INTO profiles (user_id, name, date_of_birth, gender, sexuality, country, region, city, status, site_id, searchable, last_active, \
                     main_photo, main_thumb, hair_colour, eye_colour, body_type, relationship_status, tattoos, reason, about, fictional) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $22, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)",
                )
                .bind(user_id)
                .bind(name)
                .bind(&birth)
                .bind(gender)
                .bind(sexuality)
                .bind(&region.region.country)
                .bind(&region.region.code)
                .bind(&region.region.name)
                .bind(site_id)
                .bind(true)
                .bind(active)
                .bind(photo)
                .bind(thumb)
                .bind(attrs[0])
                .bind(attrs[1])
                .bind(attrs[2])
                .bind(attrs[3])
                .bind(attrs[4])
                .bind(attrs[5])
                .bind(*rng.pick(&ABOUT))
                .bind(true)
                .bind(domain::account::ProfileStatus::Active.as_str())
                .execute(&mut *tx)
                .await?;
                let first = rng.below(interests.len() as u64) as usize;
                for k in 0..3 {
                    sqlx::query("INSERT INTO profile_interests (user_id, interest) VALUES ($1, $2) ON CONFLICT DO NOTHING")
                        .bind(user_id)
                        .bind(interests[(first + k * 5) % interests.len()])
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
            n += batch;
            created += batch as u64;
        }
    }
    Ok(created)
}

/// Draws the portrait pool once (skipped when the files exist), as JPEG and as WebP beside it
/// (`/media/public` sends the WebP to browsers that take it).
async fn write_portraits(dir: &Path, per_gender: u64) -> Result<(), AppError> {
    let io = |e: std::io::Error| AppError::Internal(format!("demo portraits: {e}"));
    tokio::fs::create_dir_all(dir).await.map_err(io)?;
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || -> Result<(), std::io::Error> {
        for (gender, feminine) in [("female", true), ("male", false)] {
            for i in 0..per_gender {
                let seed = i * 2 + feminine as u64;
                for (suffix, size) in [("-thumb", 240), ("", 640)] {
                    let (jpeg, webp) = (dir.join(format!("{gender}-{i}{suffix}.jpg")), dir.join(format!("{gender}-{i}{suffix}.webp")));
                    let (jpeg_missing, webp_missing) = (!jpeg.exists(), !webp.exists());
                    if !jpeg_missing && !webp_missing {
                        continue;
                    }
                    // Drawn once for both files.
                    let drawn = portrait(seed, feminine, size);
                    if jpeg_missing {
                        std::fs::write(&jpeg, avatars::jpeg(&drawn))?;
                    }
                    if webp_missing {
                        std::fs::write(&webp, avatars::webp(drawn))?;
                    }
                }
            }
        }
        Ok(())
    })
    .await
    .map_err(|e| AppError::Internal(format!("demo portraits: {e}")))?
    .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_portrait_pool_is_drawn_as_jpeg_and_webp_and_only_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        write_portraits(dir.path(), 1).await.unwrap();
        let mut names: Vec<String> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        assert_eq!(
            names,
            [
                "female-0-thumb.jpg",
                "female-0-thumb.webp",
                "female-0.jpg",
                "female-0.webp",
                "male-0-thumb.jpg",
                "male-0-thumb.webp",
                "male-0.jpg",
                "male-0.webp"
            ]
        );
        // Both files of a size come from the one drawing.
        assert_eq!(std::fs::read(dir.path().join("male-0.jpg")).unwrap(), avatars::portrait_jpeg(0, false, 640));
        assert_eq!(std::fs::read(dir.path().join("female-0-thumb.webp")).unwrap(), avatars::portrait_webp(1, true, 240));
        // A missing file is drawn again; the others are left as they are.
        std::fs::remove_file(dir.path().join("female-0.webp")).unwrap();
        std::fs::write(dir.path().join("female-0.jpg"), b"kept").unwrap();
        write_portraits(dir.path(), 1).await.unwrap();
        assert_eq!(std::fs::read(dir.path().join("female-0.webp")).unwrap(), avatars::portrait_webp(1, true, 640));
        assert_eq!(std::fs::read(dir.path().join("female-0.jpg")).unwrap(), b"kept");
    }
}
