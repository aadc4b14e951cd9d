//! Turning a browser position into a region from our own region data (no outside service):
//! the region whose centre lies nearest, if it is near enough to be a sensible guess.

/// Farther than this from every region centre, no guess is made (sea, another continent).
pub const MAX_GUESS_KM: f64 = 400.0;

const EARTH_RADIUS_KM: f64 = 6371.0;

/// Great-circle distance in kilometres between two points in decimal degrees.
pub fn distance_km(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = (lat2 - lat1).to_radians();
    let dl = (lon2 - lon1).to_radians();
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * a.sqrt().min(1.0).asin()
}

/// True for a latitude/longitude pair a browser could report.
pub fn valid_position(lat: f64, lon: f64) -> bool {
    lat.is_finite() && lon.is_finite() && (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)
}

/// The index of the centre nearest to the position, if one lies within [`MAX_GUESS_KM`].
pub fn nearest(centres: &[(f64, f64)], lat: f64, lon: f64) -> Option<usize> {
    if !valid_position(lat, lon) {
        return None;
    }
    centres
        .iter()
        .enumerate()
        .map(|(i, &(clat, clon))| (i, distance_km(lat, lon, clat, clon)))
        .filter(|&(_, d)| d <= MAX_GUESS_KM)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_distances() {
        // Amsterdam to Brussels is about 173 km.
        let d = distance_km(52.37, 4.90, 50.85, 4.35);
        assert!((165.0..180.0).contains(&d), "{d}");
        assert_eq!(distance_km(10.0, 10.0, 10.0, 10.0), 0.0);
    }

    #[test]
    fn picks_the_nearest_centre_and_refuses_far_or_bad_positions() {
        let centres = [(52.52, 4.79), (51.22, 4.40), (48.14, 11.58)];
        assert_eq!(nearest(&centres, 52.38, 4.64), Some(0)); // Haarlem
        assert_eq!(nearest(&centres, 51.05, 3.72), Some(1)); // Gent
        assert_eq!(nearest(&centres, 40.71, -74.0), None); // New York
        assert_eq!(nearest(&centres, f64::NAN, 4.0), None);
        assert_eq!(nearest(&centres, 91.0, 4.0), None);
        assert_eq!(nearest(&[], 52.0, 4.0), None);
    }

    proptest! {
        #[test]
        fn a_centre_is_its_own_nearest(lat in -60.0f64..70.0, lon in -170.0f64..170.0, others in proptest::collection::vec((-60.0f64..70.0, -170.0f64..170.0), 0..20)) {
            let mut centres = others.clone();
            centres.retain(|&(a, b)| distance_km(a, b, lat, lon) > 0.001);
            centres.push((lat, lon));
            let found = nearest(&centres, lat, lon).unwrap();
            prop_assert_eq!(centres[found], (lat, lon));
        }

        #[test]
        fn distance_is_symmetric_and_bounded(a in -90.0f64..90.0, b in -180.0f64..180.0, c in -90.0f64..90.0, d in -180.0f64..180.0) {
            let x = distance_km(a, b, c, d);
            prop_assert!((x - distance_km(c, d, a, b)).abs() < 1e-6);
            prop_assert!((0.0..=20_016.0).contains(&x));
        }
    }
}
