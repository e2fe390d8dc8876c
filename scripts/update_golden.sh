#!/usr/bin/env bash
# Regenerates tests/golden/*.{ast,ir,cpp,single.cpp,cl,single.cl} from the current compiler. Review the diff
# (git diff tests/golden) before committing: that review is the golden test.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
cmake --build "$BUILD" --target smelt_tests
SMELT_UPDATE_GOLDEN=1 "$BUILD/tests/smelt_tests" --gtest_filter='All/Golden.MatchesStoredText/*'
git status --short tests/golden
