//! Split tests (the owner's figures, `/staff/figures/tests`): staff share the traffic of one
//! lander (`/landers/{design}/…`) between two to four designs, or the members shown one credit
//! bundle between two to four prices, by weight. Each visitor is shown one variant, drawn from
//! their visitor cookie (or the member) and the test, so they keep it on every visit; the
//! variants and weights of a running test never change (a change would move visitors between
//! variants and mix what each one brought): staff stop a test and start another.
//!
//! A lander test's visits, signups and payments count under its variant (`name:design`, the
//! figures' `variant` grouping); its page compares the variants: the signup rate and the buyer
//! rate per visit with 95 % Wilson intervals, revenue per visit with a 95 % normal interval, and
//! a winner once one is clear. A price test counts the members shown a price and what they paid
//! from then on, and compares revenue per member the same way.

use serde::{Deserialize, Serialize};

use crate::error::ErrorCode;
use crate::lander::Design;

/// Designs one test shares a lander between.
pub const MIN_VARIANTS: usize = 2;
pub const MAX_VARIANTS: usize = 4;
/// A design's share is a weight from 1 to 100 (the shares are the weights over their sum).
pub const MAX_WEIGHT: u32 = 100;
/// A test's name: lower-case letters, digits and dashes, at most this long.
pub const NAME_MAX_CHARS: usize = 40;
/// Visits each variant needs before a winner can be named.
pub const MIN_VISITS: i64 = 200;
/// The z of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The most a tested price may be, in minor units (10,000.00).
pub const MAX_PRICE_MINOR: i64 = 1_000_000;
/// What a price test's `lander` column holds: the bundle under test (one test per bundle).
const PACK_PREFIX: &str = "pack:";

/// One variant of a test and its weight: a design (lander tests) or a price (price tests).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// The design's route (`gallery`, `collagelanding`…); empty in a price test.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub design: String,
    /// The bundle's price in minor units, in the bundle's currency (price tests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_minor: Option<i64>,
    pub weight: u32,
}

impl Variant {
    pub fn design(design: &str, weight: u32) -> Variant {
        Variant { design: design.to_string(), price_minor: None, weight }
    }

    pub fn price(price_minor: i64, weight: u32) -> Variant {
        Variant { design: String::new(), price_minor: Some(price_minor), weight }
    }

    /// What the variant is called in its label: the design's route, or the price in minor
    /// units (`1995`).
    pub fn arm(&self) -> String {
        match self.price_minor {
            Some(price) => price.to_string(),
            None => self.design.clone(),
        }
    }
}

/// A split test as staff set it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitTest {
    pub id: i64,
    pub name: String,
    /// The route of the lander whose traffic is shared.
    pub lander: String,
    pub variants: Vec<Variant>,
    /// A price test's currency (its bundle's when it started): the prices are in it.
    #[serde(default)]
    pub currency: Option<String>,
    pub started_at: i64,
    pub stopped_at: Option<i64>,
}

/// A test's name, lander and variants as staff sent them, checked: the name trimmed, the
/// variants without the empty rows of the form.
/// Why not: the error's code and, for the form, its limit (`max`).
pub fn validate(name: &str, lander: &str, variants: &[(String, String)]) -> Result<(String, Design, Vec<Variant>), ErrorCode> {
    let name = checked_name(name)?;
    let lander = Design::from_route(lander.trim()).ok_or(ErrorCode::BadRequest)?;
    let mut out: Vec<Variant> = Vec::new();
    for (design, weight) in variants {
        let (design, weight) = (design.trim(), weight.trim());
        if design.is_empty() && weight.is_empty() {
            continue;
        }
        let design = Design::from_route(design).ok_or(ErrorCode::SplitDesignsInvalid)?;
        let weight = checked_weight(weight)?;
        if out.iter().any(|v| v.design == design.route()) {
            return Err(ErrorCode::SplitDesignsInvalid);
        }
        out.push(Variant::design(design.route(), weight));
    }
    if !(MIN_VARIANTS..=MAX_VARIANTS).contains(&out.len()) {
        return Err(ErrorCode::SplitDesignsInvalid);
    }
    Ok((name.to_string(), lander, out))
}

/// A price test's name and prices as staff typed them (`19,95`, `24.95`, with their weights),
/// checked like [`validate`]: two to four different prices above zero and at most
/// [`MAX_PRICE_MINOR`].
pub fn validate_prices(name: &str, prices: &[(String, String)]) -> Result<(String, Vec<Variant>), ErrorCode> {
    let name = checked_name(name)?;
    let mut out: Vec<Variant> = Vec::new();
    for (price, weight) in prices {
        let (price, weight) = (price.trim(), weight.trim());
        if price.is_empty() && weight.is_empty() {
            continue;
        }
        let price = crate::money::parse_amount(price).ok().filter(|p| (1..=MAX_PRICE_MINOR).contains(p)).ok_or(ErrorCode::SplitPricesInvalid)?;
        let weight = checked_weight(weight)?;
        if out.iter().any(|v| v.price_minor == Some(price)) {
            return Err(ErrorCode::SplitPricesInvalid);
        }
        out.push(Variant::price(price, weight));
    }
    if !(MIN_VARIANTS..=MAX_VARIANTS).contains(&out.len()) {
        return Err(ErrorCode::SplitPricesInvalid);
    }
    Ok((name.to_string(), out))
}

fn checked_name(name: &str) -> Result<&str, ErrorCode> {
    let name = name.trim();
    let ok = !name.is_empty()
        && name.chars().count() <= NAME_MAX_CHARS
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-');
    ok.then_some(name).ok_or(ErrorCode::SplitNameInvalid)
}

fn checked_weight(weight: &str) -> Result<u32, ErrorCode> {
    weight.parse().ok().filter(|w| (1..=MAX_WEIGHT).contains(w)).ok_or(ErrorCode::SplitWeightInvalid)
}

/// What a price test of bundle `pack_id` keeps in the tests' subject column (`pack:12`): one
/// test runs per bundle, as one runs per lander.
pub fn pack_subject(pack_id: i64) -> String {
    format!("{PACK_PREFIX}{pack_id}")
}

/// The value a variant counts under (the figures' `variant` grouping, a member's price):
/// `name:design`, `name:1995`.
pub fn label(test: &str, arm: &str) -> String {
    format!("{test}:{arm}")
}

/// A stable number from 0 to 2^64 - 1 for a visitor and a test (FNV-1a: the same on every node
/// and every version, unlike the standard library's hasher).
fn draw(visitor: &str, test_id: i64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in visitor.bytes().chain(test_id.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // FNV's low bits mix poorly on short inputs: a final avalanche (splitmix64's).
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

impl SplitTest {
    /// The variant a visitor (their cookie's value) is shown: always the same for one visitor
    /// and test, each variant for a share of visitors equal to its weight's share.
    pub fn variant_for(&self, visitor: &str) -> &Variant {
        let total: u64 = self.variants.iter().map(|v| u64::from(v.weight)).sum::<u64>().max(1);
        let mut at = draw(visitor, self.id) % total;
        for v in &self.variants {
            if at < u64::from(v.weight) {
                return v;
            }
            at -= u64::from(v.weight);
        }
        &self.variants[0]
    }

    pub fn running(&self) -> bool {
        self.stopped_at.is_none()
    }

    /// The bundle a price test is of (none for a lander test).
    pub fn pack_id(&self) -> Option<i64> {
        self.lander.strip_prefix(PACK_PREFIX)?.parse().ok()
    }

    /// The key a member's price is drawn with when they have no visitor cookie.
    pub fn member_key(member_id: i64) -> String {
        format!("member:{member_id}")
    }
}

/// A 95 % Wilson interval of a rate: `successes` of `n` (`(0, 0)` when `n` is 0).
pub fn wilson(successes: i64, n: i64) -> (f64, f64) {
    if n <= 0 {
        return (0.0, 0.0);
    }
    let (n, p) = (n as f64, (successes.clamp(0, n) as f64) / n as f64);
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The mean of `n` values whose sum is `sum` and sum of squares `squares`, with its 95 %
/// normal interval (none when fewer than two values).
pub fn mean_interval(sum: f64, squares: f64, n: i64) -> (f64, f64, f64) {
    if n <= 0 {
        return (0.0, 0.0, 0.0);
    }
    let nf = n as f64;
    let mean = sum / nf;
    if n < 2 {
        return (mean, mean, mean);
    }
    let variance = ((squares - sum * sum / nf) / (nf - 1.0)).max(0.0);
    let half = Z95 * (variance / nf).sqrt();
    (mean, mean - half, mean + half)
}

/// What one variant brought, as the test's page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantFigures {
    /// The variant's design (lander tests) or price in minor units (price tests).
    pub design: String,
    pub weight: u32,
    pub visits: i64,
    pub signups: i64,
    /// Members of this variant who paid.
    pub buyers: i64,
    /// Money in minor units, net of refunds and chargebacks, in the test's currency.
    pub net: i64,
    pub signup_rate: (f64, f64, f64),
    pub buyer_rate: (f64, f64, f64),
    pub revenue_per_visit: (f64, f64, f64),
}

impl VariantFigures {
    /// A variant's figures from its counts and the sum and sum of squares of what each of its
    /// paying members brought (every other visit brought nothing).
    pub fn new(variant: &Variant, visits: i64, signups: i64, buyers: i64, net: i64, squares: f64) -> VariantFigures {
        let rate = |k: i64| {
            let (lo, hi) = wilson(k, visits);
            (if visits > 0 { k as f64 / visits as f64 } else { 0.0 }, lo, hi)
        };
        VariantFigures {
            design: variant.arm(),
            weight: variant.weight,
            visits,
            signups,
            buyers,
            net,
            signup_rate: rate(signups),
            buyer_rate: rate(buyers),
            revenue_per_visit: mean_interval(net as f64, squares, visits),
        }
    }
}

/// The figure a winner was found on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WonOn {
    RevenuePerVisit,
    SignupRate,
    /// Price tests: buyers per member shown the price.
    BuyerRate,
}

/// Whether a variant is clearly best: every variant has [`MIN_VISITS`] visits, and one's
/// interval lies wholly above every other's — first on revenue per visit (what the traffic is
/// bought for), else on the signup rate. The index of the winner and the figure.
pub fn winner(variants: &[VariantFigures]) -> Option<(usize, WonOn)> {
    winner_on(variants, WonOn::SignupRate)
}

/// A price test's winner: as [`winner`] with the members shown a price as its visits, first on
/// revenue per member, else on buyers per member (a price test has no signups).
pub fn price_winner(variants: &[VariantFigures]) -> Option<(usize, WonOn)> {
    winner_on(variants, WonOn::BuyerRate)
}

fn winner_on(variants: &[VariantFigures], then: WonOn) -> Option<(usize, WonOn)> {
    if variants.len() < MIN_VARIANTS || variants.iter().any(|v| v.visits < MIN_VISITS) {
        return None;
    }
    let clear = |of: fn(&VariantFigures) -> (f64, f64, f64)| {
        variants.iter().enumerate().find_map(|(i, v)| {
            let low = of(v).1;
            variants.iter().enumerate().all(|(j, w)| i == j || low > of(w).2).then_some(i)
        })
    };
    let second: fn(&VariantFigures) -> (f64, f64, f64) = if then == WonOn::BuyerRate { |v| v.buyer_rate } else { |v| v.signup_rate };
    clear(|v| v.revenue_per_visit).map(|i| (i, WonOn::RevenuePerVisit)).or_else(|| clear(second).map(|i| (i, then)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn form(rows: &[(&str, &str)]) -> Vec<(String, String)> {
        rows.iter().map(|(d, w)| (d.to_string(), w.to_string())).collect()
    }

    fn test_of(weights: &[u32]) -> SplitTest {
        let designs = ["gallery", "collagelanding", "iconslanding", "maplanding"];
        SplitTest {
            id: 7,
            name: "t".into(),
            lander: "gallery".into(),
            variants: weights.iter().zip(designs).map(|(w, d)| Variant::design(d, *w)).collect(),
            currency: None,
            started_at: 0,
            stopped_at: None,
        }
    }

    #[test]
    fn a_test_is_checked_field_by_field() {
        let ok = validate(" spring-gallery ", "gallery", &form(&[("gallery", "50"), ("collagelanding", "50"), ("", "")])).unwrap();
        assert_eq!(ok.0, "spring-gallery");
        assert_eq!(ok.1, Design::Gallery);
        assert_eq!(ok.2.len(), 2, "the form's empty rows are left out");
        let two = form(&[("gallery", "50"), ("video", "50")]);
        for bad in ["", "Spring", "a b", "<b>x</b>", "-x", &"x".repeat(41)] {
            assert_eq!(validate(bad, "gallery", &two), Err(ErrorCode::SplitNameInvalid), "{bad:?}");
        }
        assert_eq!(validate("t", "nope", &two), Err(ErrorCode::BadRequest));
        assert_eq!(validate("t", "gallery", &form(&[("gallery", "50")])), Err(ErrorCode::SplitDesignsInvalid), "one design is no test");
        assert_eq!(validate("t", "gallery", &form(&[("gallery", "50"), ("gallery", "20")])), Err(ErrorCode::SplitDesignsInvalid));
        assert_eq!(validate("t", "gallery", &form(&[("gallery", "50"), ("<script>", "20")])), Err(ErrorCode::SplitDesignsInvalid));
        let five = form(&[("gallery", "1"), ("video", "1"), ("maplanding", "1"), ("collagelanding", "1"), ("iconslanding", "1")]);
        assert_eq!(validate("t", "gallery", &five), Err(ErrorCode::SplitDesignsInvalid));
        for weight in ["0", "101", "-5", "1.5", "", "ten"] {
            assert_eq!(validate("t", "gallery", &form(&[("gallery", "50"), ("video", weight)])), Err(ErrorCode::SplitWeightInvalid), "{weight:?}");
        }
    }

    #[test]
    fn a_price_test_is_checked_field_by_field() {
        let (name, prices) = validate_prices(" dearer ", &form(&[("19,95", "50"), ("€ 24.95", "25"), ("", "")])).unwrap();
        assert_eq!(name, "dearer");
        assert_eq!(prices, vec![Variant::price(1995, 50), Variant::price(2495, 25)]);
        assert_eq!(prices[0].arm(), "1995");
        assert_eq!(validate_prices("Dearer", &form(&[("19,95", "50"), ("24,95", "50")])), Err(ErrorCode::SplitNameInvalid));
        for bad in ["0", "0,00", "-5", "1.000,00", "abc", "<b>9</b>", "10000,01", "12,345"] {
            assert_eq!(validate_prices("t", &form(&[("19,95", "50"), (bad, "50")])), Err(ErrorCode::SplitPricesInvalid), "{bad:?}");
        }
        assert_eq!(validate_prices("t", &form(&[("19,95", "50")])), Err(ErrorCode::SplitPricesInvalid), "one price is no test");
        assert_eq!(validate_prices("t", &form(&[("19,95", "50"), ("19.95", "50")])), Err(ErrorCode::SplitPricesInvalid), "the same price twice");
        assert_eq!(validate_prices("t", &form(&[("19,95", "50"), ("24,95", "0")])), Err(ErrorCode::SplitWeightInvalid));
        let five = form(&[("1", "1"), ("2", "1"), ("3", "1"), ("4", "1"), ("5", "1")]);
        assert_eq!(validate_prices("t", &five), Err(ErrorCode::SplitPricesInvalid));
    }

    #[test]
    fn a_price_test_names_its_bundle() {
        let mut test = test_of(&[50, 50]);
        assert_eq!(test.pack_id(), None, "a lander test");
        test.lander = pack_subject(12);
        assert_eq!(test.pack_id(), Some(12));
        // Stored variants from before price tests read as designs.
        let old: Vec<Variant> = serde_json::from_str(r#"[{"design":"gallery","weight":50}]"#).unwrap();
        assert_eq!(old, vec![Variant::design("gallery", 50)]);
        assert_eq!(serde_json::to_string(&Variant::price(1995, 5)).unwrap(), r#"{"price_minor":1995,"weight":5}"#);
    }

    #[test]
    fn a_price_winner_falls_back_on_buyers() {
        let (a, b) = (Variant::price(1995, 1), Variant::price(2495, 1));
        // No money counted yet, buyers far apart: the buyer rate decides.
        let many = VariantFigures::new(&a, 2000, 0, 300, 0, 0.0);
        let few = VariantFigures::new(&b, 2000, 0, 100, 0, 0.0);
        assert_eq!(price_winner(&[many.clone(), few.clone()]), Some((0, WonOn::BuyerRate)));
        assert_eq!(winner(&[many, few]), None, "a lander test never falls back on buyers");
    }

    #[test]
    fn wilson_intervals_are_known_values() {
        // 50 of 100: 0.404–0.596 (a textbook value).
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        // None of 10 still leaves room above 0.
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        assert_eq!(wilson(3, 0), (0.0, 0.0));
    }

    #[test]
    fn a_mean_interval_is_known_values() {
        // 0, 0, 10, 10: mean 5, sample sd 5.77, half-width 1.96 * 5.77 / 2.
        let (mean, lo, hi) = mean_interval(20.0, 200.0, 4);
        assert!((mean - 5.0).abs() < 1e-9);
        assert!((hi - mean - 1.959_964 * (100.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-4, "{lo} {hi}");
        assert_eq!(mean_interval(7.0, 49.0, 1), (7.0, 7.0, 7.0));
    }

    #[test]
    fn a_winner_needs_visits_and_intervals_apart() {
        let v = Variant::design("gallery", 1);
        let w = Variant::design("video", 1);
        // Revenue: 40 buyers of 1,000 paying 20.00 each against 5 of 1,000.
        let strong = VariantFigures::new(&v, 1000, 100, 40, 40 * 2000, 40.0 * 2000.0 * 2000.0);
        let weak = VariantFigures::new(&w, 1000, 95, 5, 5 * 2000, 5.0 * 2000.0 * 2000.0);
        assert_eq!(winner(&[weak.clone(), strong.clone()]), Some((1, WonOn::RevenuePerVisit)));
        // Too few visits: no verdict, however far apart.
        let few = VariantFigures::new(&w, MIN_VISITS - 1, 0, 0, 0, 0.0);
        assert_eq!(winner(&[strong.clone(), few]), None);
        // Close figures: no winner.
        let close = VariantFigures::new(&w, 1000, 98, 38, 38 * 2000, 38.0 * 2000.0 * 2000.0);
        assert_eq!(winner(&[strong.clone(), close]), None);
        // No money yet, signups far apart: the signup rate decides.
        let a = VariantFigures::new(&v, 2000, 300, 0, 0, 0.0);
        let b = VariantFigures::new(&w, 2000, 150, 0, 0, 0.0);
        assert_eq!(winner(&[a, b]), Some((0, WonOn::SignupRate)));
    }

    #[test]
    fn shares_follow_the_weights() {
        let test = test_of(&[70, 20, 10]);
        let mut seen = [0u32; 3];
        for i in 0..20_000 {
            let v = test.variant_for(&format!("visitor-{i}"));
            seen[test.variants.iter().position(|x| x == v).unwrap()] += 1;
        }
        // Within 1.5 points of 70 / 20 / 10 % (the sd at 20,000 draws is about 0.3 points).
        for (got, want) in seen.iter().zip([0.70, 0.20, 0.10]) {
            assert!((f64::from(*got) / 20_000.0 - want).abs() < 0.015, "{seen:?}");
        }
    }

    proptest! {
        #[test]
        fn a_visitor_keeps_their_variant(visitor in "[A-Za-z0-9_-]{0,64}", weights in proptest::collection::vec(1u32..=100, 2..=4)) {
            let test = test_of(&weights);
            let first = test.variant_for(&visitor).clone();
            prop_assert_eq!(&first, test.variant_for(&visitor));
            prop_assert!(test.variants.contains(&first));
        }

        #[test]
        fn wilson_holds_the_rate(n in 1i64..100_000, k in 0i64..100_000) {
            let k = k % (n + 1);
            let (lo, hi) = wilson(k, n);
            let p = k as f64 / n as f64;
            prop_assert!(0.0 <= lo && lo <= p + 1e-12 && p <= hi + 1e-12 && hi <= 1.0, "{} {} {}", lo, p, hi);
        }
    }
}
