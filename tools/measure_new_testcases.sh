#!/usr/bin/env bash
# The two testcases of issue 18 beside their neighbours, on a GPU machine:
#   - device_local_copy (CE), device_local_copy_sm and device_local_copy_tma per GPU: GB/s and
#     percent of the HBM peak (bytes-copied convention) from the -j report, median of ROUNDS runs;
#   - with two or more GPUs, device_to_device_latency_tma beside device_to_device_latency_sm per
#     GPU pair (ns).
# Never runs a multicast testcase (only the testcases above, by name, and
# NVBANDWIDTH_DISABLE_MULTICAST=1). The reports stay in OUT for a closer look.
# usage: tools/measure_new_testcases.sh BUILD_DIR [OUT (default: ./measure-out)] [ROUNDS (3)]
set -uo pipefail
export NVBANDWIDTH_DISABLE_MULTICAST=1
build="${1:?usage: $0 BUILD_DIR [OUT] [ROUNDS]}"
out="${2:-measure-out}"
rounds="${3:-3}"
bin="$build/nvbandwidth"
[ -x "$bin" ] || { echo "no executable $bin" >&2; exit 2; }
mkdir -p "$out"
nvidia-smi -L > "$out/gpus.txt" 2>&1
gpus=$(grep -c '^GPU ' "$out/gpus.txt")
echo "GPUs: $gpus ($(head -1 "$out/gpus.txt"))"

status=0
for round in $(seq 1 "$rounds"); do
  "$bin" -j -t device_local_copy device_local_copy_sm device_local_copy_tma \
    > "$out/local.$round.json" 2> "$out/local.$round.err"
  rc=$?
  echo "local copies, round $round: rc=$rc"
  [ "$rc" = 0 ] || status=1
done
if [ "$gpus" -ge 2 ]; then
  "$bin" -j -t device_to_device_latency_sm device_to_device_latency_tma \
    > "$out/latency.json" 2> "$out/latency.err"
  rc=$?
  echo "latency: rc=$rc"
  [ "$rc" = 0 ] || status=1
else
  echo "latency: not run (device_to_device_latency_tma needs two GPUs; this machine has $gpus)"
fi

python3 - "$out" "$rounds" "$gpus" <<'EOF'
import json, statistics, sys
out, rounds, gpus = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def entries(path):
    try:
        with open(path) as f:
            return {e["name"]: e for e in json.load(f)["nvbandwidth"]["testcases"]}
    except (OSError, ValueError, KeyError) as err:
        print(f"cannot read {path}: {err}")
        return {}

keys = ["device_local_copy", "device_local_copy_sm", "device_local_copy_tma"]
runs = [entries(f"{out}/local.{r}.json") for r in range(1, rounds + 1)]
print(f"\nPer GPU, median of {rounds} runs (-i 3 each): GB/s (percent of the HBM peak, bytes copied)")
print(f"{'GPU':>4}" + "".join(f"{k:>28}" for k in keys))
peaks = set()
for gpu in range(gpus):
    row = f"{gpu:>4}"
    for k in keys:
        vals, pcts = [], []
        for run in runs:
            e = run.get(k)
            if not e or e.get("status") != "Passed":
                continue
            v = e["values"][0][gpu]
            if v is None:
                continue
            vals.append(v)
            p = e.get("percent_of_peak", [[None]])[0][gpu]
            if p is not None:
                pcts.append(p)
            if e.get("peak_GBps", [[None]])[0][gpu] is not None:
                peaks.add((e["links"][0][gpu], e["peak_GBps"][0][gpu]))
        if not vals:
            status = next((r[k].get("status") for r in runs if k in r), "missing")
            row += f"{status:>28}"
            continue
        pct = f"{statistics.median(pcts):.1f}%" if pcts else "peak unknown"
        row += f"{statistics.median(vals):>18.1f} ({pct:>6})"
    print(row)
for link, peak in sorted(peaks):
    print(f"peak: {link} {peak:.1f} GB/s (bytes copied: memory traffic is twice that)")
for run in runs:
    for k in keys:
        e = run.get(k, {})
        if e.get("status") not in (None, "Passed"):
            print(f"{k}: {e.get('status')}: {e.get('waive_reason') or e.get('error') or ''}")

if gpus >= 2:
    lat = entries(f"{out}/latency.json")
    sm, tma = lat.get("device_to_device_latency_sm"), lat.get("device_to_device_latency_tma")
    print("\nPointer chase between peers, ns (median of -i 3 samples; TMA / SM)")
    for name, e in (("device_to_device_latency_sm", sm), ("device_to_device_latency_tma", tma)):
        if e and e.get("status") != "Passed":
            print(f"{name}: {e.get('status')}: {e.get('waive_reason') or e.get('error') or ''}")
    if sm and tma and sm.get("status") == "Passed" and tma.get("status") == "Passed":
        print(f"{'cell':>12}{'SM':>12}{'TMA':>12}{'TMA/SM':>9}  link")
        for r, row in enumerate(tma["values"]):
            for c, t in enumerate(row):
                s = sm["values"][r][c]
                if t is None or s is None:
                    continue
                print(f"{f'{r} reads {c}':>12}{s:>12.1f}{t:>12.1f}{t / s:>9.2f}  {tma['links'][r][c]}")
EOF
exit $status
