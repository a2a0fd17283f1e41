#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the dependency rule of docs/ARCHITECTURE.md, in two parts:
#   1. each layer of Sources/IdleLock imports only the C modules its row
#      allows (Swift has no per-folder visibility; this keeps the folders
#      honest about what they see);
#   2. only the platform layer calls the system for its services (the
#      clock, threads, the watcher's alarm, the boot id, the durable sync,
#      random bytes not from libsodium): no file of Sources/ outside
#      Sources/IdleLock/Platform/ and the C files that belong to it (below)
#      names one of those calls in its code (comments do not count; string
#      literals count only for the system's file paths).
#
#   sh scripts/check-layers.sh [ROOT]   prints "check-layers: N passed, N failed"
#   sh scripts/check-layers.sh --self-test
#                                       proves each part fails on a planted
#                                       violation, in a copy of the tree
set -u
here=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    passed=0
    failed=0
    # plant FILE LINE WANT: a copy of Sources/ with LINE appended to FILE
    # must fail with a line naming WANT.
    plant() {
        rm -rf "$tmp/tree"
        mkdir -p "$tmp/tree"
        cp -R "$here/Sources" "$tmp/tree/Sources"
        printf '%s\n' "$2" >> "$tmp/tree/$1"
        if sh "$here/scripts/check-layers.sh" "$tmp/tree" > "$tmp/out" 2>&1; then
            echo "check-layers self-test: a planted \"$2\" in $1 passed"
            failed=$((failed + 1))
        elif grep -q "$3" "$tmp/out"; then
            passed=$((passed + 1))
        else
            echo "check-layers self-test: a planted \"$2\" in $1 failed without naming $3:"
            cat "$tmp/out"
            failed=$((failed + 1))
        fi
    }
    plant Sources/IdleLock/Rules/LockRules.swift "import CSystem" "imports CSystem"
    plant Sources/IdleLock/Store/StoreFiles.swift "func f(_ fd: Int32) { _ = fsync(fd) }" "fsync("
    plant Sources/IdleLock/Handle/IdleLockHandle.swift "let p = pthread_self()" "pthread_self"
    plant Sources/IdleLock/Handle/DeadlineWatcher.swift "let t = timerfd_create(CLOCK_BOOTTIME, 0)" "timerfd_"
    plant Sources/IdleLock/Store/StoreFiles.swift "let path = \"/proc/self/stat\"" "/proc/"
    plant Sources/CIdleLockSupport/last_error.c "static void f(void) { (void)eventfd(0, 0); }" "eventfd"
    # Not violations: a comment, and a word in an error message.
    rm -rf "$tmp/tree"
    mkdir -p "$tmp/tree"
    cp -R "$here/Sources" "$tmp/tree/Sources"
    printf '%s\n' "// fsync(fd) and CLOCK_BOOTTIME in a comment" \
        "let m: StaticString = \"fsync(2) failed; pthread_create too\"" >> "$tmp/tree/Sources/IdleLock/Store/StoreFiles.swift"
    if sh "$here/scripts/check-layers.sh" "$tmp/tree" > "$tmp/out" 2>&1; then
        passed=$((passed + 1))
    else
        echo "check-layers self-test: a comment or an error message counted as a call:"
        cat "$tmp/out"
        failed=$((failed + 1))
    fi
    echo "check-layers self-test: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

cd "${1:-$here}" || exit 2

allowed() {
    case "$1" in
        Common|Rules) echo "" ;;
        Platform|Crypto|Store) echo "CSystem" ;;
        Handle) echo "CSystem CIdleLockSupport" ;;
        ABI) echo "CIdleLock CSystem CIdleLockSupport" ;;
        *) echo "?" ;;
    esac
}

# The platform layer's calls (part 2), as extended regular expressions, in
# code with comments and string literals removed ...
PLATFORM_CALLS='timerfd_|\beventfd|CLOCK_BOOTTIME|CLOCK_MONOTONIC|\bclock_gettime|\bmach_[a-z_]*time|\bkqueue\b|\bkevent\b|EVFILT_|\bsysctl(byname)?\b|\bpthread_(create|join|detach|self|equal)\b|\bfsync *\(|\bfdatasync\b|F_FULLFSYNC|\barc4random|\bgetrandom\b|\bgetentropy\b'
# ... and the system's files, in code with comments removed.
PLATFORM_PATHS='"/proc/|"/sys/|"/dev/u?random'
# The C files of the platform layer: the libc floors, which define the C
# library's entry points for the library's own references (glibc's symbol
# versions, arc4random_buf from libsodium), and the system headers the
# Swift code imports.
is_platform_file() {
    case "$1" in
        Sources/IdleLock/Platform/*) return 0 ;;
        Sources/CSystem/shim.h) return 0 ;;
        Sources/CIdleLockSupport/glibc_floor.c|Sources/CIdleLockSupport/glibc_floor_sodium.c) return 0 ;;
        Sources/CIdleLockSupport/arc4random_sodium.c) return 0 ;;
    esac
    return 1
}

# code FILE [keep-strings]: FILE without comments (// and /* */), and
# without string literals unless asked to keep them.
code() {
    awk -v keep="${2:-}" '
    {
        line = $0; out = ""
        while (length(line) > 0) {
            if (inblock) {
                i = index(line, "*/")
                if (i == 0) { line = ""; break }
                line = substr(line, i + 2); inblock = 0; continue
            }
            c = substr(line, 1, 1); two = substr(line, 1, 2)
            if (two == "//") break
            if (two == "/*") { inblock = 1; line = substr(line, 3); continue }
            if (c == "\"") {
                # a string literal, with its escapes
                j = 2; s = "\""
                while (j <= length(line)) {
                    d = substr(line, j, 1)
                    if (d == "\\") { s = s substr(line, j, 2); j += 2; continue }
                    s = s d; j++
                    if (d == "\"") break
                }
                out = out (keep ? s : "\"\""); line = substr(line, j); continue
            }
            out = out c; line = substr(line, 2)
        }
        print out
    }' "$1"
}

passed=0
failed=0
for file in Sources/IdleLock/*/*.swift Sources/IdleLock/*.swift; do
    [ -f "$file" ] || continue
    layer=$(basename "$(dirname "$file")")
    ok=$(allowed "$layer")
    if [ "$ok" = "?" ]; then
        echo "check-layers: $file is in no layer folder (docs/ARCHITECTURE.md lists them)"
        failed=$((failed + 1))
        continue
    fi
    bad=""
    for module in $(sed -n 's/^[[:space:]]*\(@[A-Za-z_]*[[:space:]]\{1,\}\)*import[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\2/p' "$file"); do
        case " $ok " in
            *" $module "*) ;;
            *) bad="$bad $module" ;;
        esac
    done
    if [ -n "$bad" ]; then
        echo "check-layers: $file ($layer/) imports$bad; $layer/ may import: ${ok:-nothing} (docs/ARCHITECTURE.md)"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done

for file in $(find Sources -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) | sort); do
    is_platform_file "$file" && continue
    calls=$( { code "$file" | grep -nE "$PLATFORM_CALLS"; code "$file" keep | grep -nE "$PLATFORM_PATHS"; } | sort -n -u)
    if [ -n "$calls" ]; then
        echo "check-layers: $file calls the system for a platform service; only Sources/IdleLock/Platform/ may (docs/ARCHITECTURE.md):"
        echo "$calls" | sed 's/^/    line /'
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "check-layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
