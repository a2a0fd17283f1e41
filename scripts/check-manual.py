#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-manual.py HEADER LIBRARY DOCS SCRATCH: the manual of `make docs`
(scripts/gen-manual.py) is the header's, complete and well formed.

  1. Up to date: gen-manual.py run again from HEADER into SCRATCH gives
     exactly the files under DOCS (idlelock_manual.html, man/man3/*.3):
     the same names, the same bytes. (It fails after a header edit until
     `make docs` is run and its output committed.)
  2. Complete: every function LIBRARY exports (nm -D --defined-only: the
     names a program links against, found independently of the
     generator's reading of the header) has an anchor id="<name>" in the
     HTML page, its own man page man3/<name>.3 whose NAME line names it,
     and an entry in idlelock(3).
  3. Well formed: the HTML page's tags nest and close, its ids are unique,
     and every href="#..." names one of them; every man page renders with
     groff -man -ww (all warnings) without a word on stderr, and is ASCII.

Prints a line per failure, then "N passed, N failed"."""

import filecmp
import html.parser
import os
import re
import subprocess
import sys

header, library, docs, scratch = sys.argv[1:5]
here = os.path.dirname(os.path.abspath(__file__))
passed = 0
failures = []


def check(ok, message):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(message)


def files_under(root):
    out = set()
    for folder, _, names in os.walk(root):
        for name in names:
            out.add(os.path.relpath(os.path.join(folder, name), root))
    return out


# 1. Up to date.
subprocess.run(["rm", "-rf", scratch], check=True)
gen = subprocess.run([sys.executable, os.path.join(here, "gen-manual.py"), header, scratch],
                     capture_output=True, text=True)
check(gen.returncode == 0, "gen-manual.py failed:\n" + gen.stderr)
committed = {f for f in files_under(docs) if f == "idlelock_manual.html" or f.startswith("man/")}
fresh = files_under(scratch)
for f in sorted(fresh - committed):
    check(False, "%s/%s is missing: run `make docs` and commit what it writes" % (docs, f))
for f in sorted(committed - fresh):
    check(False, "%s/%s is not generated from the header any more: run `make docs` (it removes it)" % (docs, f))
for f in sorted(fresh & committed):
    check(filecmp.cmp(os.path.join(docs, f), os.path.join(scratch, f), shallow=False),
          "%s/%s differs from what gen-manual.py makes of %s: run `make docs` and commit it" % (docs, f, header))

# 2. Complete, against the library's own list of names.
nm = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True)
exported = sorted({line.split()[-1].split("@")[0] for line in nm.stdout.splitlines()
                   if line.split() and line.split()[-1].startswith("idlelock_")})
check(nm.returncode == 0 and exported, "nm -D %s listed no idlelock_ function:\n%s" % (library, nm.stderr))
page = open(os.path.join(docs, "idlelock_manual.html"), encoding="utf-8").read()
overview = open(os.path.join(docs, "man", "man3", "idlelock.3"), encoding="ascii").read()
for name in exported:
    check('id="%s"' % name in page, "idlelock_manual.html has no anchor for %s" % name)
    man = os.path.join(docs, "man", "man3", name + ".3")
    if os.path.exists(man):
        text = open(man, encoding="ascii").read()
        check(re.search(r"^\.SH NAME\n%s \\- " % re.escape(name), text, re.M) is not None,
              "%s: its NAME section does not name %s" % (man, name))
    else:
        check(False, "no man page %s for the exported function %s" % (man, name))
    check(".BR %s (3)" % name in overview, "idlelock(3) does not list %s" % name)


# 3. Well formed.
class Page(html.parser.HTMLParser):
    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack, self.ids, self.hrefs, self.errors = [], [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.hrefs.append(attrs["href"][1:])
        if tag not in self.VOID:
            self.stack.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("</%s> at line %d closes %s" % (tag, self.getpos()[0],
                                                              self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()


p = Page()
p.feed(page)
p.close()
check(not p.errors and not p.stack, "idlelock_manual.html: tags do not nest: %s %s" % (p.errors[:3], p.stack[-3:]))
dupes = sorted({i for i in p.ids if p.ids.count(i) > 1})
check(not dupes, "idlelock_manual.html: ids used twice: %s" % dupes)
dead = sorted(set(p.hrefs) - set(p.ids))
check(not dead, "idlelock_manual.html: links to no anchor: %s" % dead)

for f in sorted(os.listdir(os.path.join(docs, "man", "man3"))):
    path = os.path.join(docs, "man", "man3", f)
    raw = open(path, "rb").read()
    check(all(b < 128 for b in raw), "%s is not ASCII" % path)
    groff = subprocess.run(["groff", "-man", "-ww", "-z", "-Tutf8", path], capture_output=True, text=True)
    check(groff.returncode == 0 and not groff.stderr.strip(), "%s: groff -man -ww says:\n%s" % (path, groff.stderr))

for message in failures:
    print("check-manual: FAIL: " + message)
print("%d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
