#!/usr/bin/env bash
# What the tests need beyond Python: PostgreSQL's server programs (the store suite runs on a
# throwaway server) and Debian's Chromium (the browser tests). Installed from Debian's
# packages when missing; a machine where that is impossible gets a warning, and those tests
# skip - unless REFEREE_REQUIRE_POSTGRES=1 / REFEREE_REQUIRE_BROWSER=1 (CI), where they fail.
set -u
need=()
if ! command -v pg_ctl >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  need+=(postgresql)
fi
[ -x /usr/bin/chromium ] || need+=(chromium)
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing from Debian's packages: ${need[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "warning: not root and no sudo: cannot install ${need[*]}; those tests will skip" >&2
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
  echo "warning: could not install ${need[*]}; those tests will skip" >&2
fi
exit 0
