# Vonk: `make run` serves the site, `make test` runs every test of every layer.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

# Build output lives outside the clone so fresh clones (and CI) reuse compiled dependencies.
export CARGO_TARGET_DIR ?= $(HOME)/.cache/vonk/target
# wasm-opt (npm binaryen 132) and the other npm tools.
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
export LEPTOS_SITE_ROOT ?= $(CURDIR)/target/site

ADDR ?= 127.0.0.1:3000
DATA_DIR ?= ./data
# Demo members per site for a new database (100000 for benchmarks).
DEMO_MEMBERS ?= 2000
# `make run` builds quick (little optimisation: serving within minutes on a fresh machine);
# `make run BUILD=release` serves the release build the tests and benchmarks use.
BUILD ?= release
SERVER_BIN = $(CARGO_TARGET_DIR)/$(if $(filter quick,$(BUILD)),quick,release)/vonk

.PHONY: run dev build tools test lint test-rust test-widgets test-e2e storybook bench flamegraph types fmt clean disposable-domains

## Build (quick unless BUILD=release) and serve at http://$(ADDR) (database in $(DATA_DIR),
## seeded when new).
run: BUILD = quick
run: build
	VONK_ADDR=$(ADDR) DATA_DIR=$(DATA_DIR) VONK_DEMO_MEMBERS=$(DEMO_MEMBERS) VONK_PAYMENTS=$${VONK_PAYMENTS:-test} $(SERVER_BIN)

## The edit loop: the quick build served with live reload; an edit rebuilds the half that changed,
## restarts the server and the open pages reload themselves (scripts/dev.mjs).
dev: BUILD = quick
dev: build
	VONK_ADDR=$(ADDR) DATA_DIR=$(DATA_DIR) VONK_DEMO_MEMBERS=$(DEMO_MEMBERS) node scripts/dev.mjs

tools:
	@scripts/install-tools.sh

## Release build (BUILD=quick for run's): the widget bundle, then the server and the wasm bundle
## (`tools/site` splits each page-specific island, `#[island(lazy)]`, into a module of its own
## and runs wasm-bindgen), written into a folder of its own and swapped in as target/site
## (scripts/build-site.sh).
build: tools
	npm run --silent build:widgets
	VONK_BUILD=$(BUILD) scripts/build-site.sh

## Every test: format and lints, Rust (domain, server on SQLite + PostgreSQL, app + HTTP, two
## nodes behind nginx), widgets from stories, Storybook build, each page's wasm against its
## budget, Playwright flows in Chromium against the release build on SQLite and on PostgreSQL.
## Prints each layer's time at the end (scripts/test-layers.sh).
test:
	@scripts/test-layers.sh

## ESLint and Prettier for the TypeScript; `cargo fmt --check`, and clippy on every target with
## warnings as errors: the server build (`ssr`) and the browser build (`hydrate`, for wasm32).
## Allowed lints are named in Cargo.toml and eslint.config.mjs.
lint: tools
	npm run --silent lint:ts
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --features app/ssr -- -D warnings
	cargo clippy -p app --lib --no-default-features --features hydrate --target wasm32-unknown-unknown --target-dir $(CARGO_TARGET_DIR)/lint-wasm -- -D warnings

test-rust:
	cargo test -p domain -p server -p vonk-site
	cargo test -p app --features ssr

test-widgets:
	npm run --silent typecheck
	npm run --silent test:widgets
	npm run --silent build:storybook

## The flows on SQLite and, side by side, on PostgreSQL (scripts/e2e-both.sh).
test-e2e:
	scripts/e2e-both.sh

## Storybook for the React widgets at http://127.0.0.1:6006
storybook: tools
	npm run storybook

## A flame graph of one page under load (PAGE=/members): the bench built with line tables
## (profile `profiling`), `perf record --call-graph dwarf`, inferno (installed from crates.io).
PAGE ?= /members?gender=female&min
flamegraph:
	command -v inferno-flamegraph >/dev/null || cargo install inferno --locked
	cargo build --profile profiling -p app --features ssr --bin vonk-bench
	scripts/flamegraph.sh "$(PAGE)"

## Requests per second against a bare axum baseline, the chat under load (SQLite; PostgreSQL
## with two nodes), the owner's figures at a million visits (SQLite and PostgreSQL), the contact
## filter against a lowercase pass, bundle sizes and files, and Lighthouse on the member and
## visitor pages (needs `make build`).
## Every part runs and prints even when an earlier one missed its budget; the target fails then.
bench: build
	@status=0; \
	cargo run --release -p app --features ssr --bin vonk-bench || status=1; \
	cargo run --release -p app --features ssr --bin vonk-chat-load || status=1; \
	cargo run --release -p app --features ssr --bin vonk-figures-bench || status=1; \
	cargo test --release -p domain --test contact_corpus speed_against_a_lowercase_pass -- --nocapture || status=1; \
	scripts/bundle-sizes.sh || status=1; \
	scripts/lighthouse-table.sh || status=1; \
	[ $$status = 0 ] || echo "make bench: a part missed its budget (see above)"; \
	exit $$status

## Refresh the disposable address domains (a fraud signal) from PyPI's disposable-email-domains.
disposable-domains:
	python3 scripts/disposable-domains.py

## Regenerate the TypeScript types of widget props from the Rust types in domain/.
types:
	UPDATE_TS_TYPES=1 cargo test -p domain generated_types_are_current

fmt:
	cargo fmt --all
	npm run --silent fmt:ts

clean:
	rm -rf target/site target/site-builds public/widgets storybook-static end2end/test-results
