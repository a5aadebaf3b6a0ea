#!/usr/bin/env bash
# The fuzz targets (fuzz/fuzz_targets, libFuzzer through libfuzzer-sys).
#
# `scripts/fuzz.sh build` compiles them with the coverage instrumentation libFuzzer steers by
# (scripts/fuzz-rustc, on the workspace's own crates), linting them as they compile.
#
# `scripts/fuzz.sh run` runs each for FUZZ_SECONDS, from the committed corpus (fuzz/corpus/<target>,
# read only) plus a scratch corpus under target/ (what a run finds goes there, so the tree stays
# clean). A crash fails the run and leaves its input in fuzz/artifacts/<target>/; the log of each
# run is in target/fuzz-logs/. Each run replays its whole corpus, then makes new inputs for
# FUZZ_SECONDS: beside `make test`'s other stages (at nice 19) that is as many as the CPU they
# leave idle allows.
#
# `make test`'s short runs use the debug build, whose dependencies `make build` has compiled
# already; FUZZ_RELEASE=1 builds optimized for a long run, which then makes several times as many
# runs a second. No sanitizer: the code under test is safe Rust, where a bug is a panic; debug
# assertions turn integer overflow into a panic too.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=debug
cargo_profile=()
if [ "${FUZZ_RELEASE:-}" = 1 ]; then
    profile=release
    cargo_profile=(--release)
fi

build() {
    RUSTC_WORKSPACE_WRAPPER="$PWD/scripts/fuzz-rustc" \
        CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__ \
        cargo build --locked -p blockbrief-fuzz --bins "${cargo_profile[@]}"
}

# One target a core at a time: libFuzzer runs on one thread.
run_one() {
    local target=$1 scratch=target/fuzz-corpus/$1 log=target/fuzz-logs/$1.log
    mkdir -p "$scratch" "fuzz/artifacts/$target"
    if "target/$profile/$target" -artifact_prefix="fuzz/artifacts/$target/" \
        -max_total_time="$seconds" -print_final_stats=1 "$scratch" "fuzz/corpus/$target" >"$log" 2>&1; then
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

run() {
    seconds=${FUZZ_SECONDS:-20}
    local targets
    targets=${FUZZ_TARGETS:-$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^blockbrief-fuzz$')}
    # The largest committed corpus first: replaying it is the longest run, so the others share
    # the second core meanwhile.
    targets=$(for t in $targets; do echo "$(ls "fuzz/corpus/$t" 2>/dev/null | wc -l) $t"; done | sort -rn | cut -d' ' -f2)
    mkdir -p target/fuzz-logs
    export -f run_one
    export seconds profile
    # `xargs -P` stops handing out targets after a failure and exits non-zero.
    printf '%s\n' $targets | xargs -P "$(nproc)" -I{} bash -c 'run_one "$@" || exit 255' _ {}
}

case ${1:-} in
build | run) "$1" ;;
*)
    echo "usage: scripts/fuzz.sh build|run" >&2
    exit 2
    ;;
esac
