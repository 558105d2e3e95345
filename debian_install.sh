#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages nvbandwidth needs, then configures and builds it out of
# source into build/ (or $BUILD_DIR). With --multinode it also installs Open MPI, and the same
# build also makes the MPI program build/multinode/nvbandwidth (nothing is compiled twice). Other
# arguments go to cmake:
#   ./debian_install.sh --multinode -DCMAKE_CUDA_ARCHITECTURES=90
# Works with CMake 3.20 and later, 4.x included. Needs root (or sudo) for apt-get.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build_dir="${BUILD_DIR:-$here/build}"
multinode=0
cmake_args=()
for arg in "$@"; do
  if [ "$arg" = "--multinode" ]; then multinode=1; else cmake_args+=("$arg"); fi
done

run_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# python3-prometheus-client and prometheus (for promtool): the tests parse every metrics file;
# clang-format-14: the pinned format check; ninja-build: Ninja keeps both cores busy across the
# layers' libraries, where make finishes one library before it starts the next.
packages=(build-essential cmake git ninja-build libboost-program-options-dev nlohmann-json3-dev
  libgtest-dev python3-jsonschema python3-prometheus-client prometheus clang-format-14)
if [ "$multinode" = 1 ]; then packages+=(libopenmpi-dev openmpi-bin); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "debian_install.sh: installing ${missing[*]}"
  run_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive run_root apt-get install -y -qq "${missing[@]}"
fi

# The CUDA toolkit (nvcc, cuda.h) usually lives in /usr/local/cuda; Debian's own package is the
# fallback.
if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
  else
    echo "debian_install.sh: nvcc not found; trying Debian's nvidia-cuda-toolkit"
    DEBIAN_FRONTEND=noninteractive run_root apt-get install -y -qq nvidia-cuda-toolkit || {
      echo "debian_install.sh: no CUDA toolkit: install one (nvcc) and re-run" >&2
      exit 1
    }
  fi
fi

# Compare major.minor numerically (upstream concatenated the digits and rejected CMake 4).
cmake_version="$(cmake --version | sed -n '1s/[^0-9]*\([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')"
cmake_major="${cmake_version%%.*}"
cmake_minor="${cmake_version#*.}"
if [ "$cmake_major" -lt 3 ] || { [ "$cmake_major" -eq 3 ] && [ "$cmake_minor" -lt 20 ]; }; then
  echo "debian_install.sh: CMake $cmake_version is too old; 3.20 or later is needed" >&2
  exit 1
fi

if [ "$multinode" = 1 ]; then cmake_args+=(-DNVBW_MULTINODE=ON); fi
# A new build directory uses Ninja unless a generator is given; one configured before keeps its
# generator (CMake refuses to change it).
generator_given=0
for arg in ${cmake_args[@]+"${cmake_args[@]}"}; do
  case "$arg" in -G*) generator_given=1 ;; esac
done
if [ "$generator_given" = 0 ] && [ ! -f "$build_dir/CMakeCache.txt" ] &&
  command -v ninja >/dev/null 2>&1; then
  cmake_args=(-G Ninja ${cmake_args[@]+"${cmake_args[@]}"})
fi
cmake -S "$here" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release ${cmake_args[@]+"${cmake_args[@]}"}
cmake --build "$build_dir" -j "$(nproc)"
echo "debian_install.sh: built $build_dir/nvbandwidth"
if [ "$multinode" = 1 ]; then
  echo "debian_install.sh: built $build_dir/multinode/nvbandwidth (multinode: run it with mpirun or srun)"
fi
