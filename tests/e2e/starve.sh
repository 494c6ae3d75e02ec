#!/bin/bash
# A browser short of CPU, on purpose: freeze the test's Chromium (SIGSTOP)
# for 0.2-1.6 s, let it run 0.1-0.8 s, and again, for $1 seconds (200).
# Run it beside `python -m tests.e2e.bench_battery --game web-mfw-...`.
end=$((SECONDS + ${1:-200}))
while [ $SECONDS -lt $end ]; do
    pids=$(pgrep -f "chromium.*127.0.0.1" | tr '\n' ' ')
    if [ -n "$pids" ]; then
        kill -STOP $pids 2>/dev/null
        cs=$((20 + RANDOM % 141))  # hundredths of a second
        sleep "$(printf '%d.%02d' $((cs / 100)) $((cs % 100)))"
        kill -CONT $pids 2>/dev/null
    fi
    sleep "0.$(( 10 + RANDOM % 71 ))"
done
