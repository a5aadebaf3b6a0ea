#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets) for FUZZ_SECONDS each, from the committed corpus
# (fuzz/corpus/<target>, read only) plus a scratch corpus under target/ (what a run finds goes
# there, so the tree stays clean). A crash fails the run and leaves its input in
# fuzz/artifacts/<target>/; the log of each run is in target/fuzz-logs/. Each run replays its whole
# corpus, then makes new inputs for FUZZ_SECONDS: beside `make test`'s other stages (at nice 19)
# that is as many as the CPU they leave idle allows.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
targets=${FUZZ_TARGETS:-$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^blockbrief-fuzz$')}
# The largest committed corpus first: replaying it is the longest run, so the others share the
# second core meanwhile.
targets=$(for t in $targets; do echo "$(ls "fuzz/corpus/$t" 2>/dev/null | wc -l) $t"; done | sort -rn | cut -d' ' -f2)
# No sanitizer: the code under test is safe Rust, where a bug is a panic, and an ASan build of
# the server's dependency tree takes several times as long to build and run. Debug assertions
# turn integer overflow into a panic too.
flags=(--sanitizer none --debug-assertions)
# `make test`'s short runs build without optimizations (about 3 minutes on 2 cores, against about
# 10 for a release build of the server's whole dependency tree); FUZZ_RELEASE=1 for a long run,
# where an optimized build makes several times as many runs a second.
[ "${FUZZ_RELEASE:-}" = 1 ] || flags+=(--dev)
# The targets are linted as they compile (nightly's clippy-driver, for the fuzz crate only; the
# server's code is linted by `make build`), as the Makefile's `LINTING` does for the workspace.
# Every cargo call below keeps the setting, so `fuzz run` does not rebuild.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
(cd fuzz && cargo +nightly fuzz build "${flags[@]}")
mkdir -p target/fuzz-logs
# One target a core at a time: libFuzzer runs on one thread.
run_one() {
    local target=$1 scratch=target/fuzz-corpus/$1 log=target/fuzz-logs/$1.log
    mkdir -p "$scratch"
    if (cd fuzz && cargo +nightly fuzz run "${flags[@]}" "$target" "../$scratch" "corpus/$target" \
        -- -max_total_time="$seconds" -print_final_stats=1) >"$log" 2>&1; then
        # libFuzzer's own count and time: replaying a large seed corpus can take longer than
        # max_total_time, which only bounds the fuzzing after it.
        done_line=$(sed -n 's/^Done \([0-9]* runs in [0-9]* second\).*/\1/p' "$log")
        echo "fuzz $target: ${done_line:-? runs}s, no crash"
    else
        tail -40 "$log"
        echo "fuzz $target: FAILED (input in fuzz/artifacts/$target/, log $log)"
        return 1
    fi
}
export -f run_one
export seconds flags_line="${flags[*]}"
# `xargs -P` stops handing out targets after a failure and exits non-zero.
printf '%s\n' $targets | xargs -P "$(nproc)" -I{} bash -c 'flags=($flags_line); run_one "$@" || exit 255' _ {}
