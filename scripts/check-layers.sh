#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the dependency rule of docs/ARCHITECTURE.md, in three parts:
#   1. each layer of Sources/IdleLock imports only the C modules its row
#      allows (Swift has no per-folder visibility; this keeps the folders
#      honest about what they see);
#   2. only the platform layer asks the system for a service, and within it
#      only the table of system calls (Sources/IdleLock/Platform/
#      SystemCalls.swift, and its test hook SystemCallFaults.swift) calls
#      the C library: no other file of Sources/ names one of the functions
#      listed below (LIBC_CALLS) in its code, nor the table itself
#      (SystemCalls.) outside Platform/, nor a platform constant or a
#      system file path outside Platform/ (comments do not count; string
#      literals count only for the system's file paths). The C files that
#      belong to the platform layer (below) are exempt;
#   3. with --library LIB: every C library function LIB imports is listed
#      here, as a call of the table (LIBC_CALLS) or of the code the Swift
#      code does not write (RUNTIME_CALLS), so that the list is the library's
#      whole use of the C library. And every listed call is an entry of the
#      table.
#
#   sh scripts/check-layers.sh [ROOT]   prints "check-layers: N passed, N failed"
#   sh scripts/check-layers.sh --library LIB [ROOT]
#                                       part 3 too, on the built library
#   sh scripts/check-layers.sh --self-test
#                                       proves each part fails on a planted
#                                       violation, in a copy of the tree (and
#                                       part 3 on a library built to import
#                                       a call the list does not name)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)

# Every function of the C library that the library's Swift code calls: the
# entries of the table (Sources/IdleLock/Platform/SystemCalls.swift; fcntl
# is its fcntl_full_fsync, F_FULLFSYNC on Darwin), and the thread-local key
# of its test hook (SystemCallFaults.swift, debug builds only).
LIBC_CALLS='open openat close read write pread pwrite fstat fchmod flock renameat unlinkat fsync fcntl
fdopendir readdir closedir nanosleep clock_gettime strnlen
pthread_create pthread_join pthread_detach pthread_self pthread_equal
pthread_mutex_init pthread_mutex_destroy pthread_mutex_lock pthread_mutex_unlock
pthread_cond_init pthread_cond_destroy pthread_cond_wait pthread_cond_broadcast
pthread_key_create pthread_getspecific pthread_setspecific
timerfd_create timerfd_settime eventfd poll
kqueue kevent mach_continuous_time mach_timebase_info sysctlbyname'
# The debug-only calls of the test hook, which the shipped library has not.
# They are also Sources/CIdleLockSupport/last_error.c's on Android, where
# the per-thread message lives under a pthread key (C the Swift cannot
# express, as the message buffer itself): that file may call them.
DEBUG_ONLY_CALLS='pthread_key_create pthread_getspecific pthread_setspecific'
# What the built library imports from the C library besides the table's
# calls, and why (part 3):
#   free posix_memalign memcpy memmove memset memcmp  the Embedded Swift
#       runtime and stdlib (allocation, copies, comparisons of arrays)
#   __stack_chk_fail  the C compiler's stack protector (support files)
#   snprintf strlen __tls_get_addr  last_error.c (the message, its
#       thread-local)
#   __errno_location  errno, read and set by shim.h's ilk_errno/ilk_set_errno
#   __fxstat  fstat, as glibc_floor.c calls it for glibc before 2.33
#   __cxa_finalize _ITM_deregisterTMCloneTable _ITM_registerTMCloneTable
#   __gmon_start__  the C run time's start and end of a shared object
RUNTIME_CALLS='free posix_memalign memcpy memmove memset memcmp __stack_chk_fail snprintf strlen __tls_get_addr
__errno_location __fxstat __cxa_finalize _ITM_deregisterTMCloneTable _ITM_registerTMCloneTable __gmon_start__'
# C library functions no Swift file calls at all: the Embedded runtime's
# (RUNTIME_CALLS); the Swift code copies and fills with the standard
# library.
RUNTIME_ONLY_CALLS='memset memcpy memmove memcmp strlen malloc calloc realloc free posix_memalign'
# shim.h's wrappers of C library calls (variadic functions, pthread_t):
# the table's to call, as the calls themselves.
SHIM_CALLS='ilk_open ilk_openat ilk_full_fsync ilk_thread_create ilk_thread_join ilk_thread_detach
ilk_thread_self ilk_thread_equal'
# shim.h's accessors (errno, S_ISREG, d_name): the platform layer's.
SHIM_ACCESSORS='ilk_errno ilk_set_errno ilk_is_regular_file ilk_dirent_name'

# alternation NAMES: "a|b|c"
alternation() {
    echo $1 | tr ' ' '|'
}
LIBC_CALL_RE="(^|[^A-Za-z0-9_.])($(alternation "$LIBC_CALLS $SHIM_CALLS"))[[:space:]]*\(|CSystem\."
# ... last_error.c's: the same less the thread-key calls.
LAST_ERROR_CALL_RE="(^|[^A-Za-z0-9_.])($(alternation "$(for c in $LIBC_CALLS; do case " $DEBUG_ONLY_CALLS " in *" $c "*) ;; *) echo $c ;; esac; done)"))[[:space:]]*\("
RUNTIME_ONLY_RE="(^|[^A-Za-z0-9_.])($(alternation "$RUNTIME_ONLY_CALLS"))[[:space:]]*\("
# Outside Platform/, also: the table, shim.h's accessors, the platform
# constants, random bytes not from libsodium ...
PLATFORM_ONLY_RE="SystemCalls\.|\b($(alternation "$SHIM_ACCESSORS"))\b|timerfd_|\beventfd|CLOCK_BOOTTIME|CLOCK_MONOTONIC|\bmach_[a-z_]*time|\bkqueue\b|\bkevent\b|EVFILT_|\bsysctl(byname)?\b|F_FULLFSYNC|\bO_(RDONLY|WRONLY|RDWR|CREAT|EXCL|NOFOLLOW|DIRECTORY|CLOEXEC|NONBLOCK)\b|\bLOCK_(EX|NB|UN)\b|\barc4random|\bgetrandom\b|\bgetentropy\b"
# ... and the system's files, in code with comments removed.
PLATFORM_PATHS='"/proc/|"/sys/|"/dev/u?random'

if [ "${1:-}" = --self-test ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # Each case runs in the background in a folder of its own ($tmp/N),
    # and leaves "ok" or what went wrong in $tmp/N/result; the tally waits
    # for them all.
    n=0
    # new_case: the next case's folder, with a copy of Sources/ in tree/.
    new_case() {
        n=$((n + 1))
        mkdir -p "$tmp/$n/tree"
        cp -R "$here/Sources" "$tmp/$n/tree/Sources"
    }
    # expect_failure DIR WHAT WANT ARG...: the check with ARG... must fail
    # with a line naming WANT.
    expect_failure() {
        dir=$1
        what=$2
        want=$3
        shift 3
        if sh "$here/scripts/check-layers.sh" "$@" > "$dir/out" 2>&1; then
            echo "check-layers self-test: $what passed" > "$dir/result"
        elif grep -q -- "$want" "$dir/out"; then
            echo ok > "$dir/result"
        else
            { echo "check-layers self-test: $what failed without naming $want:"; cat "$dir/out"; } > "$dir/result"
        fi
    }
    # expect_success DIR WHAT ARG...: the check with ARG... must pass.
    expect_success() {
        dir=$1
        what=$2
        shift 2
        if sh "$here/scripts/check-layers.sh" "$@" > "$dir/out" 2>&1; then
            echo ok > "$dir/result"
        else
            { echo "check-layers self-test: $what failed:"; cat "$dir/out"; } > "$dir/result"
        fi
    }
    # plant FILE LINE WANT: a copy of Sources/ with LINE appended to FILE
    # must fail with a line naming WANT.
    plant() {
        new_case
        printf '%s\n' "$2" >> "$tmp/$n/tree/$1"
        expect_failure "$tmp/$n" "a planted \"$2\" in $1" "$3" "$tmp/$n/tree" &
    }
    plant Sources/IdleLock/Rules/LockRules.swift "import CSystem" "imports CSystem"
    plant Sources/IdleLock/Store/StoreFiles.swift "func f(_ fd: Int32) { _ = fsync(fd) }" "fsync("
    plant Sources/IdleLock/Store/StoreFiles.swift "func f(_ fd: Int32) -> Int { pread(fd, nil, 0, 0) }" "pread("
    plant Sources/IdleLock/Store/SessionStore.swift "func f(_ fd: Int32) { _ = CSystem.close(fd) }" "CSystem.close"
    plant Sources/IdleLock/Store/StoreFiles.swift "func f() { _ = SystemCalls.openat(0, \"x\", 0, 0) }" "SystemCalls.openat"
    plant Sources/IdleLock/Store/StoreFiles.swift "let e = ilk_errno()" "ilk_errno"
    plant Sources/IdleLock/Store/StoreFiles.swift "let f = O_RDONLY" "O_RDONLY"
    plant Sources/IdleLock/Platform/Folder.swift "func f(_ fd: Int32) { _ = unlinkat(fd, \"x\", 0) }" "unlinkat("
    plant Sources/IdleLock/Platform/OpenFile.swift "func f(_ fd: Int32) { _ = ilk_openat(fd, \"x\", 0, 0) }" "ilk_openat("
    plant Sources/IdleLock/Handle/IdleLockHandle.swift "let p = pthread_self()" "pthread_self"
    plant Sources/IdleLock/Handle/DeadlineWatcher.swift "let t = timerfd_create(CLOCK_BOOTTIME, 0)" "timerfd_"
    plant Sources/IdleLock/Store/StoreFiles.swift "let path = \"/proc/self/stat\"" "/proc/"
    plant Sources/CIdleLockSupport/last_error.c "static void f(void) { (void)eventfd(0, 0); }" "eventfd"
    plant Sources/CIdleLockSupport/last_error.c "static void f(void) { (void)nanosleep(0, 0); }" "nanosleep("
    plant Sources/IdleLock/ABI/SnapshotConversion.swift "func f(_ p: UnsafeMutableRawPointer) { memset(p, 0, 1) }" "memset("
    plant Sources/IdleLock/ABI/Exports.swift "func f(_ p: UnsafePointer<CChar>) -> Int { strnlen(p, 1) }" "strnlen("
    plant Sources/IdleLock/Platform/SystemCalls.swift "func f(_ p: UnsafeMutableRawPointer) { memcpy(p, p, 1) }" "memcpy("
    # Not violations: a comment, a word in an error message, a method of
    # the library's own that has a C function's name.
    new_case
    printf '%s\n' "// fsync(fd) and CLOCK_BOOTTIME in a comment" \
        "let m: StaticString = \"fsync(2) failed; pthread_create too\"" \
        "func read(_ files: StoreFiles) throws(IdleLockError) -> [UInt8]? { try files.read() }" \
        >> "$tmp/$n/tree/Sources/IdleLock/Store/StoreFiles.swift"
    expect_success "$tmp/$n" "a comment, an error message or a method counted as a call" "$tmp/$n/tree" &
    # Part 3: a listed call that the table has no entry for; a library that
    # imports a call the list does not name; one that imports only listed
    # calls.
    new_case
    sed 's/static func nanosleep(/static func pause(/' "$here/Sources/IdleLock/Platform/SystemCalls.swift" \
        > "$tmp/$n/tree/Sources/IdleLock/Platform/SystemCalls.swift"
    expect_failure "$tmp/$n" "a listed call with no entry in the table" "nanosleep" "$tmp/$n/tree" &
    CC=${CC:-cc}
    printf '%s\n' '#include <unistd.h>' 'int f(int fd, void *b) { return (int)pread(fd, b, 1, 0) + (int)getpid(); }' > "$tmp/bad.c"
    printf '%s\n' '#include <unistd.h>' 'int f(int fd, void *b) { return (int)pread(fd, b, 1, 0) + close(fd); }' > "$tmp/good.c"
    n=$((n + 1))
    mkdir -p "$tmp/$n"
    if $CC -shared -fPIC -o "$tmp/bad.so" "$tmp/bad.c" 2> "$tmp/cc" && $CC -shared -fPIC -o "$tmp/good.so" "$tmp/good.c" 2>> "$tmp/cc"; then
        expect_failure "$tmp/$n" "a library that calls getpid" "calls getpid" --library "$tmp/bad.so" &
        n=$((n + 1))
        mkdir -p "$tmp/$n"
        expect_success "$tmp/$n" "a library that calls only listed calls" --library "$tmp/good.so" &
    else
        { echo "check-layers self-test: cannot build the test libraries with $CC:"; cat "$tmp/cc"; } > "$tmp/$n/result"
    fi
    wait
    passed=0
    failed=0
    i=1
    while [ "$i" -le "$n" ]; do
        if [ "$(cat "$tmp/$i/result" 2>/dev/null)" = ok ]; then
            passed=$((passed + 1))
        else
            cat "$tmp/$i/result" 2>/dev/null || echo "check-layers self-test: case $i left no result"
            failed=$((failed + 1))
        fi
        i=$((i + 1))
    done
    echo "check-layers self-test: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

library=""
if [ "${1:-}" = --library ]; then
    library=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
    shift 2
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

# The table of system calls and its test hook: the only Swift files that
# call the C library.
is_table_file() {
    case "$1" in
        Sources/IdleLock/Platform/SystemCalls.swift|Sources/IdleLock/Platform/SystemCallFaults.swift) return 0 ;;
    esac
    return 1
}

# The C files of the platform layer: the libc floors, which define the C
# library's entry points for the library's own references (glibc's symbol
# versions, arc4random_buf from libsodium), and the system headers the
# Swift code imports (with the wrappers the table calls).
is_platform_c_file() {
    case "$1" in
        Sources/CSystem/shim.h) return 0 ;;
        Sources/CIdleLockSupport/glibc_floor.c|Sources/CIdleLockSupport/glibc_floor_sodium.c) return 0 ;;
        Sources/CIdleLockSupport/arc4random_sodium.c) return 0 ;;
    esac
    return 1
}

# code FILE [keep-strings]: FILE without comments (// and /* */), and
# without string literals unless asked to keep them; a Swift declaration
# "func NAME" loses its name (a method may share a C function's name).
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
            # up to the next quote or slash at once (the rest is code)
            i = match(line, /["\/]/)
            if (i == 0) { out = out line; break }
            out = out substr(line, 1, i - 1); line = substr(line, i)
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
        gsub(/func[ \t]+[A-Za-z_][A-Za-z0-9_]*/, "func", out)
        print out
    }' "$1"
}

passed=0
failed=0

# Part 1: the imports of each layer.
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

# Part 2: who calls the system.
for file in $(find Sources -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) | sort); do
    is_platform_c_file "$file" && continue
    case "$file" in
        *.swift)
            calls=$(code "$file" | grep -nE "$RUNTIME_ONLY_RE")
            if [ -n "$calls" ]; then
                echo "check-layers: $file calls a C library function that only the Swift runtime calls; use the standard library:"
                echo "$calls" | sed 's/^/    line /'
                failed=$((failed + 1))
                continue
            fi
            ;;
    esac
    is_table_file "$file" && { passed=$((passed + 1)); continue; }
    case "$file" in
        Sources/IdleLock/Platform/*)
            calls=$(code "$file" | grep -nE "$LIBC_CALL_RE")
            where="only the table of system calls (Platform/SystemCalls.swift) calls the C library; call its entry"
            ;;
        *)
            calls_re=$LIBC_CALL_RE
            [ "$file" = Sources/CIdleLockSupport/last_error.c ] && calls_re=$LAST_ERROR_CALL_RE
            calls=$( { code "$file" | grep -nE "$calls_re|$PLATFORM_ONLY_RE"; code "$file" keep | grep -nE "$PLATFORM_PATHS"; } | sort -n -u)
            where="only Sources/IdleLock/Platform/ asks the system for a service (docs/ARCHITECTURE.md)"
            ;;
    esac
    if [ -n "$calls" ]; then
        echo "check-layers: $file calls the system; $where:"
        echo "$calls" | sed 's/^/    line /'
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done

# Part 3: the list is the table's. Every listed call has an entry (its C
# name, or fcntl's fcntl_full_fsync) in the table or its test hook.
table=$( { code Sources/IdleLock/Platform/SystemCalls.swift keep; code Sources/IdleLock/Platform/SystemCallFaults.swift keep; } 2>/dev/null)
entries=$(sed -n 's/.*static func \([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' Sources/IdleLock/Platform/SystemCalls.swift 2>/dev/null)
missing=""
for call in $LIBC_CALLS; do
    case " $DEBUG_ONLY_CALLS " in
        *" $call "*) echo "$table" | grep -qE "\b$call\(" || missing="$missing $call"; continue ;;
    esac
    [ "$call" = fcntl ] && call=fcntl_full_fsync
    echo "$entries" | grep -qx "$call" || missing="$missing $call"
done
if [ -n "$missing" ]; then
    echo "check-layers: scripts/check-layers.sh lists C library calls that Platform/SystemCalls.swift has no entry for:$missing"
    failed=$((failed + 1))
else
    passed=$((passed + 1))
fi

# ... and, with --library, every C library function the library imports is
# listed.
if [ -n "$library" ]; then
    unlisted=""
    for symbol in $(nm -D --undefined-only "$library" | awk '{print $NF}' | sed 's/@.*//' | sort -u); do
        case "$symbol" in
            sodium_*|crypto_*|randombytes_*) continue ;;
        esac
        case " $(echo $LIBC_CALLS $RUNTIME_CALLS) " in
            *" $symbol "*) ;;
            *) unlisted="$unlisted $symbol" ;;
        esac
    done
    if [ -n "$unlisted" ]; then
        for symbol in $unlisted; do
            echo "check-layers: $library calls $symbol, which scripts/check-layers.sh does not list: call it through an entry of Platform/SystemCalls.swift and list it in LIBC_CALLS (or, for the runtime's, in RUNTIME_CALLS with the reason)"
        done
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
fi
echo "check-layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
