#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-doc-comments.py CLANG HEADER [SWIFT_INTERFACE]: every declaration
of the public header carries a documentation comment that clang attaches
to it, so that clangd's hovers, Xcode's Quick Help, Doxygen and Swift's
generated interface of the C module show the header's text.

  1. `CLANG -Xclang -ast-dump=json` of HEADER (as C): every function, every
     typedef, every struct definition and every field of one, declared in
     HEADER, has a FullComment with text in it (a `/** */` block before it,
     or a `/**< */` after a field). Plain `/* */` comments are not attached.
  2. `CLANG -Wdocumentation -Wdocumentation-pedantic
     -Wdocumentation-unknown-command -Werror`: no comment that clang
     misreads (an unknown \\command, a stray HTML tag).
  3. With SWIFT_INTERFACE (the output of swift-synthesize-interface for the
     header's module, include/module.modulemap): each of those functions,
     types and fields is preceded there by its comment, as Swift users see
     it in Xcode's generated interface.

Prints each declaration that has none, then "N passed, N failed" (one
check per declaration and per step)."""

import json
import re
import subprocess
import sys

clang, header = sys.argv[1], sys.argv[2]
swift_interface = sys.argv[3] if len(sys.argv) > 3 else None
failures = []
passed = 0


def fail(message):
    failures.append(message)


def text_of(node):
    """The words of a comment node and its children."""
    words = [node.get("text", "")]
    for child in node.get("inner", []):
        words.append(text_of(child))
    return " ".join(w for w in words if w.strip())


def comment_of(node):
    for child in node.get("inner", []):
        if child.get("kind") == "FullComment":
            return text_of(child).strip()
    return ""


dump = subprocess.run([clang, "-fsyntax-only", "-x", "c", "-std=c99", "-Xclang", "-ast-dump=json", header],
                      capture_output=True, text=True)
if dump.returncode != 0:
    sys.exit("check-doc-comments: %s could not parse %s:\n%s" % (clang, header, dump.stderr))
tree = json.loads(dump.stdout)

# The header's own declarations: clang writes a node's file only when it
# differs from the previous node's, so follow it in document order.
current_file = [None]


def file_of(node):
    for key in ("loc", "range"):
        loc = node.get(key, {})
        if key == "range":
            loc = loc.get("begin", {})
        spelling = loc.get("spellingLoc", loc)
        if "file" in spelling:
            current_file[0] = spelling["file"]
            break
    return current_file[0]


declared = []   # (what, name, node)
for node in tree.get("inner", []):
    where = file_of(node)
    for child in node.get("inner", []):
        file_of(child)
    if where is None or not where.endswith(header.split("/")[-1]) or node.get("isImplicit"):
        continue
    kind, name = node.get("kind"), node.get("name", "")
    if kind == "FunctionDecl":
        declared.append(("function", name, node))
    elif kind == "TypedefDecl":
        declared.append(("type", name, node))
    elif kind == "RecordDecl" and node.get("completeDefinition"):
        declared.append(("struct", name, node))
        for field in node.get("inner", []):
            if field.get("kind") == "FieldDecl":
                declared.append(("field", name + "." + field.get("name", ""), field))

if not any(what == "function" for what, _, _ in declared):
    fail("found no function declared in %s (is it the header?)" % header)
for what, name, node in declared:
    if comment_of(node):
        passed += 1
    else:
        fail("%s %s: no documentation comment attached (clang -ast-dump shows no FullComment;"
             " write /** ... */ before it, or /**< ... */ after a field)" % (what, name))

warn = subprocess.run([clang, "-fsyntax-only", "-x", "c", "-std=c99", "-Wdocumentation", "-Wdocumentation-pedantic",
                       "-Wdocumentation-unknown-command", "-Werror", header], capture_output=True, text=True)
if warn.returncode == 0:
    passed += 1
else:
    fail("clang -Wdocumentation reads a comment wrongly:\n" + warn.stderr)

if swift_interface:
    lines = open(swift_interface, encoding="utf-8").read().split("\n")
    # For each declaration, the line that declares it in Swift's interface.
    patterns = {
        "function": lambda n: r"^public func %s\(" % re.escape(n),
        "type": lambda n: r"^public (typealias|struct) %s\b" % re.escape(n),
        "struct": lambda n: r"^public struct %s\b" % re.escape(n),
    }
    struct = None
    found = {}
    for i, line in enumerate(lines):
        m = re.match(r"^public struct (\w+)", line)
        if m:
            struct = m.group(1)
        elif line.startswith("}"):
            struct = None
        m = re.match(r"^    public var (\w+):", line)
        if m and struct:
            found[("field", struct + "." + m.group(1))] = i
        for what in ("function", "type", "struct"):
            m = re.match(r"^public (?:func|typealias|struct) (\w+)\b", line)
            if m:
                found.setdefault((what, m.group(1)), i)
    def node_type(name):
        for w, n, node in declared:
            if w == "type" and n == name:
                return node.get("type", {}).get("qualType", "")
        return ""

    for what, name, _ in declared:
        key = (what, name)
        structs = {s for w, s, _ in declared if w == "struct"}
        if what == "type" and name in structs:
            continue   # a struct's typedef is the struct itself in Swift
        if what == "type" and node_type(name).startswith("struct ") and node_type(name)[7:] not in structs:
            continue   # an opaque struct is OpaquePointer in Swift: nothing to carry a comment
        if what == "type" and key not in found:
            key = ("struct", name)
        i = found.get(key if key in found else (what, name))
        if i is None:
            fail("%s %s: not in Swift's generated interface" % (what, name))
            continue
        j = i - 1
        while j >= 0 and lines[j].strip() == "":
            j -= 1
        if j >= 0 and lines[j].strip().endswith("*/"):
            passed += 1
        else:
            fail("%s %s: Swift's generated interface shows no comment before it" % (what, name))

for message in failures:
    print("check-doc-comments: FAIL: " + message)
print("%d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
