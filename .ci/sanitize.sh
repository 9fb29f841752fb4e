#!/usr/bin/env bash
# CI: the rules cores and the search core built with AddressSanitizer and
# UndefinedBehaviorSanitizer (setup.py's BOARDRULES_SANITIZE=1), and the rules,
# conformance, bad-input and search tests run on that build.  Zero findings is the bar:
# ASan aborts the interpreter at its first finding (abort_on_error=1) and every UBSan
# check is fatal (-fno-sanitize-recover=undefined, halt_on_error=1), so a finding fails
# pytest and this script.
#
# The build goes into a temporary copy of the clone (the tree's tracked files and new,
# not ignored ones), removed afterwards: the clone's own build, the one CI's other steps
# use, is never replaced by sanitized modules (they load only with the sanitizer runtimes
# preloaded).
#
# Leaks: ASan's leak checker is off (detect_leaks=0).  A suppression file cannot tell
# CPython's own allocations from the cores': LeakSanitizer suppresses a report when any
# frame of its stack matches, and every allocation of the cores is made under a frame of
# libpython (the interpreter calling them), so suppressing CPython's would suppress ours
# too.  Memory growth is measured instead by benchmarks/soak.py (peak memory and growth
# over thousands of games).
#
# Tests that set an address-space limit (RLIMIT_AS: ASan reserves terabytes of shadow
# memory, so any limit kills the child) carry the marker needs_address_limit and skip
# here only, by BOARDRULES_UNDER_SANITIZER=1 (tests/conftest.py).
#
# Usage: bash .ci/sanitize.sh [pytest arguments...]   (default: the subset below)
#        BOARDRULES_SANITIZE_KEEP=1 keeps the sanitized copy and says where.
# Took 4.1 minutes on 2 cores (build 51 s, 2,201 tests 194 s; docs/_reliability_ci.rst.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
clone=$(pwd -P)
start=$SECONDS

if ! command -v gcc >/dev/null; then
  echo "sanitize: gcc is needed (the sanitizer runtimes come with it)" >&2
  exit 1
fi
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
for lib in "$asan" "$ubsan"; do
  if [ ! -e "$lib" ]; then
    echo "sanitize: sanitizer runtime $lib not found (install gcc's libasan/libubsan)" >&2
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/boardrules-sanitize.XXXXXX")
if [ "${BOARDRULES_SANITIZE_KEEP:-0}" = 1 ]; then
  # to look into a finding: the sanitized copy stays (run its tests again by hand)
  trap 'echo "sanitize: kept $work/src"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
src="$work/src"
mkdir -p "$src"
# the tree's files as git sees them (tracked, or new and not ignored), nothing built
git ls-files -z --cached --others --exclude-standard \
  | tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$src"
for f in setup.py pyproject.toml src_ext/boardrules/_ext/core.pyx tests/conftest.py; do
  [ -e "$src/$f" ] || { echo "sanitize: copy of the clone lacks $f" >&2; exit 1; }
done

echo "== sanitize: build with ASan+UBSan in $src"
(cd "$src" && BOARDRULES_SANITIZE=1 BOARDRULES_REQUIRE_EXTENSIONS=1 \
   python setup.py -q build_ext --inplace -j 2 >"$work/build.log" 2>&1) || {
  tail -40 "$work/build.log" >&2
  echo "sanitize: the sanitized build failed" >&2
  exit 1
}
echo "sanitize: built in $((SECONDS - start)) s"

# The rules, conformance, bad-input and search tests, the regressions, hidden-information
# worlds and hand-written positions (4.1 minutes in all on 2 cores; the whole suite is run
# on the optimised and the bounds-checked builds).
if [ "$#" -eq 0 ]; then
  set -- \
    tests/test_armadora_rules.py tests/test_rome_and_carthage_rules.py \
    tests/test_armada_rules.py tests/test_albion_rules.py \
    tests/test_tic_tac_toe_rules.py tests/test_connect_four_rules.py tests/test_pig_rules.py \
    tests/test_conformance.py tests/test_bad_input.py tests/test_contract_errors.py \
    tests/test_search.py tests/test_search_regressions.py \
    tests/test_search_known_answers.py tests/test_search_simultaneous.py \
    tests/test_search_reuse.py tests/test_worlds.py \
    tests/test_core_regressions.py tests/test_review_050_regressions.py \
    tests/test_decisions.py tests/test_pickle.py tests/test_fuzz_regressions.py \
    tests/test_armada_hidden.py tests/test_rome_and_carthage_leaks.py \
    tests/test_armadora_positions.py tests/test_rome_and_carthage_positions.py \
    tests/test_armada_positions.py tests/test_albion_positions.py tests/test_toy_positions.py \
    tests/test_observations.py tests/test_observation_armadora.py \
    tests/test_observation_rome_and_carthage.py tests/test_observation_armada.py \
    tests/test_observation_albion.py
fi

reports="$work/reports"
mkdir -p "$reports"
tests_start=$SECONDS
set +e
(
  cd "$src"
  export PYTHONPATH="$src"
  export BOARDRULES_REQUIRE_EXTENSIONS=1
  export BOARDRULES_UNDER_SANITIZER=1
  # ASan's runtime must be the first library loaded; UBSan's comes with it
  export LD_PRELOAD="$asan $ubsan"
  # ASan's reports go to files (also a child interpreter's, whatever the test that started
  # it checks), printed below; UBSan's (log_path is not honoured beside ASan here) go to
  # standard error, which pytest must then not capture at the descriptor level
  # (--capture=sys): a halted interpreter leaves nothing of what it captured.
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_string_checks=1:log_path=$reports/asan"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  # Python's objects stay in pymalloc's arenas (PYTHONMALLOC=malloc, which shows ASan a
  # core reading past a bytes object too, made the tests 3.5 times slower: 5.8 against
  # 1.7 CPU minutes for the conformance and bad-input tests); for a deeper run by hand:
  # PYTHONMALLOC=malloc bash .ci/sanitize.sh
  python -c "import boardrules._ext.core as c, sys; print('sanitize: testing', c.__file__)"
  python -m pytest -q -p no:cacheprovider --capture=sys "$@"
)
rc=$?
set -e
echo "sanitize: tests took $((SECONDS - tests_start)) s; whole step $((SECONDS - start)) s"
found=0
for report in "$reports"/*; do
  [ -e "$report" ] || continue
  found=1
  echo "== sanitize: report $(basename "$report")" >&2
  # the finding and the first frames (the rest is the interpreter calling in)
  sed "s|$src/||g" "$report" | head -n 40 >&2
  grep -h "^SUMMARY" "$report" >&2 || true
done
if [ "$found" -eq 1 ]; then
  echo "sanitize: FAILED: sanitizer findings (above)" >&2
  exit 1
fi
if [ "$rc" -eq 5 ]; then
  echo "sanitize: pytest collected no tests" >&2
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "sanitize: FAILED (exit $rc): a sanitizer finding aborts the run; see above" >&2
  exit "$rc"
fi
echo "sanitize: no finding"
