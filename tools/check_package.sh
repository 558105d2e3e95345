#!/bin/bash
# Builds the Debian packages of a build folder and checks them as a machine that installs them
# would (root; it installs and removes them):
#
#   tools/check_package.sh BUILD_DIR OUT_DIR
#
#   1. cpack writes the packages into OUT_DIR;
#   2. lintian: no error and no warning (docs/installing.md says which informational tags remain,
#      why);
#   3. apt-get install ./<package>.deb (the MPI package too, when the build has it);
#   4. from the installed files: nvbandwidth --version names the release, --help and -l work,
#      man -w finds nvbandwidth(1) (and nvbandwidth-mpi(1)), the completion and the schema are
#      where docs/installing.md says;
#   5. apt-get purge: the packages and every file they installed are gone.
#
# Exit 0 when every step passed, 1 otherwise, 2 for a usage error. A package of the same name
# installed before is removed at the end.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
BUILD=$1
OUT=$2
if [ ! -f "$BUILD/CPackConfig.cmake" ]; then
  echo "$0: $BUILD is not a configured build folder of nvbandwidth" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "$0: installing the packages needs root" >&2
  exit 2
fi
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
export DEBIAN_FRONTEND=noninteractive
failed=0
check() {
  local what=$1
  shift
  if "$@" >"$OUT/step.log" 2>&1; then
    echo "ok: $what"
  else
    echo "FAILED: $what"
    sed 's/^/  /' "$OUT/step.log" | head -20
    failed=1
  fi
}

# 1. The packages.
rm -f "$OUT"/*.deb
(cd "$BUILD" && cpack -B "$OUT") >"$OUT/cpack.log" 2>&1 || {
  echo "FAILED: cpack ($OUT/cpack.log)"
  tail -20 "$OUT/cpack.log"
  exit 1
}
mapfile -t packages < <(ls "$OUT"/*.deb)
release=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$BUILD/CPackConfig.cmake")
echo "packages: ${packages[*]##*/} (release $release)"

# 2. lintian.
if command -v lintian >/dev/null 2>&1; then
  check "lintian: no error, no warning" lintian --fail-on error,warning "${packages[@]}"
else
  echo "FAILED: lintian is not installed (apt-get install lintian)"
  failed=1
fi

# 3. Install.
check "apt-get install ${packages[*]##*/}" apt-get install -y -qq "${packages[@]}"

# 4. The installed files.
has_line() { "${@:2}" | grep -qxF -- "$1"; }
check "nvbandwidth --version names release $release" has_line "Release: $release" /usr/bin/nvbandwidth --version
check "nvbandwidth --help" has_line "  -b [ --bufferSize ] arg (=512) Memcpy buffer size in MiB" /usr/bin/nvbandwidth --help
check "nvbandwidth -l" has_line "0, host_to_device_memcpy_ce:" /usr/bin/nvbandwidth -l
check "man -w nvbandwidth" has_line /usr/share/man/man1/nvbandwidth.1.gz man -w nvbandwidth
check "the man page names the installed schema" \
  bash -c 'MANWIDTH=80 man nvbandwidth | col -b | grep -q " /usr/share/nvbandwidth/nvbandwidth.schema.json"'
check "the schema, the expectations, the completion" test -s /usr/share/nvbandwidth/nvbandwidth.schema.json \
  -a -s /usr/share/nvbandwidth/expectations/h100.txt -a -s /usr/share/bash-completion/completions/nvbandwidth
check "the README and the reference pages it links to" test -s /usr/share/doc/nvbandwidth-fleet/README.md \
  -a -s /usr/share/doc/nvbandwidth-fleet/docs/options.md -a -s /usr/share/doc/nvbandwidth-fleet/docs/verdicts.md
if [ -x /usr/bin/nvbandwidth-mpi ]; then
  check "nvbandwidth-mpi --version names release $release" has_line "Release: $release" /usr/bin/nvbandwidth-mpi --version
  check "man -w nvbandwidth-mpi" has_line /usr/share/man/man1/nvbandwidth-mpi.1.gz man -w nvbandwidth-mpi
fi

# 5. Remove.
names=()
for p in "${packages[@]}"; do names+=("$(dpkg-deb -f "$p" Package)"); done
files=$(for n in "${names[@]}"; do dpkg -L "$n" 2>/dev/null; done | sort -u)
check "apt-get purge ${names[*]}" apt-get purge -y -qq "${names[@]}"
left=()
for n in "${names[@]}"; do
  dpkg-query -W -f='${Status}' "$n" 2>/dev/null | grep -q "installed" && left+=("package $n")
done
while read -r f; do
  # The folders shared with other packages (/usr, /usr/share/man/man1, ...) stay.
  [ -n "$f" ] && [ ! -d "$f" ] && [ -e "$f" ] && left+=("$f")
done <<<"$files"
for d in /usr/share/nvbandwidth /usr/share/doc/nvbandwidth-fleet /usr/share/doc/nvbandwidth-fleet-mpi; do
  [ -e "$d" ] && left+=("$d")
done
if [ ${#left[@]} -eq 0 ]; then
  echo "ok: removed cleanly"
else
  echo "FAILED: left after purge: ${left[*]}"
  failed=1
fi
rm -f "$OUT/step.log"
exit "$failed"
