//! Region data: the regions members choose from, per country, with a centre point for turning a
//! browser position into a region. The list ships with the product (`server/reference/regions.tsv`), is
//! written into the `regions` table at start-up (so operators can read and join it like any
//! other table) and is read from there into memory once.

use std::collections::BTreeMap;

use domain::profile::Region;
use sqlx::Row;

use crate::db::Db;
use crate::error::AppError;

static REGIONS_TSV: &str = include_str!("../reference/regions.tsv");

/// One region with its centre.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionPoint {
    pub region: Region,
    pub lat: f64,
    pub lon: f64,
}

/// Parses the shipped region list (`country code name lat lon`, tab separated, with a header).
pub fn parse(tsv: &str) -> Result<Vec<RegionPoint>, String> {
    let mut out = Vec::new();
    for (n, line) in tsv.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [country, code, name, lat, lon] = cols[..] else {
            return Err(format!("line {}: expected 5 columns", n + 1));
        };
        let lat: f64 = lat.trim().parse().map_err(|_| format!("line {}: bad lat", n + 1))?;
        let lon: f64 = lon.trim().parse().map_err(|_| format!("line {}: bad lon", n + 1))?;
        if !domain::geo::valid_position(lat, lon) {
            return Err(format!("line {}: position out of range", n + 1));
        }
        out.push(RegionPoint { region: Region { code: code.trim().into(), country: country.trim().into(), name: name.trim().into() }, lat, lon });
    }
    Ok(out)
}

/// The shipped list.
pub fn shipped() -> Vec<RegionPoint> {
    parse(REGIONS_TSV).expect("server/reference/regions.tsv is checked by a test")
}

/// Writes the shipped list into the `regions` table when it differs in size (new database or a
/// release with more regions); names and centres are updated in place.
pub async fn sync(db: &Db) -> Result<(), AppError> {
    let shipped = shipped();
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM regions").fetch_one(db.pool()).await?;
    if count as usize == shipped.len() {
        return Ok(());
    }
    let mut tx = db.begin().await?;
    for r in &shipped {
        sqlx::query(
            "INSERT INTO regions (code, country, name, lat, lon) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (code) DO UPDATE SET country = excluded.country, name = excluded.name, lat = excluded.lat, lon = excluded.lon",
        )
        .bind(&r.region.code)
        .bind(&r.region.country)
        .bind(&r.region.name)
        .bind(r.lat)
        .bind(r.lon)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// All regions in memory, grouped by country and sorted by name.
#[derive(Debug, Clone, Default)]
pub struct Regions {
    points: Vec<RegionPoint>,
    by_country: BTreeMap<String, Vec<Region>>,
}

impl Regions {
    pub async fn load(db: &Db) -> Result<Regions, AppError> {
        let rows = sqlx::query("SELECT code, country, name, lat, lon FROM regions ORDER BY country, name").fetch_all(db.pool()).await?;
        let mut points = Vec::with_capacity(rows.len());
        for row in rows {
            points.push(RegionPoint {
                region: Region { code: row.try_get("code")?, country: row.try_get("country")?, name: row.try_get("name")? },
                lat: row.try_get("lat")?,
                lon: row.try_get("lon")?,
            });
        }
        Ok(Regions::from_points(points))
    }

    pub fn from_points(points: Vec<RegionPoint>) -> Regions {
        let mut by_country: BTreeMap<String, Vec<Region>> = BTreeMap::new();
        for p in &points {
            by_country.entry(p.region.country.clone()).or_default().push(p.region.clone());
        }
        for list in by_country.values_mut() {
            list.sort_by(|a, b| a.name.cmp(&b.name));
        }
        Regions { points, by_country }
    }

    /// The regions of these countries, country by country.
    pub fn for_countries(&self, countries: &[String]) -> Vec<Region> {
        countries.iter().flat_map(|c| self.by_country.get(c).into_iter().flatten().cloned()).collect()
    }

    pub fn get(&self, code: &str) -> Option<&Region> {
        self.points.iter().map(|p| &p.region).find(|r| r.code == code)
    }

    /// The region nearest to a browser position, among these countries only.
    pub fn guess(&self, countries: &[String], lat: f64, lon: f64) -> Option<&Region> {
        let candidates: Vec<&RegionPoint> = self.points.iter().filter(|p| countries.contains(&p.region.country)).collect();
        let centres: Vec<(f64, f64)> = candidates.iter().map(|p| (p.lat, p.lon)).collect();
        domain::geo::nearest(&centres, lat, lon).map(|i| &candidates[i].region)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_list_parses_with_unique_codes_for_every_spec_country() {
        let all = parse(REGIONS_TSV).unwrap();
        let mut codes: Vec<&str> = all.iter().map(|r| r.region.code.as_str()).collect();
        codes.sort();
        let n = codes.len();
        codes.dedup();
        assert_eq!(codes.len(), n, "duplicate region codes");
        for country in ["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "GB", "IE", "US", "CA", "PL", "DK", "FI", "NO", "SE", "AU", "NZ"] {
            assert!(all.iter().filter(|r| r.region.country == country).count() >= 4, "{country} has regions");
        }
        let regions = Regions::from_points(all);
        let nl = ["NL".to_string()];
        assert_eq!(regions.guess(&nl, 52.38, 4.64).map(|r| r.code.as_str()), Some("NL-NH")); // Haarlem
        assert_eq!(regions.guess(&nl, 51.44, 5.47).map(|r| r.code.as_str()), Some("NL-NB")); // Eindhoven
        assert_eq!(regions.guess(&["BE".to_string()], 51.05, 3.72).map(|r| r.code.as_str()), Some("BE-VOV")); // Gent
        assert_eq!(regions.guess(&["DE".to_string()], 48.14, 11.58).map(|r| r.code.as_str()), Some("DE-BY")); // München
        assert_eq!(regions.guess(&nl, 40.71, -74.0), None);
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(parse("h\nNL\tNL-NH\tNoord-Holland\t52.5\n").is_err());
        assert!(parse("h\nNL\tNL-NH\tNoord-Holland\tx\t4.8\n").is_err());
        assert!(parse("h\nNL\tNL-NH\tNoord-Holland\t95\t4.8\n").is_err());
    }
}
