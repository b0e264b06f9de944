#!/bin/sh
# Run every study's check of its own figures (studies/*/check.py): the tables of a
# write-up agree with their counts, the configs of a study still measure what the
# write-up says. Not part of the test suite (pytest's testpaths is tests/).
#
#   sh studies/run_checks.sh
set -e
cd "$(dirname "$0")/.."
status=0
for check in studies/*/check.py; do
    echo "== $check"
    python "$check" || status=1
done
exit $status
