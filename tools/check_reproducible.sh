#!/bin/bash
# Are the Debian packages reproducible? Builds them twice from the commit HEAD names, in two
# folders, and compares them byte for byte:
#
#   tools/check_reproducible.sh BUILD_DIR [OUT_DIR]
#
#   1. the packages of BUILD_DIR (configured and built from this checkout, whose working tree must
#      be that commit: no change, no untracked file), written by cpack into OUT_DIR/first;
#   2. a clone of the commit in another folder, configured with BUILD_DIR's options (generator,
#      build type, CUDA architectures, MPI build, unity build; tests off: they are not packaged)
#      and built without ccache, its packages in OUT_DIR/second;
#   3. cmp of each pair. When they differ: diffoscope's report in OUT_DIR/diffoscope.txt where
#      diffoscope is installed (apt-get install diffoscope), else the members that differ.
#
# Exit 0 when every package is identical, 1 when one differs or a step fails, 2 for a usage
# error. OUT_DIR defaults to a temporary folder, removed at the end. The second build is the
# time this takes: as long as a build of the programs.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 BUILD_DIR [OUT_DIR]" >&2
  exit 2
fi
BUILD=$(cd "$1" 2>/dev/null && pwd) || {
  echo "$0: no build folder $1" >&2
  exit 2
}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$BUILD/CMakeCache.txt" ] || [ ! -f "$BUILD/CPackConfig.cmake" ]; then
  echo "$0: $BUILD is not a configured build folder of nvbandwidth" >&2
  exit 2
fi
if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=normal)" ]; then
  echo "$0: the working tree of $ROOT is not the commit HEAD names (commit or stash first):" >&2
  git -C "$ROOT" status --short >&2
  exit 2
fi
if [ $# -eq 2 ]; then
  OUT=$2
  mkdir -p "$OUT" || exit 2
  OUT=$(cd "$OUT" && pwd)
  KEEP=1
else
  OUT=$(mktemp -d /tmp/nvbw_reproducible.XXXXXX) || exit 2
  KEEP=0
fi
WORK=$(mktemp -d /tmp/nvbw_elsewhere.XXXXXX) || exit 2
cleanup() {
  rm -rf "$WORK"
  [ "$KEEP" = 1 ] || rm -rf "$OUT"
}
trap cleanup EXIT

# The value of a cache entry of BUILD_DIR ("" when it has none).
cached() {
  sed -n "s/^$1:[A-Z]*=//p" "$BUILD/CMakeCache.txt" | head -n 1
}

COMMIT=$(git -C "$ROOT" rev-parse HEAD)
echo "check_reproducible: commit $COMMIT"

# 1. The first packages.
START=$(date +%s)
cmake --build "$BUILD" -j "$(nproc)" >"$OUT/first_build.log" 2>&1 || {
  echo "check_reproducible: the build of $BUILD failed ($OUT/first_build.log)" >&2
  exit 1
}
rm -rf "$OUT/first" "$OUT/second"
(cd "$BUILD" && cpack -B "$OUT/first") >"$OUT/first_cpack.log" 2>&1 || {
  echo "check_reproducible: cpack failed in $BUILD ($OUT/first_cpack.log)" >&2
  exit 1
}
echo "check_reproducible: first packages in $(($(date +%s) - START)) s"

# 2. The same commit in another folder, another build folder, no compiler cache.
START=$(date +%s)
git clone -q --no-local --no-hardlinks "$ROOT" "$WORK/checkout" &&
  git -C "$WORK/checkout" checkout -q --detach "$COMMIT" || {
  echo "check_reproducible: cannot clone $ROOT" >&2
  exit 1
}
options=(-G "$(cached CMAKE_GENERATOR)" -DCMAKE_BUILD_TYPE="$(cached CMAKE_BUILD_TYPE)"
  -DNVBW_BUILD_TESTS=OFF -DNVBW_MULTINODE="$(cached NVBW_MULTINODE)"
  -DNVBW_UNITY="$(cached NVBW_UNITY)" -DNVBW_SANITIZE="$(cached NVBW_SANITIZE)"
  -DCMAKE_CXX_COMPILER="$(cached CMAKE_CXX_COMPILER)"
  -DCMAKE_CUDA_COMPILER="$(cached CMAKE_CUDA_COMPILER)"
  -DCMAKE_CUDA_ARCHITECTURES="$(cached CMAKE_CUDA_ARCHITECTURES)"
  -DNVBW_PACKAGE_MAINTAINER="$(cached NVBW_PACKAGE_MAINTAINER)")
export CCACHE_DISABLE=1
cmake -S "$WORK/checkout" -B "$WORK/build-elsewhere" "${options[@]}" >"$OUT/second_build.log" 2>&1 &&
  cmake --build "$WORK/build-elsewhere" -j "$(nproc)" >>"$OUT/second_build.log" 2>&1 &&
  (cd "$WORK/build-elsewhere" && cpack -B "$OUT/second") >"$OUT/second_cpack.log" 2>&1 || {
  echo "check_reproducible: the second build failed ($OUT/second_build.log, second_cpack.log)" >&2
  KEEP=1
  exit 1
}
echo "check_reproducible: second packages (in $WORK) in $(($(date +%s) - START)) s"

# 3. Byte for byte.
status=0
count=0
for first in "$OUT"/first/*.deb; do
  name=$(basename "$first")
  second="$OUT/second/$name"
  count=$((count + 1))
  if [ ! -f "$second" ]; then
    echo "DIFFERENT: $name: the second build made no such package"
    status=1
  elif cmp -s "$first" "$second"; then
    echo "IDENTICAL: $name ($(stat -c %s "$first") bytes, sha256 $(sha256sum "$first" | cut -c1-16)...)"
  else
    echo "DIFFERENT: $name"
    status=1
    if command -v diffoscope >/dev/null 2>&1; then
      diffoscope --text "$OUT/diffoscope_$name.txt" "$first" "$second" >/dev/null 2>&1
      echo "  diffoscope: $OUT/diffoscope_$name.txt"
    else
      mkdir -p "$OUT/unpacked/first/$name" "$OUT/unpacked/second/$name"
      dpkg-deb -R "$first" "$OUT/unpacked/first/$name"
      dpkg-deb -R "$second" "$OUT/unpacked/second/$name"
      diff -rq "$OUT/unpacked/first/$name" "$OUT/unpacked/second/$name" | sed 's/^/  /'
      echo "  (the archives' metadata may differ too; apt-get install diffoscope says more)"
    fi
  fi
done
if [ "$count" -eq 0 ]; then
  echo "check_reproducible: cpack made no package" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then KEEP=1; fi
[ "$KEEP" = 1 ] && echo "check_reproducible: packages and logs in $OUT"
exit "$status"
