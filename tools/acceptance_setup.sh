# Sourced by the GPU acceptance scripts (tools/gpu_acceptance_*.sh): their arguments, BUILD_DIR
# and OUT_DIR, checked; sets BIN (NVBW_ACCEPTANCE_BINARY, the tests' fake, else
# BUILD_DIR/nvbandwidth), OUT (created), ROOT (the repository), NVBANDWIDTH_DISABLE_MULTICAST=1
# (no multicast object is ever created on a lent machine), START. Exits 2 on a usage error.
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
BUILD_DIR=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${NVBW_ACCEPTANCE_BINARY:-$BUILD_DIR/nvbandwidth}
if [ ! -x "$BIN" ]; then
  echo "$0: no program at $BIN" >&2
  exit 2
fi
if [ ! -x /usr/bin/python3 ]; then
  echo "$0: /usr/bin/python3 is needed to read the outputs" >&2
  exit 2
fi
mkdir -p "$OUT" || exit 2
export NVBANDWIDTH_DISABLE_MULTICAST=1
START=$(date +%s)
