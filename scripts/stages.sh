#!/usr/bin/env bash
# Runs `make <stage>` for each stage named, in order, and prints how long each took as a table
# at the end (also when one fails, which stops the run: CI's log then shows where time went).
#
# A stage named `<stage>&` starts in the background at the lowest CPU priority, its output in
# target/stage-logs/<stage>.log, and takes only what the stages after it leave idle (the browser
# specs wait on the browser and the network much of the time). `wait` waits for the background
# stages, and fails the run if one failed.
set -uo pipefail
cd "$(dirname "$0")/.."
rows=()
background=()
total_start=$(date +%s)
report() {
    printf '\n%-12s %8s  %s\n' stage seconds result
    printf '%-12s %8s  %s\n' ------------ -------- ------
    for row in "${rows[@]}"; do printf '%s\n' "$row"; done
    printf '%-12s %8s\n' total "$(( $(date +%s) - total_start ))"
}
stop_background() {
    for job in "${background[@]}"; do kill -- "-${job##*:}" 2>/dev/null; done
}
trap stop_background EXIT
# Waits for each background stage; its row says how long it ran beside the others.
finish_background() {
    local failed=0
    for job in "${background[@]}"; do
        local stage=${job%%:*} pid=${job##*:}
        wait "$pid"
        local rc=$? result=ok
        if [ "$rc" != 0 ]; then
            result=FAILED
            failed=1
            tail -60 "target/stage-logs/$stage.log"
        fi
        rows+=("$(printf '%-12s %8s  %s' "$stage&" "$(cat "target/stage-logs/$stage.seconds" 2>/dev/null || echo '?')" "$result (in the background; log target/stage-logs/$stage.log)")")
    done
    background=()
    return "$failed"
}
for stage in "$@"; do
    if [ "$stage" = wait ]; then
        finish_background || { report; exit 1; }
        continue
    fi
    if [[ $stage == *'&' ]]; then
        stage=${stage%&}
        mkdir -p target/stage-logs
        # A process group of its own (set -m), so that a failed run stops all of it.
        set -m
        (
            start=$(date +%s)
            nice -n 19 make --no-print-directory "$stage" >"target/stage-logs/$stage.log" 2>&1
            rc=$?
            echo "$(( $(date +%s) - start ))" >"target/stage-logs/$stage.seconds"
            exit "$rc"
        ) &
        background+=("$stage:$!")
        set +m
        continue
    fi
    start=$(date +%s)
    if make --no-print-directory "$stage"; then result=ok; else result=FAILED; fi
    rows+=("$(printf '%-12s %8s  %s' "$stage" "$(( $(date +%s) - start ))" "$result")")
    if [ "$result" = FAILED ]; then
        report
        exit 1
    fi
done
if ! finish_background; then
    report
    exit 1
fi
report
