# Blockbrief: `make run` starts the app on embedded defaults, `make test` runs exactly what CI runs.
# Every target installs what it is missing, so both work on a fresh machine.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO_BIN := $(HOME)/.cargo/bin
export PATH := $(CARGO_BIN):$(CURDIR)/node_modules/.bin:$(PATH)

# The CLI must match the wasm-bindgen crate in Cargo.lock exactly. Tools install as debug builds:
# wasm-bindgen-cli's release build took about 8 minutes of a bare machine's `make test`, its debug
# build 64 s, and binds the package's modules in 1.6 s instead of 0.4 s, to the same bytes.
WASM_BINDGEN_VERSION := $(shell sed -n '/^name = "wasm-bindgen"$$/{n;s/version = "\(.*\)"/\1/p}' Cargo.lock)
CORE_SOURCES := $(shell find client-core/src -name '*.rs' -o -name '*.d.ts') client-core/Cargo.toml Cargo.lock
PKG_WASM := pkg/bundler/client_core_bg.wasm
APT_INSTALL := apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq

.PHONY: help setup toolchain node-deps test-deps pkg web test lint fmt-check build clippy clippy-wasm test-rust test-pkg test-web run \
	dev check types fuzz fuzz-build test-scale \
	bench bench-pkg bench-server bench-feed bench-content bench-stories bench-bots bench-talk bench-stream bench-alerts bench-markets bench-linking bench-web screenshots clean

help:
	@echo "make run    build everything and start the app on http://127.0.0.1:8080"
	@echo "make test   everything CI runs: fmt, clippy, Rust tests (SQLite + PostgreSQL), wasm tests,"
	@echo "            tsc, eslint, vitest and the browser specs (Chromium)"
	@echo "make bench  benchmarks (figures go to BENCHMARKS.md)"
	@echo "make dev    the server and Vite's dev server (hot reload, /api proxied) on embedded defaults"
	@echo "make check  the quick loop: fmt, clippy, the SQLite tests and vitest (a couple of minutes)"
	@echo "make test-scale  two servers, one PostgreSQL, moto, kill -9 halfway (SCALE_SECONDS, 60)"
	@echo "make fuzz   every fuzz target for FUZZ_SECONDS (default 20)"
	@echo "make types  rewrite the TypeScript generated from the Rust types (CI fails when stale)"
	@echo "make pkg    build the wasm package into pkg/"
	@echo "make screenshots  the main screens, light and dark, phone and desktop (bench-out/)"

setup: toolchain node-deps

toolchain:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
		|| rustup target add wasm32-unknown-unknown
	@if [ "$$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$(WASM_BINDGEN_VERSION)" ]; then \
		echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (about a minute on 2 cores)"; \
		cargo install wasm-bindgen-cli --version "$(WASM_BINDGEN_VERSION)" --force --debug; \
	fi

node-deps: node_modules/.package-lock.json

# Real peers for the tests: PostgreSQL (a throw-away cluster per run), an SMTP server (aiosmtpd),
# an S3-compatible server (moto), an OpenAPI 3.1 validator (openapi-spec-validator), Chromium for
# browser tests, and wrk for the benchmarks. Debian packages need root, as CI and these machines have.
test-deps:
	@[ -x /usr/bin/chromium ] || $(APT_INSTALL) chromium
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || $(APT_INSTALL) postgresql
	@command -v wrk >/dev/null || $(APT_INSTALL) wrk
	@python3 -c 'import aiosmtpd, moto.server, openapi_spec_validator' 2>/dev/null \
		|| python3 -m pip install --quiet --root-user-action=ignore aiosmtpd 'moto[server]' openapi-spec-validator

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

pkg: $(PKG_WASM)

# One wasm32 build, bound by wasm-bindgen for bundlers, Node (import and require) and plain pages,
# with the package's conditional exports over them (scripts/build-pkg.sh).
$(PKG_WASM): $(CORE_SOURCES) scripts/build-pkg.sh scripts/pkg-manifest.mjs client-core/npm/README.md | toolchain node-deps
	scripts/build-pkg.sh
	@touch $@

# Each stage in turn, with a table of their times at the end (scripts/stages.sh). The fuzz
# targets' build reuses every dependency `build` compiled, so it follows it, with the wasm
# package's build beside it (both are mostly one compiler on one core). The fuzz runs go beside
# the package tests and the browser specs, which wait on the browser and the server much of the
# time, even two spec files at a time.
test:
	scripts/stages.sh setup test-deps lint build 'pkg&' fuzz-build wait test-rust 'fuzz&' test-pkg test-web wait

# `make test` compiles the workspace once, linting as it compiles: cargo runs clippy-driver (rustc
# with clippy's lints, as `cargo clippy -- -D warnings` runs it, the arguments passed the way
# cargo-clippy passes them) for the workspace's own crates only. A separate `cargo clippy` would
# check all ~330 dependencies again first (two minutes of CI). Every debug build of the test
# stages uses the same setting, so none rebuilds what another built.
LINTING := env RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
DEBUG_BUILD := $(LINTING) cargo test --locked --all-targets --no-run

# The web app: built into web/dist (the server serves it at /).
web: pkg node-deps
	npm run --silent web:build

# Formatting, and clippy on the wasm32 build; the native crates are linted as `build` compiles
# them, and the fuzz targets as `fuzz-build` compiles them (scripts/fuzz.sh).
lint: fmt-check clippy-wasm

fmt-check:
	cargo fmt --all --check

# The workspace's debug build (every target of its default members, client-core and server: the
# tests, the server binary the browser specs drive, the examples), linted as it compiles.
build: toolchain
	$(DEBUG_BUILD)

clippy-wasm: toolchain
	cargo clippy --locked -p client-core --target wasm32-unknown-unknown --features wasm,wasm-more,wasm-link -- -D warnings

# Clippy alone, for a change in progress: the workspace (the fuzz targets too) and the wasm32 build.
clippy: clippy-wasm
	cargo clippy --locked --workspace --all-targets -- -D warnings

# The server's database tests run on SQLite and on a throw-away PostgreSQL. Four at a time on two
# cores, as many wait on timers and peers: 303 s at the default two, 237 s at six (measured).
test-rust: test-deps build
	scripts/with-postgres.sh $(LINTING) cargo test --locked -- --test-threads=4

# The wallet test signs in against the real server binary (`build`; `-p server` alone would
# unify client-core's features differently and compile the server again).
test-pkg: pkg node-deps test-deps build
	npm run --silent test:pkg

# The browser specs drive the debug server binary of `build`, with the built app.
test-web: web test-deps build
	npm run --silent web:check
	npm run --silent web:unit
	npm run --silent web:e2e

run: web
	DEMO_CONTENT=true cargo run --release -p server

# The server (debug build, demo content) on :8080 and Vite on :5173 with hot reload, proxying
# /api to the server; Ctrl-C stops both.
dev: pkg node-deps
	@trap 'kill 0' EXIT INT TERM; \
		DEMO_CONTENT=true cargo run -p server & \
		vite web --port 5173 --strictPort & \
		wait

# What a change most often breaks, without PostgreSQL, Chromium or the wasm tools: fmt, clippy,
# the Rust tests on SQLite (the PostgreSQL half is skipped by name) and vitest.
check: fmt-check pkg node-deps build
	$(LINTING) cargo test --locked -- --skip postgres
	npm run --silent web:unit

# The TypeScript written from the Rust types: web/src/lib/api-types.ts and client-core's
# src/wasm/types.d.ts. `make test` fails while either is stale. This and `test-scale` build as
# `build` does (the workspace, linting), so neither compiles the server again after it.
types:
	UPDATE_TYPES=1 $(LINTING) cargo test --locked --lib typescript

# Two servers on one PostgreSQL and one S3-compatible store under mixed load, one killed with
# kill -9 halfway (server/tests/api/scale.rs; `make test` runs it for 6 s): figures printed.
test-scale: test-deps
	SCALE_SECONDS=$${SCALE_SECONDS:-60} scripts/with-postgres.sh \
		$(LINTING) cargo test --locked --test api postgres_two_servers -- --nocapture

# The fuzz targets (fuzz/fuzz_targets) with libFuzzer's coverage instrumentation, linted as they
# compile; after `build`, whose dependencies they reuse (scripts/fuzz-rustc).
fuzz-build: build
	scripts/fuzz.sh build

# Each fuzz target for FUZZ_SECONDS (20 in `make test`; 600 for a real session).
fuzz: fuzz-build
	scripts/fuzz.sh run

bench: bench-pkg bench-server bench-feed bench-content bench-stories bench-bots bench-talk bench-stream bench-alerts bench-markets bench-linking bench-web

bench-pkg: pkg node-deps
	npm run --silent bench:pkg

bench-server: test-deps
	cargo build --locked --release -p server
	scripts/with-postgres.sh scripts/bench-server.sh

# The main screens, light and dark, phone and desktop, into bench-out/screenshots/ for review.
screenshots: web test-deps build
	@fc-list :lang=zh -q || $(APT_INSTALL) fonts-noto-cjk
	npm run --silent screenshots

# First load of the web app on a throttled phone profile in Chromium (bytes, LCP, TBT, CLS),
# then Lighthouse's performance score.
bench-web: web test-deps build
	npm run --silent bench:web

# The home feed for a visitor and for a signed-in reader, beside /api/health, in one run.
bench-feed: test-deps
	cargo build --locked --release -p server
	scripts/bench-feed.sh

bench-content: test-deps
	cargo build --locked --release -p server
	scripts/with-postgres.sh scripts/bench-content.sh

# Story grouping at ingest with 100,000 stored items, and the home feed with stories, newest and
# hot, on SQLite and PostgreSQL.
bench-stories: test-deps
	cargo build --locked --release -p server
	scripts/with-postgres.sh scripts/bench-stories.sh

# One important item fanned out to 10,000 Telegram chats: queuing time, the send rate against a
# local API that enforces Telegram's limits, and the server's memory.
bench-bots: test-deps
	cargo build --locked --release -p server
	scripts/with-postgres.sh scripts/bench-bots.sh

# A feed item with 10,000 comments and 50,000 likes: its thread's first page, the unread count
# and /like/set, on SQLite and PostgreSQL.
bench-talk: test-deps
	cargo build --locked --release -p server
	scripts/with-postgres.sh scripts/bench-talk.sh

# 100,000 readers with 3 alert rules each: one item matched against all of them (p50/p99);
# 10,000 encrypted, signed pushes to a local push service.
bench-alerts: test-deps
	cargo run --locked --release -p server --example alert_bench

# One price poll updating 1,000 tokens (SQLite and PostgreSQL); the home feed with and without
# prices on its token chips.
bench-markets: test-deps
	cargo build --locked --release -p server --bin blockbrief --example price_bench
	scripts/with-postgres.sh scripts/bench-markets.sh

# 10,000 live streams on one server: memory a stream, upsert-to-delivery time, the home feed
# meanwhile; then delivery across two servers on one PostgreSQL.
bench-stream: test-deps
	cargo build --locked --release -p server --bin blockbrief --example stream_load
	scripts/with-postgres.sh scripts/bench-stream.sh

# The entity linker on 10,000 items against 5,000 tokens with 40,000 aliases: items per second
# natively and in wasm (Node), on the same generated data.
bench-linking: pkg node-deps
	@mkdir -p target/bench
	cargo run --locked --release -p client-core --example link_bench -- --write target/bench/linking.json
	node pkg-tests/bench-linking.mjs target/bench/linking.json

clean:
	rm -rf pkg target node_modules
