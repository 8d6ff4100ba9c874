#!/usr/bin/env bash
# Regenerate the reference goldens for the peer tests (fold/peer_test.go, validate_test.go):
#
#     testdata/peer/regen.sh
#
# (from anywhere; or AGUI_PEER=/path/to/agui-peer testdata/peer/regen.sh). For every file in
# testdata/peer/samples/ it runs the reference AG-UI checker (agui-check.mjs, @ag-ui/client 1.0.0,
# @ag-ui/core 1.0.0) and writes testdata/peer/golden/<sample file name>.json holding exactly
#
#     {"messages": …, "state": …, "verify": {"ok": …, "error": …, "atSourceIndex": …}}
#
# messages and state come from the report's .apply, or from .applyUnverified when the verified
# run failed; error and atSourceIndex are null when verify passed. Needs node and the peer with
# `npm ci` done; the peer is looked for at ../shared/peers/agui relative to the repo root unless
# $AGUI_PEER names it. Review the diff of golden/ before committing.
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

mkdir -p "$here/golden"
shopt -s nullglob
samples=("$here"/samples/*)
if ((${#samples[@]} == 0)); then
	echo "regen.sh: no samples in $here/samples" >&2
	exit 2
fi

for sample in "${samples[@]}"; do
	name=$(basename "$sample")
	report=$tmp/$name.report.json
	# Exit 1 only means the log breaks a rule, which is what some samples are for; 2 is unreadable.
	status=0
	node "$peer/agui-check.mjs" "$sample" --report "$report" || status=$?
	if ((status > 1)) || [[ ! -s $report ]]; then
		echo "regen.sh: agui-check.mjs failed on $name (exit $status)" >&2
		exit 2
	fi
	node - "$report" "$tmp/$name.json" <<'EOF'
const { readFileSync, writeFileSync } = require("node:fs");
const [reportPath, outPath] = process.argv.slice(-2);
const r = JSON.parse(readFileSync(reportPath, "utf8"));
const ap = r.apply.ok ? r.apply : r.applyUnverified;
const golden = {
  messages: ap.messages,
  state: ap.state,
  verify: {
    ok: r.verify.ok,
    error: r.verify.error ?? null,
    atSourceIndex: r.verify.atSourceIndex ?? null,
  },
};
writeFileSync(outPath, JSON.stringify(golden, null, 2) + "\n");
EOF
	mv "$tmp/$name.json" "$here/golden/$name.json"
done
echo "regen.sh: wrote ${#samples[@]} goldens to $here/golden"
