# Blockbrief: `make run` starts the app on embedded defaults, `make test` runs exactly what CI runs.
# Every target installs what it is missing, so both work on a fresh machine.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

CARGO_BIN := $(HOME)/.cargo/bin
export PATH := $(CARGO_BIN):$(CURDIR)/node_modules/.bin:$(PATH)

# The CLI must match the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION := $(shell sed -n '/^name = "wasm-bindgen"$$/{n;s/version = "\(.*\)"/\1/p}' Cargo.lock)
WASM_OPT_FLAGS := -Oz --enable-reference-types --enable-bulk-memory \
	--enable-nontrapping-float-to-int --enable-sign-ext --enable-multivalue
CORE_SOURCES := $(shell find client-core/src -name '*.rs') client-core/Cargo.toml Cargo.lock
PKG_WASM := pkg/client_core_bg.wasm

.PHONY: help setup toolchain node-deps pkg test lint fmt-check clippy test-rust test-pkg run bench clean

help:
	@echo "make run    build everything and start the app on http://127.0.0.1:8080"
	@echo "make test   everything CI runs: fmt, clippy, Rust tests, wasm package tests"
	@echo "make bench  benchmarks (figures go to BENCHMARKS.md)"
	@echo "make pkg    build the wasm package into pkg/"

setup: toolchain node-deps

toolchain:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
		|| rustup target add wasm32-unknown-unknown
	@if [ "$$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$(WASM_BINDGEN_VERSION)" ]; then \
		echo "installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (about 8 minutes on 2 cores)"; \
		cargo install wasm-bindgen-cli --version "$(WASM_BINDGEN_VERSION)" --force; \
	fi
	@command -v wasm-pack >/dev/null || { echo "installing wasm-pack (about 6 minutes)"; cargo install wasm-pack; }

node-deps: node_modules/.package-lock.json

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

pkg: $(PKG_WASM)

# wasm-pack runs wasm-bindgen; binaryen's own wasm-opt (npm) then shrinks the module, since
# Debian's is too old for the reference types rustc emits.
$(PKG_WASM): $(CORE_SOURCES) | toolchain node-deps
	wasm-pack build client-core --target bundler --out-dir ../pkg --out-name client_core \
		--scope blockbrief --profile wasm-release --no-opt -- --features wasm
	wasm-opt $(WASM_OPT_FLAGS) $@ -o $@.opt && mv $@.opt $@
	@touch $@

test: lint test-rust test-pkg

lint: fmt-check clippy

fmt-check:
	cargo fmt --all --check

clippy:
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p client-core --target wasm32-unknown-unknown --features wasm -- -D warnings

test-rust:
	cargo test --workspace

test-pkg: pkg node-deps
	npm run --silent test:pkg

run: pkg
	cargo run --release -p server

bench: pkg node-deps
	npm run --silent bench:pkg

clean:
	rm -rf pkg target node_modules
