-- SQLite keeps booleans as INTEGER 0/1 (sqlx's Any driver cannot decode SQLite's BOOLEAN); see server/src/db.rs flag().
-- Companies behind the sites, shown on the legal pages.
CREATE TABLE companies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    city TEXT NOT NULL,
    country TEXT NOT NULL,
    kvk TEXT NOT NULL,
    tradenames TEXT NOT NULL DEFAULT '[]',
    vat_numbers TEXT NOT NULL DEFAULT '[]',
    support_phone TEXT NOT NULL,
    delete_discount INTEGER NOT NULL DEFAULT 0,
    added INTEGER NOT NULL
);

-- One row per site (domain). List-valued settings are JSON arrays in TEXT columns.
CREATE TABLE sites (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    domain TEXT NOT NULL UNIQUE,
    is_default INTEGER NOT NULL DEFAULT FALSE,
    name TEXT NOT NULL,
    domain_language TEXT NOT NULL,
    cdn_prefix TEXT NOT NULL DEFAULT '',
    niche INTEGER NOT NULL DEFAULT 1 CHECK (niche BETWEEN 1 AND 7),
    signups TEXT NOT NULL DEFAULT 'all' CHECK (signups IN ('all', 'traffic_source_only', 'invite_only')),
    logged_out_search INTEGER NOT NULL DEFAULT TRUE,
    logged_out_search_trafficsource INTEGER NOT NULL DEFAULT FALSE,
    enable_site_entry_popup INTEGER NOT NULL DEFAULT TRUE,
    geoip_country TEXT NOT NULL,
    geoip_selected_country TEXT,
    minimum_message_costs TEXT NOT NULL DEFAULT '[]',
    support_phone TEXT NOT NULL,
    support_email TEXT NOT NULL,
    push_key TEXT,
    fictional_icon TEXT NOT NULL DEFAULT '',
    fictional_warning INTEGER NOT NULL DEFAULT TRUE,
    fictional_singular TEXT NOT NULL DEFAULT '',
    fictional_plural TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    index_title TEXT NOT NULL DEFAULT '',
    countries TEXT NOT NULL DEFAULT '[]',
    visible_profile_fields TEXT NOT NULL DEFAULT '[]',
    visible_profile_notes INTEGER NOT NULL DEFAULT TRUE,
    message_credits INTEGER NOT NULL,
    signup_credits INTEGER NOT NULL,
    photo_credits INTEGER NOT NULL,
    gift_credits INTEGER NOT NULL,
    message_length INTEGER NOT NULL,
    search_fields TEXT NOT NULL DEFAULT '[]',
    refund_days INTEGER NOT NULL,
    member_resell INTEGER NOT NULL DEFAULT FALSE,
    company_id INTEGER NOT NULL REFERENCES companies (id),
    mail_name TEXT NOT NULL,
    min_age INTEGER NOT NULL DEFAULT 18 CHECK (min_age >= 18),
    theme_primary TEXT NOT NULL DEFAULT '#8b0d1a',
    theme_secondary TEXT NOT NULL DEFAULT '#e0263a',
    theme_accent TEXT NOT NULL DEFAULT '#ff9f1c',
    created_at INTEGER NOT NULL
);

-- At most one default site, used for unknown hosts.
CREATE UNIQUE INDEX sites_one_default ON sites (is_default) WHERE is_default;

-- Credit bundles offered on a site's pricing page.
CREATE TABLE credit_packs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    credits INTEGER NOT NULL CHECK (credits > 0),
    price_minor INTEGER NOT NULL CHECK (price_minor > 0),
    currency TEXT NOT NULL,
    highlighted INTEGER NOT NULL DEFAULT FALSE,
    sort_order INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT TRUE
);
CREATE INDEX credit_packs_site ON credit_packs (site_id, active, sort_order);
