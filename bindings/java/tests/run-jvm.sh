#!/bin/sh
# SPDX-License-Identifier: MIT
# run-jvm.sh LOG JAVA-ARGS...: runs `java -Xcheck:jni JAVA-ARGS...` with its
# output in LOG and shown, and fails when the JVM failed or -Xcheck:jni
# reported JNI misuse (it only warns: "WARNING in native method").
set -u
log=$1
shift
mkdir -p "$(dirname "$log")"
java -Xcheck:jni "$@" > "$log" 2>&1
rc=$?
cat "$log"
if grep -q 'WARNING in native method' "$log"; then
    echo "-Xcheck:jni reported a warning"
    exit 1
fi
exit $rc
