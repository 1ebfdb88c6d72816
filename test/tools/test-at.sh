#!/usr/bin/env bash
# Runs the whole suite with every Node process's clock moved to the given instant (libfaketime, Debian
# package `faketime`), to show that no test depends on today's date. The clock keeps running from there.
#   test/tools/test-at.sh 2026-11-29T01:30:00Z [vitest arguments…]   (none: the fast suite's two projects)
# redis-server runs on the real clock: it does not start under libfaketime, and the quota computes its
# windows from the gateway's clock, not Redis's.
set -euo pipefail
cd "$(dirname "$0")/../.."
instant=${1:?usage: test/tools/test-at.sh <ISO instant> [vitest arguments…]}
shift
[ $# -gt 0 ] || set -- --project shared --project isolated
command -v faketime >/dev/null || { echo "test-at: needs faketime (apt-get install -y faketime)" >&2; exit 2; }
offset=$(($(date -d "$instant" +%s) - $(date +%s)))
shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
printf '#!/bin/sh\nexec env -u LD_PRELOAD -u FAKETIME %s "$@"\n' "$(command -v redis-server)" >"$shim/redis-server"
chmod +x "$shim/redis-server"
echo "test-at: the clock reads $(date -u -d "@$(($(date +%s) + offset))" +%Y-%m-%dT%H:%M:%SZ) ($(date -u -d "$instant" +%A))"
sign=+
[ "$offset" -lt 0 ] && sign=
PATH="$shim:$PATH" faketime -f "$sign$offset" npx vitest run "$@"
