#!/bin/sh
# Rebuilds models/hearth-tiny.gguf from scratch: training data, subword tokenizer, model
# training, GGUF, smoke check, tests. Prints the time of each step. Run from anywhere:
#
#   models/tools/rebuild.sh                      # default: 54 + 42 min of training, ~100 min in all
#   TRAIN_MINUTES=10 STAGE2_MINUTES=8 models/tools/rebuild.sh   # a quicker, weaker model
#
# Needs Debian's PyTorch (apt-get install -y python3-torch libopenblas0-pthread) and `npm ci`.
# Uses a CUDA GPU when torch sees one (train.py --device auto), never requires one. On CPU it
# trains with one thread (TRAIN_THREADS), which on a busy 2-core machine is the fastest.
#
# Environment: TRAIN_MINUTES (54, stage 1), STAGE2_MINUTES (42), TRAIN_THREADS (1), DATA_DIR (/tmp/hearth-data),
# TRAIN_DIR (/tmp/hearth-train), OUT (models/hearth-tiny.gguf), PYTHON (/usr/bin/python3),
# KEEP_VOCAB=1 keeps the committed models/tools/hearth-tokens.json instead of retraining it.
set -eu
cd "$(dirname "$0")/../.."
T=models/tools
PY=${PYTHON:-/usr/bin/python3}
MINUTES=${TRAIN_MINUTES:-54}
MINUTES2=${STAGE2_MINUTES:-42}
DATA=${DATA_DIR:-/tmp/hearth-data}
RUN=${TRAIN_DIR:-/tmp/hearth-train}/rebuild
OUT=${OUT:-models/hearth-tiny.gguf}
export OPENBLAS_NUM_THREADS=1
mkdir -p "$DATA" "$RUN/stage1" "$RUN/stage2"

START=$(date +%s)
LAST=$START
step() {
  NOW=$(date +%s)
  echo "== $1: $((NOW - LAST)) s (total $((NOW - START)) s)"
  LAST=$NOW
}

# 1. Data: 20,000 generated chats (seed 7) in the format the server sends; the benchmark's
#    held-out set is seed 9001, which training never sees.
$PY $T/generate-dialogues.py --count 20000 --seed 7 --out "$DATA/d7.jsonl"
$PY $T/generate-dialogues.py --count 100 --seed 9001 --out bench/model-eval.heldout.jsonl
step "data"

# 2. Tokenizer: BPE merges learned from the first 8,000 chats (4,096 tokens in all), and the
#    fixture of ids that tokenizer.test.ts checks llama.cpp against.
if [ "${KEEP_VOCAB:-0}" != 1 ]; then
  $PY $T/tokenizer.py --train "$DATA/d7.jsonl" --size 4096 --limit 8000 --out $T/hearth-tokens.json
fi
$PY $T/tokenizer.py --fixture bench/model-eval.heldout.jsonl
step "tokenizer"

# 3. Model: 5 layers x 192 dims on 2,048-token windows, in the two stages that made the committed
#    model: from scratch at lr 2e-3, then warm-started at a lower rate (models/README.md).
$PY $T/train.py --data "$DATA/d7.jsonl" --out "$RUN/stage1" --dim 192 --layers 5 --heads 3 --ffn 512 \
  --seq 2048 --batch 2 --lr 2e-3 --minutes "$MINUTES" --threads "${TRAIN_THREADS:-1}"
step "training, stage 1"
$PY $T/train.py --data "$DATA/d7.jsonl" --out "$RUN/stage2" --dim 192 --layers 5 --heads 3 --ffn 512 \
  --seq 2048 --batch 2 --lr 1.2e-3 --seed 4 --minutes "$MINUTES2" --threads "${TRAIN_THREADS:-1}" \
  --init "$RUN/stage1/model.json"
step "training, stage 2"

# 4. GGUF (llama.context_length = the training window, from model.json).
npx tsx $T/build-gguf.ts --weights "$RUN/stage2/model.json" --out "$OUT"
step "gguf"

# 5. Smoke check (tokenizer vs trainer, ChatML wrapper, streamed replies) and the model tests.
npx tsx $T/smoke.ts "$OUT"
if [ "$OUT" = models/hearth-tiny.gguf ]; then
  npx vitest run --project server models/
fi
step "smoke and tests"
echo "done: $OUT in $(( $(date +%s) - START )) s"
