#!/bin/bash
# The client compatibility suite's rules on real runs (issue 18): every known client's own command
# line, run on this machine's GPUs with our binary in both interfaces (v0.8 and --compat v0.10)
# and with upstream's binary when given, read with the client's rules (tests/clients,
# section `real`). Prints one PASS/FAIL line per client and source with the values each read;
# keeps every output under OUT/outputs.
#   tools/check_clients_on_gpu.sh BUILD_DIR [UPSTREAM_BINARY] [OUT]
# A few minutes on one H200 (SuperBench's and DCGM's command lines run every testcase).
set -uo pipefail
build="${1:?usage: check_clients_on_gpu.sh BUILD_DIR [UPSTREAM_BINARY] [OUT]}"
upstream="${2:-}"
out="${3:-clients-on-gpu}"
here="$(cd "$(dirname "$0")/.." && pwd)"
export NVBANDWIDTH_DISABLE_MULTICAST=1
mkdir -p "$out"
args=(real --real-binary "$build/nvbandwidth" --save "$out/outputs" -v)
if [ -n "$upstream" ]; then args+=(--upstream-binary "$upstream"); fi
PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 "$here/tests/clients/check_clients.py" "${args[@]}" \
  | tee "$out/clients.txt"
