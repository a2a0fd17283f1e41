#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""md-links.py: the links of the Markdown files we ship.

  md-links.py check ROOT
      Every relative link and image of every Markdown file under ROOT (the
      files git tracks when ROOT is a checkout; otherwise every *.md below
      it, as in an unpacked source tarball) names a file or folder that
      exists under ROOT, and a #fragment names a heading (GitHub's slug) or
      an <a id|name> of the Markdown file it points into. Links in code
      blocks and code spans are not links. Absolute URLs are not fetched
      (nothing here reaches the network); those into the project's own
      repository at this version (--url and --tag, as `absolute` writes
      them) must name a file that exists under ROOT. Prints each dead link
      with its file and line, then "N passed, N failed" (a check a link).

  md-links.py absolute --url URL --tag TAG --path PATH [--keep LIST] IN OUT
      Writes IN (the Markdown file at PATH in the repository) to OUT with
      its relative links made absolute, URL/blob/TAG/<file> or
      URL/tree/TAG/<folder> (a link to one of its own headings too): for a
      README that is read outside the repository (a package's long
      description, the copy in a source tarball). With --keep, a file
      listing the paths (one a line) that ship beside it: links to those
      (and within the file, when it is one of them) stay relative.

  md-links.py check --packaged FILE --url URL --tag TAG ROOT
      FILE is such a copy: it has no relative link left, and each of its
      links into URL at TAG names a file or folder under ROOT.
"""

import os
import re
import subprocess
import sys
import unicodedata

FENCE = re.compile(r"^\s{0,3}(```|~~~)")
INLINE = re.compile(r"(!?\[(?:[^\[\]]|\[[^\]]*\])*\])\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTMLREF = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]*)\"", re.I)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
ANCHOR = re.compile(r"<a\s[^>]*?(?:id|name)=\"([^\"]+)\"", re.I)
CODESPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def is_absolute(target):
    return re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) is not None or target.startswith("//")


def links(text):
    """(line number, target, (start, end) of the target in the line) of
    each link outside code."""
    out = []
    fenced = False
    for n, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        masked = CODESPAN.sub(lambda m: " " * len(m.group(0)), line)
        for m in INLINE.finditer(masked):
            out.append((n, m.group(2), m.span(2)))
        m = REFDEF.match(masked)
        if m:
            out.append((n, m.group(1), m.span(1)))
        for m in HTMLREF.finditer(masked):
            out.append((n, m.group(1), m.span(1)))
    return [(n, t.strip("<>"), span) for n, t, span in out]


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    out = []
    for c in text.lower():
        if c in " -_" or unicodedata.category(c)[0] in "LN":
            out.append("-" if c == " " else c)
    return "".join(out)


def anchors_of(path):
    found, counts = set(), {}
    fenced = False
    for line in open(path, encoding="utf-8").read().split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        m = HEADING.match(line)
        if m:
            s = slug(m.group(2))
            k = counts.get(s, 0)
            counts[s] = k + 1
            found.add(s if k == 0 else "%s-%d" % (s, k))
        for a in ANCHOR.finditer(line):
            found.add(a.group(1))
    return found


def markdown_files(root):
    if os.path.exists(os.path.join(root, ".git")):
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", "*.md"],
                                capture_output=True, text=True, check=True).stdout.split("\0")
        return sorted(f for f in listed if f and os.path.isfile(os.path.join(root, f)))
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("build", ".build", ".git"))
        for name in names:
            if name.endswith(".md"):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(found)


def repo_target(url, base_url, tag):
    """The path inside the repository of an absolute link to it, or None."""
    for kind in ("blob", "tree"):
        prefix = "%s/%s/%s/" % (base_url.rstrip("/"), kind, tag)
        if url.startswith(prefix):
            return url[len(prefix):]
    return None


def resolve(root, source, target, anchor_cache):
    """None when the link resolves, else why not."""
    path, _, fragment = target.partition("#")
    path = path.split("?")[0]
    if path:
        if path.startswith("/"):
            return "a link from the root of a site, which no copy of the file keeps"
        full = os.path.normpath(os.path.join(root, os.path.dirname(source), path))
        if not (full + os.sep).startswith(os.path.normpath(root) + os.sep) and full != os.path.normpath(root):
            return "points outside the tree"
        if not os.path.exists(full):
            return "no such file or folder"
    else:
        full = os.path.join(root, source)
    if fragment and full.endswith(".md") and os.path.isfile(full):
        if full not in anchor_cache:
            anchor_cache[full] = anchors_of(full)
        if fragment not in anchor_cache[full]:
            return "no heading or anchor #%s in %s" % (fragment, os.path.relpath(full, root))
    return None


def check(args):
    packaged = url = tag = None
    while args and args[0].startswith("--"):
        opt, val = args[0], args[1]
        args = args[2:]
        if opt == "--packaged":
            packaged = val
        elif opt == "--url":
            url = val
        elif opt == "--tag":
            tag = val
        else:
            sys.exit("md-links: unknown option %s" % opt)
    root = os.path.abspath(args[0])
    passed, failed = 0, 0
    cache = {}
    sources = [(packaged, open(packaged, encoding="utf-8").read())] if packaged else \
        [(f, open(os.path.join(root, f), encoding="utf-8").read()) for f in markdown_files(root)]
    if not sources:
        print("md-links: no Markdown file under %s" % root)
        failed += 1
    for source, text in sources:
        for n, target, _ in links(text):
            if not target:
                why = "an empty link"
            elif is_absolute(target):
                inside = repo_target(target, url, tag) if url and tag else None
                if inside is None:
                    continue
                why = resolve(root, "", inside.rstrip("/"), cache)
            elif packaged:
                why = "a relative link in a file read outside the repository"
            else:
                why = resolve(root, source, target, cache)
            if why:
                failed += 1
                print("md-links: %s:%d: dead link %s: %s" % (source, n, target, why))
            else:
                passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def absolute(args):
    opts = {}
    while args and args[0].startswith("--"):
        opts[args[0]] = args[1]
        args = args[2:]
    src, dst = args
    url, tag, path = opts["--url"].rstrip("/"), opts["--tag"], opts["--path"]
    keep = set()
    if "--keep" in opts:
        keep = {line.strip() for line in open(opts["--keep"], encoding="utf-8") if line.strip()}
    root = os.getcwd()      # the repository: tells a folder from a file
    text = open(src, encoding="utf-8").read()
    lines = text.split("\n")
    for n, target, (start, end) in sorted(links(text), key=lambda x: (x[0], -x[2][0])):
        if not target or is_absolute(target):
            continue
        rel, _, fragment = target.partition("#")
        # A link within the file (#heading) stays only where the file ships
        # with its neighbours; a package's page may give headings no anchor.
        inside = os.path.normpath(os.path.join(os.path.dirname(path), rel)) if rel else path
        if inside in keep:
            continue
        kind = "tree" if os.path.isdir(os.path.join(root, inside)) else "blob"
        new = "%s/%s/%s/%s" % (url, kind, tag, inside) + ("#" + fragment if fragment else "")
        line = lines[n - 1]
        # The span is the target's in the line (angle brackets included when
        # the link had them).
        lines[n - 1] = line[:start] + new + line[end:]
    with open(dst, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("check", "absolute"):
        sys.exit(__doc__)
    sys.exit((check if sys.argv[1] == "check" else absolute)(sys.argv[2:]))
