#!/bin/sh
# A stand-in linter: reports every tab in src/ the way compilers do (file:line:col: error: message [rule]),
# so discern's diagnostics can point at the exact place.
find src -name '*.js' | sort | xargs awk -v tab="$(printf '\t')" '
  index($0, tab) { printf "%s:%d:%d: error: tab character; indent with spaces [no-tabs]\n", FILENAME, FNR, index($0, tab); found = 1 }
  END { exit found }'
