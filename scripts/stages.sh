#!/usr/bin/env bash
# Runs `make <stage>` for each stage named, in order, and prints how long each took as a table
# at the end (also when one fails, which stops the run: CI's log then shows where time went),
# with the CPU time (user + system, in seconds) each spent: on two cores a stage that keeps both
# busy shows about twice its seconds, one that waits on peers less.
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
cpu_file=$(mktemp)
# Sets `cpu` to the CPU seconds of the children this shell has waited for so far. Bash's `times`
# must run in this shell, not in a `$(…)` subshell, whose children are its own.
children_cpu() {
    times >"$cpu_file"
    cpu=$(awk 'END { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$cpu_file")
}
row() { printf '%-12s %8s %8s  %s' "$@"; }
report() {
    printf '\n%-12s %8s %8s  %s\n' stage seconds cpu result
    printf '%-12s %8s %8s  %s\n' ------------ -------- -------- ------
    for line in "${rows[@]}"; do printf '%s\n' "$line"; done
    children_cpu
    printf '%-12s %8s %8s\n' total "$(( $(date +%s) - total_start ))" "$cpu"
}
stop_background() {
    for job in "${background[@]}"; do kill -- "-${job##*:}" 2>/dev/null; done
}
trap 'stop_background; rm -f "$cpu_file"' EXIT
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
        local took cpu
        read -r took cpu <"target/stage-logs/$stage.seconds" || took='?'
        rows+=("$(row "$stage&" "$took" "${cpu:-?}" "$result (in the background; log target/stage-logs/$stage.log)")")
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
            start=$(date +%s) cpu_file=target/stage-logs/$stage.times
            nice -n 19 make --no-print-directory "$stage" >"target/stage-logs/$stage.log" 2>&1
            rc=$?
            children_cpu
            echo "$(( $(date +%s) - start )) $cpu" >"target/stage-logs/$stage.seconds"
            exit "$rc"
        ) &
        background+=("$stage:$!")
        set +m
        continue
    fi
    children_cpu
    start=$(date +%s) cpu_start=$cpu
    if make --no-print-directory "$stage"; then result=ok; else result=FAILED; fi
    children_cpu
    rows+=("$(row "$stage" "$(( $(date +%s) - start ))" "$(( cpu - cpu_start ))" "$result")")
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
