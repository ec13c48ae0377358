#!/usr/bin/env bash
# The installed package is the tested product (issue 24): build the wheel and the sdist
# with `python -m build`, install each into a fresh virtual environment outside the
# checkout (an honest `pip install`, dependencies and all), and from a temporary
# directory - where src/ cannot be imported - run scripts/smoke_installed.py with the
# venv's own interpreter: referee --version, odds 2d6, mongrel validate vooruk,
# serve --demo (/, /healthz, /openapi.json, a table page, its scripts and stylesheets,
# SIGTERM, every demo table's analysis page), python -m referee, py.typed and the
# licence; for the wheel (analysis and postgres extras) also analyze compare arm and a
# PostgreSQL migration through the installed Alembic scripts on a throwaway server; for
# the sdist (no extras) the messages that name the missing extra.
#
#   bash scripts/smoke-wheel.sh            # uses python3 (PY=... to choose another)
#   KEEP=1 bash scripts/smoke-wheel.sh     # keep the temporary directory to look at
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
PY=${PY:-python3}
BUILD_PY=${BUILD_PY:-$PY}   # an interpreter with `build` (make smoke: the dev venv's)
started=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/referee-wheel-XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
say() { echo "smoke-wheel: $* ($(( $(date +%s) - started )) s)"; }

say "building the wheel and the sdist in $tmp/dist"
"$BUILD_PY" -m build --outdir "$tmp/dist" "$checkout" >"$tmp/build.log" 2>&1 || {
  cat "$tmp/build.log"; exit 1; }
wheel=$(ls "$tmp"/dist/referee-*.whl)
sdist=$(ls "$tmp"/dist/referee-*.tar.gz)
say "built $(basename "$wheel") and $(basename "$sdist")"

cp "$checkout/scripts/smoke_installed.py" "$tmp/"
cp "$checkout/tests/support/postgres.py" "$tmp/"  # the tests' PostgreSQL launcher (not shipped)
install() {  # install VENV SPEC: a fresh venv, pip's output kept in a log unless it fails
  "$PY" -m venv "$1"
  (cd "$tmp" && env -u PYTHONPATH "$1/bin/python" -m pip install "$2") >"$1.log" 2>&1 || {
    cat "$1.log"; echo "smoke-wheel: pip install $2 failed" >&2; exit 1; }
}
run() {  # run VENV [--analysis] [--postgres]: the checks, from a directory outside the checkout
  (cd "$tmp" && env -u PYTHONPATH "$1/bin/python" -I "$tmp/smoke_installed.py" "$@")
}

say "installing the wheel with the analysis and postgres extras into a fresh venv"
install "$tmp/venv-wheel" "$wheel[analysis,postgres]"
run "$tmp/venv-wheel" --analysis --postgres
say "the wheel passed"

say "installing the sdist (built into a wheel by pip), without extras, into a fresh venv"
install "$tmp/venv-sdist" "$sdist"
run "$tmp/venv-sdist"
say "the sdist passed"

# the wheel's file list against the source tree (tests/ship/test_wheel_files.py), on the
# very wheel CI installed
REFEREE_WHEEL="$wheel" env -u PYTHONPATH "${TEST_PY:-$BUILD_PY}" -m pytest -q -p no:cacheprovider \
  "$checkout/tests/ship/test_wheel_files.py"
say "done"
