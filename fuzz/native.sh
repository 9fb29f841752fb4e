#!/usr/bin/env bash
# The fuzz targets with the compiled cores instrumented too (coverage of the C code guides
# the mutations, not only the library's Python).  Needs clang and its libFuzzer runtime
# (Debian: apt-get install clang-14, which brings libclang-rt-14-dev); gcc cannot build
# with -fsanitize=fuzzer-no-link.  Builds a copy of the tree's tracked files in a folder of
# its own (the clone's build is left alone), links libFuzzer into a shared library that
# each target preloads (the atheris wheel's own libFuzzer cannot serve a native module),
# and runs fuzz/run.py there with the arguments given:
#
#   bash fuzz/native.sh --seconds-per-target 600
#
# Not run by CI (the instrumented build alone takes minutes); docs/fuzzing.rst.
set -euo pipefail
clone=$(cd "$(dirname "$0")/.." && pwd -P)
clang=${CLANG:-clang-14}
command -v "$clang" >/dev/null || { echo "native.sh: $clang not found (CLANG=...)" >&2; exit 1; }
resource=$("$clang" -print-resource-dir)
archive=$(ls "$resource"/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null || true)
[ -n "$archive" ] || { echo "native.sh: no libclang_rt.fuzzer_no_main in $resource" >&2; exit 1; }
work=${BOARDRULES_NATIVE_DIR:-${TMPDIR:-/tmp}/boardrules-fuzz-native}
mkdir -p "$work/tree"
# the tracked files as they are now (changes not yet committed included)
(cd "$clone" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$work/tree"
"$clang" -shared -fPIC -o "$work/libfuzzer.so" -Wl,--whole-archive "$archive" \
  -Wl,--no-whole-archive -lstdc++ -lpthread -lm
(cd "$work/tree" && CC="$clang" CFLAGS="-fsanitize=fuzzer-no-link" \
  LDSHARED="$clang -shared" python setup.py -q build_ext --inplace -j 2 >"$work/build.log" 2>&1) \
  || { echo "native.sh: the instrumented build failed ($work/build.log)" >&2; exit 1; }
cd "$work/tree"
PYTHONPATH="$work/tree" exec python fuzz/run.py --preload "$work/libfuzzer.so" "$@"
