#!/usr/bin/env bash
# Runs `make <stage>` for each stage named, in order, and prints how long each took as a table
# at the end (also when one fails, which stops the run: CI's log then shows where time went).
set -uo pipefail
cd "$(dirname "$0")/.."
rows=()
total_start=$(date +%s)
report() {
    printf '\n%-12s %8s  %s\n' stage seconds result
    printf '%-12s %8s  %s\n' ------------ -------- ------
    for row in "${rows[@]}"; do printf '%s\n' "$row"; done
    printf '%-12s %8s\n' total "$(( $(date +%s) - total_start ))"
}
for stage in "$@"; do
    start=$(date +%s)
    if make --no-print-directory "$stage"; then result=ok; else result=FAILED; fi
    rows+=("$(printf '%-12s %8s  %s' "$stage" "$(( $(date +%s) - start ))" "$result")")
    if [ "$result" = FAILED ]; then
        report
        exit 1
    fi
done
report
