#!/bin/sh
# A stand-in linter: fails when a source file contains a tab.
! grep -rn "$(printf '\t')" src/
