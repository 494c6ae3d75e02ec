#!/bin/bash
# A game short of CPU, on purpose: freeze the processes whose command line
# matches $2 (the test's Chromium by default) with SIGSTOP for 0.2-1.6 s, let
# them run 0.1-0.8 s, and again, for $1 seconds (200). Run it beside
# `python -m tests.e2e.bench_battery --game web-mfw-...` (or another game).
end=$((SECONDS + ${1:-200}))
pattern=${2:-chromium.*127.0.0.1}
while [ $SECONDS -lt $end ]; do
    pids=$(pgrep -f "$pattern" | tr '\n' ' ')
    if [ -n "$pids" ]; then
        kill -STOP $pids 2>/dev/null
        cs=$((20 + RANDOM % 141))  # hundredths of a second
        sleep "$(printf '%d.%02d' $((cs / 100)) $((cs % 100)))"
        kill -CONT $pids 2>/dev/null
    fi
    sleep "0.$(( 10 + RANDOM % 71 ))"
done
