-- Companies behind the sites, shown on the legal pages.
CREATE TABLE companies (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    city TEXT NOT NULL,
    country TEXT NOT NULL,
    kvk TEXT NOT NULL,
    tradenames TEXT NOT NULL DEFAULT '[]',
    vat_numbers TEXT NOT NULL DEFAULT '[]',
    support_phone TEXT NOT NULL,
    delete_discount BIGINT NOT NULL DEFAULT 0,
    added BIGINT NOT NULL
);

-- One row per site (domain). List-valued settings are JSON arrays in TEXT columns.
CREATE TABLE sites (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    domain TEXT NOT NULL UNIQUE,
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    name TEXT NOT NULL,
    domain_language TEXT NOT NULL,
    cdn_prefix TEXT NOT NULL DEFAULT '',
    niche BIGINT NOT NULL DEFAULT 1 CHECK (niche BETWEEN 1 AND 7),
    signups TEXT NOT NULL DEFAULT 'all' CHECK (signups IN ('all', 'traffic_source_only', 'invite_only')),
    logged_out_search BOOLEAN NOT NULL DEFAULT TRUE,
    logged_out_search_trafficsource BOOLEAN NOT NULL DEFAULT FALSE,
    enable_site_entry_popup BOOLEAN NOT NULL DEFAULT TRUE,
    geoip_country TEXT NOT NULL,
    geoip_selected_country TEXT,
    minimum_message_costs TEXT NOT NULL DEFAULT '[]',
    support_phone TEXT NOT NULL,
    support_email TEXT NOT NULL,
    push_key TEXT,
    fictional_icon TEXT NOT NULL DEFAULT '',
    fictional_warning BOOLEAN NOT NULL DEFAULT TRUE,
    fictional_singular TEXT NOT NULL DEFAULT '',
    fictional_plural TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    index_title TEXT NOT NULL DEFAULT '',
    countries TEXT NOT NULL DEFAULT '[]',
    visible_profile_fields TEXT NOT NULL DEFAULT '[]',
    visible_profile_notes BOOLEAN NOT NULL DEFAULT TRUE,
    message_credits BIGINT NOT NULL,
    signup_credits BIGINT NOT NULL,
    photo_credits BIGINT NOT NULL,
    gift_credits BIGINT NOT NULL,
    message_length BIGINT NOT NULL,
    search_fields TEXT NOT NULL DEFAULT '[]',
    refund_days BIGINT NOT NULL,
    member_resell BOOLEAN NOT NULL DEFAULT FALSE,
    company_id BIGINT NOT NULL REFERENCES companies (id),
    mail_name TEXT NOT NULL,
    min_age BIGINT NOT NULL DEFAULT 18 CHECK (min_age >= 18),
    theme_primary TEXT NOT NULL DEFAULT '#8b0d1a',
    theme_secondary TEXT NOT NULL DEFAULT '#e0263a',
    theme_accent TEXT NOT NULL DEFAULT '#ff9f1c',
    created_at BIGINT NOT NULL
);

-- At most one default site, used for unknown hosts.
CREATE UNIQUE INDEX sites_one_default ON sites (is_default) WHERE is_default;

-- Credit bundles offered on a site's pricing page.
CREATE TABLE credit_packs (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    site_id BIGINT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    credits BIGINT NOT NULL CHECK (credits > 0),
    price_minor BIGINT NOT NULL CHECK (price_minor > 0),
    currency TEXT NOT NULL,
    highlighted BOOLEAN NOT NULL DEFAULT FALSE,
    sort_order BIGINT NOT NULL DEFAULT 0,
    active BOOLEAN NOT NULL DEFAULT TRUE
);
CREATE INDEX credit_packs_site ON credit_packs (site_id, active, sort_order);
