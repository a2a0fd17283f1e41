#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests scripts/run-suites.sh, the runner of `make test` and `make check`
# (and scripts/build-step.sh, the build's: its TMPDIR and exit status),
# on a Makefile of its own with suites that pass, fail, count nothing and
# write into their temporary folder, and on a suite made of parts (`each`):
# the table and the exit status say which suite failed and why; every
# suite and part gets a TMPDIR of its own inside the caller's, and nothing
# is left there when the run ends, also when the run is stopped by a
# signal in the middle of a suite or killed outright (its suites stop
# too); a link a suite leaves there or puts in its place changes nothing
# outside. Prints "N passed, N failed".
here=$(cd "$(dirname "$0")" && pwd)
checks_name=test-run-suites
. "$here/shell-checks.sh"
empty() { [ -z "$(ls -A "$1")" ]; }

# The suites: each records the TMPDIR it was given in seen/, writes into
# it, and prints a count line (or not).
mkdir -p "$work/project/seen" "$work/tmp"
cat > "$work/project/Makefile" <<'MAKE'
record = echo "$$TMPDIR" > seen/$@; echo x > "$$TMPDIR/left-$@"; mkdir -p "$$TMPDIR/ro"; chmod 500 "$$TMPDIR/ro"
good:
	@$(record); echo "3 passed, 0 failed"
bad:
	@$(record); echo "FAIL one"; echo "2 passed, 1 failed"
silent:
	@$(record); echo "no count here"
parts:
	@$(record); printf 'one|echo "$$TMPDIR" > seen/part1; echo x > "$$TMPDIR/f"; echo "1 passed, 0 failed"\ntwo|echo "$$TMPDIR" > seen/part2; echo "1 passed, 0 failed"\n' \
	    | sh $(RUNNER) each parts $(CURDIR)/parts-logs 2 60
slow:
	@$(record); sleep 60 & echo $$! > seen/slow.pid; touch seen/slow-started; wait; echo "1 passed, 0 failed"
linked:
	@$(record); ln -s "$(OUTSIDE)" "$$TMPDIR/outside"; ln -s "$(OUTSIDE)/locked" "$$TMPDIR/locked"; echo "1 passed, 0 failed"
swap:
	@$(record); rm -rf "$$TMPDIR"; ln -s "$(OUTSIDE)" "$$TMPDIR"; echo "1 passed, 0 failed"
MAKE

cd "$work/project" || exit 1
TMPDIR=$work/tmp TEST_JOBS=2 MAKE=make RUNNER=$here/run-suites.sh \
    sh "$here/run-suites.sh" make results good bad silent parts > out.log 2>&1
rc=$?
check "the run fails when a suite failed" [ "$rc" -eq 1 ]
check "the table names the failed suites" grep -q -x -F "make test: 2 of 4 suites FAILED: bad silent" out.log
check "a passing suite's count is in the table" grep -q -E '^  good +3 passed, 0 failed$' out.log
check "a suite without a count line fails" grep -q -E '^  silent +FAILED: no "N passed, N failed" line' out.log
check "a suite of parts adds its parts' counts" grep -q -E '^  parts +2 passed, 0 failed$' out.log
for s in good bad silent parts part1 part2; do
    t=$(cat "seen/$s" 2>/dev/null)
    case $t in
        "$work/tmp/"?*) ok=1 ;;
        *) ok=0 ;;
    esac
    check "$s ran with a TMPDIR of its own in the caller's (got \"$t\")" [ "$ok" -eq 1 ]
done
check "the suites' TMPDIRs differ" [ "$(cat seen/good)" != "$(cat seen/bad)" ]
check "a part's TMPDIR is inside its suite's" sh -c 'case $(cat seen/part1) in "$(cat seen/parts)"/?*) exit 0 ;; esac; exit 1'
check "nothing is left in TMPDIR after the run (read-only folders too)" empty "$work/tmp"

# A suite named twice is refused before anything runs.
rm -f seen/*
TMPDIR=$work/tmp MAKE=make sh "$here/run-suites.sh" make results-twice good bad good > out-twice.log 2>&1
rc=$?
check "a suite named twice is refused (exit $rc)" [ "$rc" -eq 2 ]
check "the refusal names it" grep -q -x -F "run-suites: suites named more than once: good; name each once (TEST_SUITES)" out-twice.log
check "no suite ran" [ -z "$(ls -A seen)" ]

# Stopped in the middle of a suite: the suite's TMPDIR goes too.
rm -f seen/*
TMPDIR=$work/tmp TEST_JOBS=1 MAKE=make RUNNER=$here/run-suites.sh \
    sh "$here/run-suites.sh" make results2 slow > out2.log 2>&1 &
runner=$!
i=0
while [ ! -f seen/slow-started ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "the slow suite started" [ -f seen/slow-started ]
kill -TERM "$runner"
wait "$runner"
rc=$?
check "a stopped run exits non-zero" [ "$rc" -ne 0 ]
i=0
while ! empty "$work/tmp" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "a stopped run leaves nothing in TMPDIR" empty "$work/tmp"
# (Gone, or a zombie its dead parent left for init to reap.)
gone() { case $(ps -o stat= -p "$(cat seen/slow.pid)") in ""|Z*) return 0 ;; esac; return 1; }
i=0
while ! gone && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "a stopped run leaves no suite running" gone

# Killed (SIGKILL: no trap of the runner's runs): the suites, in a session
# of their own, stop too, and their TMPDIRs go.
rm -f seen/*
TMPDIR=$work/tmp TEST_JOBS=1 MAKE=make RUNNER=$here/run-suites.sh \
    sh "$here/run-suites.sh" make results4 slow good > out4.log 2>&1 &
runner=$!
i=0
while [ ! -f seen/slow-started ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
check "the slow suite started (before a kill)" [ -f seen/slow-started ]
kill -KILL "$runner"
wait "$runner" 2>/dev/null
i=0
while ! gone && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "a killed run leaves no suite running" gone
# (On a runner that leaves it: stop it here, not a minute later.)
gone || kill -TERM -"$(ps -o pgid= -p "$(cat seen/slow.pid)" | tr -d ' ')" 2>/dev/null
i=0
while ! empty "$work/tmp" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "a killed run leaves nothing in TMPDIR" empty "$work/tmp"
sleep 2
check "a killed run starts no further suite" [ ! -f seen/good ]

# A suite that leaves a link to a folder outside in its TMPDIR, or puts
# one in its TMPDIR's place: the cleanup removes the links and changes
# nothing outside (it used to chmod -R through a TMPDIR that was a link,
# making the folder it named and every folder in it writable).
mkdir -p "$work/outside/locked"
chmod 500 "$work/outside/locked"
OUTSIDE=$work/outside TMPDIR=$work/tmp TEST_JOBS=1 MAKE=make RUNNER=$here/run-suites.sh \
    sh "$here/run-suites.sh" make results3 linked swap > out3.log 2>&1
check "a suite that left links in its TMPDIR passes" grep -q -E '^  linked +1 passed, 0 failed$' out3.log
check "a suite that swapped its TMPDIR for a link passes" grep -q -E '^  swap +1 passed, 0 failed$' out3.log
check "the cleanup changed nothing the link named (mode $(stat -c %a "$work/outside/locked"))" \
    [ "$(stat -c %a "$work/outside/locked")" = 500 ]
check "the cleanup removed the link, not what it named" [ -d "$work/outside/locked" ]
check "nothing is left in TMPDIR after links" empty "$work/tmp"
chmod 700 "$work/outside/locked"

# build-step.sh: the command's TMPDIR is its own and gone after it; its
# exit status and output come through.
rm -f seen/*
TMPDIR=$work/tmp sh "$here/build-step.sh" "$work/logs" CC out.o \
    sh -c 'echo "$TMPDIR" > seen/step; mkdir "$TMPDIR/TemporaryDirectory.x"' > step.out 2>&1
rc=$?
check "a build step that passes exits 0" [ "$rc" -eq 0 ]
check "a build step prints its one line" grep -q -x "  CC      out.o" step.out
check "a build step ran with a TMPDIR of its own (got \"$(cat seen/step 2>/dev/null)\")" \
    sh -c 'case $(cat seen/step) in "$0"/?*) exit 0 ;; esac; exit 1' "$work/tmp"
check "a build step leaves nothing in TMPDIR" empty "$work/tmp"
TMPDIR=$work/tmp sh "$here/build-step.sh" "$work/logs" CC bad.o sh -c 'echo broken; exit 3' > step.out 2>&1
rc=$?
check "a failed build step exits with its command's status" [ "$rc" -eq 3 ]
check "a failed build step shows its output" grep -q -x "broken" step.out
check "a failed build step leaves nothing in TMPDIR" empty "$work/tmp"

checks_end
