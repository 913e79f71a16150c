#!/usr/bin/env bash
# Runs before `npm test`: the suite drives Debian programs for real: tmux (the terminal end-to-end
# test of `arbiter uhp`), bubblewrap (the process sandbox of every task program, with util-linux's
# prlimit and setpriv), PostgreSQL's server binaries (the storage tests start a throwaway cluster
# with initdb and pg_ctl; Debian keeps them in /usr/lib/postgresql/<version>/bin) and chromium (the
# console's browser tests drive Debian's build; no browser is ever downloaded). Install them when
# they are missing and we may (root with apt-get); otherwise say exactly what to do.
#
# The suite also runs the local-model engines (`nli` on onnxruntime-node, `llama-cpp` on
# node-llama-cpp) on the repository's tiny fixture models. The default install leaves those
# runtimes out, so they are added here from the npm registry when missing (`npm run
# add-local-engines`, about 1 GB; no model is downloaded).
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/add-local-engines.mjs --check 2>/dev/null || node scripts/add-local-engines.mjs
missing=()
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
command -v prlimit >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1 || missing+=(util-linux)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null 2>&1 || missing+=(postgresql)
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "test prerequisites: installing ${missing[*]} (Debian packages)" >&2
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "test prerequisites: the test suite needs ${missing[*]}; install them with your package manager" >&2
  echo "(for example: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
