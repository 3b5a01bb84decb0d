#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run all host tests of the 64-bit (build/) and the 32-bit (build32/) build.
# The README gives the same command; .ci/run calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."

ctest --test-dir build --output-on-failure && ctest --test-dir build32 --output-on-failure
