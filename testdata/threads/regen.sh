#!/usr/bin/env bash
# Regenerate the reference goldens for the many-thread tests (cli/threads_peer_test.go):
#
#     testdata/threads/regen.sh
#
# (from anywhere; or AGUI_PEER=/path/to/agui-peer testdata/threads/regen.sh). For every log in
# testdata/threads/samples/ it splits the log by thread as agentwatch does (internal/testkit/threadsplit:
# one JSON array per thread, in order of first appearance, events byte for byte), runs the
# reference AG-UI checker (agui-check.mjs, @ag-ui/client 1.0.0, @ag-ui/core 1.0.0) on each part
# alone, and writes testdata/threads/golden/<sample>/<index>-<threadId>.json holding exactly
#
#     {"threadId": …, "messages": …, "state": …, "verify": {"ok": …, "error": …, "atSourceIndex": …}}
#
# messages and state come from the report's .apply, or from .applyUnverified when the verified
# run failed; error and atSourceIndex (0-based, in the thread's part) are null when verify
# passed. golden/ is replaced as a whole, so threads and samples that are gone leave nothing
# behind. Needs go, node and the peer with `npm ci` done; the peer is looked for at
# ../shared/peers/agui relative to the repo root unless $AGUI_PEER names it. The samples
# themselves are remade by `go run ./internal/testkit/threadmix` (see README.md). Review the diff of
# golden/ before committing.
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

shopt -s nullglob
samples=("$here"/samples/*)
if ((${#samples[@]} == 0)); then
	echo "regen.sh: no samples in $here/samples" >&2
	exit 2
fi

(cd "$root" && go build -o "$tmp/threadsplit" ./internal/testkit/threadsplit)

# golden writes the golden of one thread's part ($1) of sample $2 with thread id $3.
golden() {
	local part=$1 sample=$2 id=$3
	local name report status=0
	name=$(basename "$part")
	report=$tmp/reports/$sample/$name
	# Exit 1 only means the thread breaks a rule, which is what some samples are for; 2 is unreadable.
	node "$peer/agui-check.mjs" "$part" --report "$report" >/dev/null || status=$?
	if ((status > 1)) || [[ ! -s $report ]]; then
		echo "regen.sh: agui-check.mjs failed on $sample thread $id (exit $status)" >&2
		return 2
	fi
	node - "$report" "$id" "$tmp/golden/$sample/$name" <<'EOF'
const { readFileSync, writeFileSync } = require("node:fs");
const [reportPath, threadId, outPath] = process.argv.slice(-3);
const r = JSON.parse(readFileSync(reportPath, "utf8"));
const ap = r.apply.ok ? r.apply : r.applyUnverified;
const golden = {
  threadId,
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
}

threads=0
pids=()
for sample in "${samples[@]}"; do
	name=$(basename "$sample")
	mkdir -p "$tmp/parts/$name" "$tmp/reports/$name" "$tmp/golden/$name"
	"$tmp/threadsplit" -out "$tmp/parts/$name" "$sample" >"$tmp/parts/$name.list"
	# The reference is slow on long threads; the threads of a sample run side by side.
	while IFS=$'\t' read -r index id _; do
		golden "$tmp/parts/$name/$index-$id.json" "$name" "$id" &
		pids+=($!)
		threads=$((threads + 1))
	done <"$tmp/parts/$name.list"
	for pid in "${pids[@]}"; do
		wait "$pid"
	done
	pids=()
done

rm -rf "$here/golden"
mv "$tmp/golden" "$here/golden"
echo "regen.sh: wrote $threads goldens for ${#samples[@]} samples to $here/golden"
