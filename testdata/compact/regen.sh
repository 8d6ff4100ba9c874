#!/usr/bin/env bash
# Regenerate the compaction goldens (fold/compact/golden_test.go):
#
#     testdata/compact/regen.sh
#
# (from anywhere; or AGUI_PEER=/path/to/agui-peer testdata/compact/regen.sh). It writes
# testdata/compact/gen/ from the Go generator, then for every log in testdata/peer/samples/ and
# testdata/compact/gen/ writes to testdata/compact/golden/:
#
#     NAME.peer.json    the reference compactEvents' output (agui-check.mjs --compact-out)
#     NAME.ours.json    ours (agentwatch compact NAME)
#     NAME.report.json  {"input", "peerCompaction", "ours"}: what the peer's checker says of the
#                       input (verify, and messages and state as the reference folds it), of its
#                       own compaction (verify, replay equivalence) and of ours (verify, messages,
#                       state), trimmed from agui-check.mjs --report
#
# Needs go, node and the peer with `npm ci` done; the peer is looked for at ../shared/peers/agui
# relative to the repo root unless $AGUI_PEER names it. Review the diff of golden/ before
# committing.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
peer=${AGUI_PEER:-$root/../shared/peers/agui}

if [[ ! -f $peer/agui-check.mjs ]]; then
	echo "regen.sh: no agui-check.mjs in $peer; set AGUI_PEER to the agui peer folder" >&2
	exit 2
fi
if [[ ! -d $peer/node_modules/@ag-ui/client ]]; then
	echo "regen.sh: $peer has no node_modules; run npm ci there first" >&2
	exit 2
fi
peer=$(cd "$peer" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && go test ./fold/compact/ -run '^TestGenSamples$' -update-gen >/dev/null)
(cd "$root" && go build -o "$tmp/agentwatch" .)

mkdir -p "$here/golden"
rm -f "$here"/golden/*.json
shopt -s nullglob
inputs=("$root"/testdata/peer/samples/* "$here"/gen/*)
for input in "${inputs[@]}"; do
	name=$(basename "$input")
	out=$here/golden/$name
	# Exit 1 only means the log breaks a rule, which is what some samples are for; 2 is unreadable.
	status=0
	node "$peer/agui-check.mjs" "$input" --report "$tmp/in.json" --compact-out "$out.peer.json" >/dev/null || status=$?
	if ((status > 1)); then
		echo "regen.sh: agui-check.mjs failed on $name (exit $status)" >&2
		exit 2
	fi
	"$tmp/agentwatch" compact "$input" -o "$out.ours.json"
	status=0
	node "$peer/agui-check.mjs" "$out.ours.json" --report "$tmp/ours.json" >/dev/null || status=$?
	if ((status > 1)); then
		echo "regen.sh: agui-check.mjs failed on our compaction of $name (exit $status)" >&2
		exit 2
	fi
	node - "$tmp/in.json" "$tmp/ours.json" "$out.report.json" <<'JS'
const { readFileSync, writeFileSync } = require("node:fs");
const [inPath, oursPath, outPath] = process.argv.slice(-3);
const rin = JSON.parse(readFileSync(inPath, "utf8"));
const rours = JSON.parse(readFileSync(oursPath, "utf8"));
const verify = (v) => ({ ok: v.ok, error: v.error ?? null, atSourceIndex: v.atSourceIndex ?? null });
const folded = (r) => (r.apply.ok ? r.apply : r.applyUnverified);
const report = {
  input: { count: rin.count, verify: verify(rin.verify), messages: folded(rin).messages, state: folded(rin).state },
  peerCompaction: { count: rin.compact.count, verify: verify(rin.compact.verify), replayEquivalent: rin.compact.replayEquivalent },
  ours: { count: rours.count, verify: verify(rours.verify), messages: folded(rours).messages, state: folded(rours).state },
};
writeFileSync(outPath, JSON.stringify(report, null, 2) + "\n");
JS
done
echo "regen.sh: wrote goldens for ${#inputs[@]} logs to $here/golden"
