#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen-bindings.py: one description of the C interface, written into every
binding (`make gen-bindings`; `make check-bindings` checks it).

    python3 scripts/gen-bindings.py            write the generated files
                                               that changed
    python3 scripts/gen-bindings.py --check    write nothing; name every
                                               generated file that differs
                                               from what it would write, end
                                               with "N passed, N failed" and
                                               fail if one does
    python3 scripts/gen-bindings.py --c-check DIR
                                               write only DIR/check.c, a C
                                               program that prints every
                                               constant and struct layout as
                                               the compiler sees them, and
                                               DIR/expected.txt, what the
                                               generator made of them

It reads three things, and nothing else:
  - include/idlelock.h: every #define (a constant: its value, evaluated
    for the few C forms the header uses, and its /**< */ comment), every
    typedef (the opaque handle, the function-pointer types, the structs and
    their fields) and every function declaration;
  - the core's lifecycle table, Sources/IdleLock/Rules/LifecycleNames.swift:
    each IDLELOCK_PLATFORM_*'s state names, in the library's order;
  - bindings/names.txt: what each binding calls the header's names where a
    rule of this file (Model.message_names) does not say it.
A declaration, a preprocessor line, a type or a constant expression it does
not understand stops it with the line and what it expected: nothing is
skipped silently, so the header cannot grow a function that a binding
lacks. It also stops on a name table row that names nothing in the header.

What it writes (each file starts "Generated from include/idlelock.h by
scripts/gen-bindings.py; do not edit."):
  bindings/python/idlelock/_generated.py   constants, ctypes Structures and
      CFUNCTYPEs, every function's restype/argtypes, the names of the
      messages, the status-to-exception table
  bindings/java/src/org/idlelock/GeneratedConstants.java   IdleLock's constants
  bindings/java/src/org/idlelock/GeneratedTables.java      the snapshot and
      config slots the glue fills, the names of the messages, the
      status-to-exception table, the lifecycle names
  bindings/java/jni/idlelock_jni_generated.h   the glue's C side of those slots
  bindings/csharp/src/Generated.cs         DllImports, struct layouts,
      delegates, constants, the names of the messages, the
      status-to-exception table, the lifecycle names
  bindings/luajit/idlelock_generated.lua   the ffi.cdef, the constants, the
      names of the messages (the build inserts it into idlelock.in.lua)
  bindings/swift/Sources/IdleLockKit/Generated.swift   the header's
      enumerations as Swift enums, and AppPhase (SwiftUI's scene phases)
The idiomatic layer of each binding (its classes, exceptions, resources,
async helpers, the wording of its messages) stays written by hand.

Why Python: it is on every machine that builds the library (the build's
scripts already use it; scripts/install-deps.sh installs it with the first
level), where LuaJIT, which ran the generator this one replaces
(bindings/luajit/gen_cdef.lua), comes only with the test dependencies; and
one generator writes five languages, which Python's string handling makes
short. Standard library only.

Models: libsodium.js (wrapper/build-wrappers.js writes every wrapper from
one description per symbol, wrapper/symbols/*.json) and PyNaCl (its cffi
declarations, src/bindings/*.h, are compiled against <sodium.h>, so the C
compiler checks them): here one description, the header itself, and the
--c-check program holds what the generator computed to the C compiler.
"""

import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = "include/idlelock.h"
LIFECYCLE = "Sources/IdleLock/Rules/LifecycleNames.swift"
NAMES = "bindings/names.txt"
BANNER = "Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit."


def die(where, message):
    sys.exit("gen-bindings.py: %s: %s" % (where, message))


def read(relative):
    with open(os.path.join(ROOT, relative), encoding="utf-8") as f:
        return f.read()


# -- names ---------------------------------------------------------------------


def wrapped(text, prefix, width=100):
    """`text` as comment lines that start with `prefix`."""
    return textwrap.wrap(text, width, initial_indent=prefix, subsequent_indent=prefix, break_on_hyphens=False,
                         break_long_words=False) if text else []


def camel(snake):
    """idle_after_ms -> idleAfterMs"""
    parts = snake.lower().split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def pascal(snake):
    """idle_after_ms -> IdleAfterMs, IOS_SCENE_PHASE -> IosScenePhase"""
    return "".join(p[:1].upper() + p[1:] for p in snake.lower().split("_") if p)


# -- the header ----------------------------------------------------------------

BASIC_TYPES = {"void", "char", "int", "int32_t", "int64_t", "uint8_t", "uint32_t", "uint64_t", "size_t"}
INTEGER_RANGE = {
    "int": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1),
}


class CType:
    """A C type as the header spells it: `const` or not, a base type (a
    basic type or one of the header's typedefs) and how many `*`."""

    def __init__(self, base, const, pointers):
        self.base, self.const, self.pointers = base, const, pointers

    def c(self):
        return ("const " if self.const else "") + self.base + (" " + "*" * self.pointers if self.pointers else "")

    def is_(self, base, pointers=0):
        return self.base == base and self.pointers == pointers


class Param:
    def __init__(self, ctype, name):
        self.type, self.name = ctype, name


class Signature:
    """A function's or a function pointer's: its return type and parameters."""

    def __init__(self, ret, params):
        self.ret, self.params = ret, params


class Field:
    """A struct field: a plain type, or a function pointer (`signature`)."""

    def __init__(self, name, ctype=None, signature=None):
        self.name, self.type, self.signature = name, ctype, signature


class Struct:
    def __init__(self, name, fields):
        self.name, self.fields = name, fields

    def data_fields(self):
        """The fields a host reads or sets: not `size`, not `reserved*`."""
        return [f for f in self.fields if f.name != "size" and not f.name.startswith("reserved")]


class Constant:
    """A #define: its value, its own /**< */ comment (`doc`) and the /** */
    comment above the run of #defines it is in (`group`)."""

    def __init__(self, name, expr, kind, value, doc, group):
        self.name, self.expr, self.kind, self.value, self.doc, self.group = name, expr, kind, value, doc, group
        self.short = name[len("IDLELOCK_"):]

    def description(self):
        """Its comments as one sentence or two, for a binding's doc comment."""
        parts = [self.doc + ("" if self.doc.endswith(".") else ".")] if self.doc else []
        return " ".join(parts + ([self.group] if self.group else []))


class Header:
    def __init__(self):
        self.constants = []  # Constant, in the header's order
        self.opaque = []  # typedef struct X X; names
        self.fn_types = {}  # name -> Signature, in order
        self.structs = {}  # name -> Struct, in order
        self.functions = []  # (name, Signature), in order
        self.order = []  # ("fn_type"|"struct"|"opaque", name): the typedefs in order
        self.text = ""

    def constant(self, name):
        for c in self.constants:
            if c.name == name:
                return c
        return None

    def typedef_names(self):
        return set(self.opaque) | set(self.fn_types) | set(self.structs)


def clean_doc(comment):
    """The text of a /**< ... */ comment, on one line."""
    body = re.sub(r"^/\*\*<?", "", comment)
    body = re.sub(r"\*/$", "", body)
    lines = [re.sub(r"^\s*\*(?!/)\s?", "", line).strip() for line in body.split("\n")]
    return " ".join(line for line in lines if line)


def evaluate(where, name, expr):
    """(kind, value) of a constant's C expression: "string", or an integer
    of kind "int" (int32), "int64" or "uint64". Only the forms the header
    uses: decimal literals, + - * and parentheses, INT64_MAX and the casts
    (int64_t) and (uint64_t). Anything else stops the generator."""
    e = expr.strip()
    if re.fullmatch(r'"[^"\\]*"', e):
        return "string", e[1:-1]
    kinds = set()
    if "INT64_MAX" in e:
        kinds.add("int64")
        e = e.replace("INT64_MAX", str(2**63 - 1))

    def cast(m):
        kinds.add(m.group(1)[:-2])
        return ""

    e = re.sub(r"\(\s*(int64_t|uint64_t)\s*\)", cast, e)
    if not re.fullmatch(r"[0-9\s()*+\-]+", e) or re.search(r"\d\s+\d", e) or len(kinds) > 1:
        die(where, "cannot evaluate #define %s %s: a constant is a decimal integer, a string, INT64_MAX, "
                   "or + - * ( ) over them with one (int64_t) or (uint64_t) cast; teach evaluate() the new form" % (name, expr))
    try:
        value = eval(e, {"__builtins__": {}}, {})  # digits, spaces, ( ) * + - only
    except SyntaxError:
        die(where, "cannot evaluate #define %s %s" % (name, expr))
    kind = kinds.pop() if kinds else "int"
    low, high = INTEGER_RANGE[kind]
    if not low <= value <= high:
        die(where, "#define %s %s is %d, outside %s" % (name, expr, value, kind))
    return kind, value


def mask_comments(text):
    """The text with every comment replaced by spaces (newlines kept, so
    offsets and line numbers stay), and the comments' spans."""
    spans = [(m.start(), m.end()) for m in re.finditer(r"/\*.*?\*/", text, re.S)]
    masked = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return masked, spans


ALLOWED_DIRECTIVES = [
    r"#ifndef IDLELOCK_H",
    r"#define IDLELOCK_H",
    r"#include <stddef\.h>",
    r"#include <stdint\.h>",
    r"#ifdef __cplusplus",
    r"#endif",
]


def parse_type(where, text, known):
    tokens = re.findall(r"[A-Za-z_]\w*|\*|\S", text)
    const = False
    while tokens and tokens[0] == "const":
        const = True
        tokens.pop(0)
    if not tokens or tokens[0] not in BASIC_TYPES | known:
        die(where, "unknown type %r: a type is a basic C type (%s) or one of the header's typedefs"
            % (text.strip(), ", ".join(sorted(BASIC_TYPES))))
    base = tokens.pop(0)
    pointers = 0
    while tokens and tokens[0] == "*":
        pointers += 1
        tokens.pop(0)
    if tokens:
        die(where, "cannot read the type %r (only `const`, one type name and `*`s)" % text.strip())
    return CType(base, const, pointers)


def parse_params(where, text, known):
    text = " ".join(text.split())
    if text == "void":
        return []
    params = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(.*?[\s*])([A-Za-z_]\w*)\s*", part)
        if not m:
            die(where, "cannot read the parameter %r (every parameter is named)" % part.strip())
        params.append(Param(parse_type(where, m.group(1), known), m.group(2)))
    return params


def parse_declaration(header, where, decl, known):
    d = " ".join(decl.split())
    m = re.fullmatch(r"typedef struct (\w+) (\w+)", d)
    if m and m.group(1) == m.group(2):
        header.opaque.append(m.group(1))
        header.order.append(("opaque", m.group(1)))
        return
    m = re.fullmatch(r"typedef (.+?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)", d)
    if m:
        header.fn_types[m.group(2)] = Signature(parse_type(where, m.group(1), known),
                                                parse_params(where, m.group(3), known))
        header.order.append(("fn_type", m.group(2)))
        return
    m = re.fullmatch(r"typedef struct (\w+) \{(.*)\} (\w+)", d)
    if m and m.group(1) == m.group(3):
        fields = []
        for part in m.group(2).split(";"):
            if not part.strip():
                continue
            fm = re.fullmatch(r"\s*(.+?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)\s*", part)
            if fm:
                fields.append(Field(fm.group(2), signature=Signature(parse_type(where, fm.group(1), known),
                                                                      parse_params(where, fm.group(3), known))))
                continue
            fm = re.fullmatch(r"\s*(.*?[\s*])([A-Za-z_]\w*)\s*", part)
            if not fm:
                die(where, "cannot read the field %r of %s (a type and a name, or a function pointer; "
                           "no arrays, no bit fields)" % (part.strip(), m.group(1)))
            fields.append(Field(fm.group(2), parse_type(where, fm.group(1), known)))
        header.structs[m.group(1)] = Struct(m.group(1), fields)
        header.order.append(("struct", m.group(1)))
        return
    m = re.fullmatch(r"(.+?[\s*])(idlelock_\w+)\s*\((.*)\)", d)
    if m and not d.startswith("typedef"):
        header.functions.append((m.group(2), Signature(parse_type(where, m.group(1), known),
                                                       parse_params(where, m.group(3), known))))
        return
    die(where, "cannot read the declaration %r: the header declares only `typedef struct X X;`, "
               "`typedef struct X { fields } X;`, `typedef R (*name)(params);` and functions `R idlelock_*(params);`"
        % d)


def parse_header(path=HEADER):
    header = Header()
    text = read(path)
    header.text = text
    masked, spans = mask_comments(text)
    if "//" in masked:
        die(path, "a // comment outside /* */: the header uses /* */ comments only")
    lines = masked.split("\n")
    offsets = []
    at = 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1
    kept = []  # the lines of declarations (others blanked)
    in_cplusplus = False
    group, run_end = "", -1  # the current run of #defines: its comment, its last line
    for number, line in enumerate(lines, 1):
        where = "%s:%d" % (path, number)
        stripped = line.strip()
        if in_cplusplus:
            if stripped == "#endif":
                in_cplusplus = False
            elif stripped not in ('extern "C" {', "}", ""):
                die(where, "unexpected line in the C++ guard: %r" % stripped)
            kept.append("")
            continue
        if not stripped.startswith("#"):
            kept.append(line)
            continue
        kept.append("")
        m = re.fullmatch(r"#\s*define\s+(\w+)\s+(.+)", stripped)
        if m and m.group(1) != "IDLELOCK_H":
            name, expr = m.group(1), m.group(2).strip()
            if not name.startswith("IDLELOCK_"):
                die(where, "#define %s: every constant is IDLELOCK_*" % name)
            doc, last = "", number
            line_start = offsets[number - 1]
            for start, end in spans:
                if line_start <= start < line_start + len(line) + 1:
                    comment = text[start:end]
                    if not comment.startswith("/**<"):
                        die(where, "the comment after #define %s is not a /**< */ comment" % name)
                    doc, last = clean_doc(comment), text.count("\n", 0, end) + 1
                elif end <= line_start and text[end:line_start].strip() == "" and text[start:start + 4] in ("/** ", "/**\n"):
                    group = clean_doc(text[start:end])  # a /** */ right above: a new run
                    run_end = number - 1
            if run_end != number - 1:
                group = ""  # not right below the run before: a run with no comment
            kind, value = evaluate(where, name, expr)
            if header.constant(name):
                die(where, "#define %s twice" % name)
            header.constants.append(Constant(name, expr, kind, value, doc, group))
            run_end = last
            continue
        if stripped == "#ifdef __cplusplus":
            in_cplusplus = True
            continue
        if not any(re.fullmatch(p, stripped) for p in ALLOWED_DIRECTIVES):
            die(where, "unexpected preprocessor line %r: the header has only its include guard, "
                       "<stddef.h>, <stdint.h>, the C++ guard and object-like #define IDLELOCK_*" % stripped)
    body = "\n".join(kept)
    # Declarations: split at each ';' outside braces.
    depth, start = 0, 0
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            decl = body[start:i]
            where = "%s:%d" % (path, body.count("\n", 0, start + len(decl) - len(decl.lstrip())) + 1)
            parse_declaration(header, where, decl, header.typedef_names())
            start = i + 1
    if body[start:].strip():
        die(path, "text after the last declaration: %r" % body[start:].strip()[:60])
    if not header.functions or not header.structs:
        die(path, "no functions or no structs found: is this include/idlelock.h?")
    for name in header.structs:
        for f in header.structs[name].fields:
            if f.signature is None and f.type.base == "void" and not f.type.pointers:
                die(path, "%s.%s is void" % (name, f.name))
    return header


# -- the core's lifecycle table ------------------------------------------------


def parse_lifecycle(header, path=LIFECYCLE):
    """[(IDLELOCK_PLATFORM_* constant, [(state name, event)])] in the
    header's order of the platforms."""
    text = read(path)
    m = re.search(r"enum LifecyclePlatform: Int32[^{]*\{(.*?)\n\}", text, re.S)
    if not m:
        die(path, "no `enum LifecyclePlatform: Int32 { ... }`")
    cases = {}
    for line in m.group(1).split("\n"):
        cm = re.fullmatch(r"\s*case (\w+) = (\d+)\s*", line)
        if cm:
            cases[cm.group(1)] = int(cm.group(2))
    m = re.search(r"static let table: \[[^\]]*\] = \[\n(.*?)\n\s*\]\n", text, re.S)
    if not m:
        die(path, "no `static let table: [...] = [ ... ]`")
    rows = {}
    for number, line in enumerate(m.group(1).split("\n")):
        if not line.strip():
            continue
        rm = re.fullmatch(r'\s*\(\.(\w+), "([A-Za-z_]+)", \.(foreground|inactive|background|none)\),\s*', line)
        if not rm or rm.group(1) not in cases:
            die(path, "cannot read the table's row %r: (.<LifecyclePlatform case>, \"name\", .<event>)," % line.strip())
        rows.setdefault(cases[rm.group(1)], []).append((rm.group(2), rm.group(3)))
    platforms = [c for c in header.constants if c.short.startswith("PLATFORM_")]
    if sorted(c.value for c in platforms) != sorted(cases.values()) or set(rows) != set(cases.values()):
        die(path, "its platforms (%s) are not the header's IDLELOCK_PLATFORM_* (%s), each with names"
            % (sorted(cases.values()), sorted(c.value for c in platforms)))
    return [(c, rows[c.value]) for c in platforms]


# -- bindings/names.txt --------------------------------------------------------


def parse_names(header, path=NAMES):
    """{section: (columns, {C name: {column: cell}})}, each row checked
    against the header."""
    sections = {}
    section = None
    for number, raw in enumerate(read(path).split("\n"), 1):
        where = "%s:%d" % (path, number)
        line = "" if raw.lstrip().startswith("#") else raw.rstrip()
        if not line.strip():
            continue
        m = re.fullmatch(r"\[(.+)\]", line.strip())
        if m:
            section = m.group(1)
            if section in sections:
                die(where, "[%s] twice" % section)
            sections[section] = (None, {})
            continue
        if section is None:
            die(where, "a row before the first [section]")
        cells = [c.strip() for c in line.split("|")]
        columns, rows = sections[section]
        if columns is None:
            sections[section] = (cells, rows)
            continue
        if len(cells) != len(columns):
            die(where, "%d cells, [%s] has %d columns (%s)" % (len(cells), section, len(columns), " | ".join(columns)))
        if cells[0] in rows:
            die(where, "%s twice in [%s]" % (cells[0], section))
        rows[cells[0]] = dict(zip(columns[1:], cells[1:]))
        rows[cells[0]]["_where"] = where
    expected = {"functions", "fields", "constants", "families", "statuses without a snapshot", "bounds", "types",
                "parameter types", "values"}
    if set(sections) != expected:
        die(path, "its sections are %s; expected %s" % (sorted(sections), sorted(expected)))
    names = {k: v[1] for k, v in sections.items()}
    functions = dict(header.functions)
    fields = {f.name for s in header.structs.values() for f in s.fields}
    params = {p.name for _, sig in header.functions for p in sig.params}
    for name, row in names["functions"].items():
        if name not in functions:
            die(row["_where"], "%s is no function of the header" % name)
    for name, row in names["fields"].items():
        if name not in fields | params:
            die(row["_where"], "%s is no field or parameter of the header" % name)
    for name, row in names["constants"].items():
        if not header.constant(name):
            die(row["_where"], "%s is no constant of the header" % name)
    for name, row in names["families"].items():
        if not name.endswith("_*") or not any(c.name.startswith(name[:-1]) for c in header.constants):
            die(row["_where"], "%s names no constants of the header (IDLELOCK_<FAMILY>_*)" % name)
    for name, row in names["statuses without a snapshot"].items():
        if not name.startswith("IDLELOCK_ERR_") or not header.constant(name):
            die(row["_where"], "%s is no IDLELOCK_ERR_* of the header" % name)
    for name, row in names["values"].items():
        if name not in functions or not functions[name].ret.is_("int"):
            die(row["_where"], "%s is no function of the header that returns int" % name)
    for name, row in names["bounds"].items():
        if not row["value"].isdigit() or row["phrase in the header"] not in header.text:
            die(row["_where"], "the header does not say %r: is %s still %s? Fix the row"
                % (row["phrase in the header"], name, row["value"]))
    for name, row in names["types"].items():
        base, _, field = name.partition(".")
        if base not in header.typedef_names() or (field and field not in {f.name for f in header.structs[base].fields}):
            die(row["_where"], "%s is no type of the header" % name)
    for name in header.typedef_names():
        if name not in names["types"]:
            die(path, "[types] has no row for the header's %s" % name)
    for name, row in names["parameter types"].items():
        parts = name.split(".")
        ok = False
        if len(parts) == 2 and parts[0] in functions:
            ok = parts[1] in {p.name for p in functions[parts[0]].params}
        elif len(parts) == 3 and parts[0] in header.structs:
            sig = {f.name: f.signature for f in header.structs[parts[0]].fields}.get(parts[1])
            ok = sig is not None and parts[2] in {p.name for p in sig.params}
        if not ok:
            die(row["_where"], "%s is no parameter of the header" % name)
    return names


# -- the model every emitter uses ----------------------------------------------


class Model:
    def __init__(self):
        self.header = parse_header()
        self.lifecycle = parse_lifecycle(self.header)
        self.names = parse_names(self.header)
        h = self.header
        self.families = {}  # constant name -> (family prefix without "_*", member suffix)
        for prefix in self.names["families"]:
            p = prefix[:-1]
            for c in h.constants:
                if c.name.startswith(p) and c.name not in self.names["constants"]:
                    if re.search(r"_(MIN|MAX|BYTES|MS)$", c.name):
                        die(NAMES, "%s would be a member of %s, but its name is a limit's: name it in [constants]"
                            % (c.name, prefix))
                    self.families[c.name] = (prefix[:-2], c.name[len(p):])
        self.statuses = [c for c in h.constants if c.name == "IDLELOCK_OK" or c.name.startswith("IDLELOCK_ERR_")]
        self.versions = [c for c in h.constants if c.short.startswith("VERSION_")]
        # Constants that are neither a family member, a status nor a version: limits and sentinels.
        self.plain = [c for c in h.constants
                      if c.name not in self.families and c not in self.statuses and c not in self.versions]
        self.bounds = [(name, int(row["value"])) for name, row in self.names["bounds"].items()]

    def version(self, short):
        return self.header.constant("IDLELOCK_VERSION_" + short).value

    def family_members(self, prefix):
        return [c for c in self.header.constants if self.families.get(c.name, (None,))[0] == prefix[:-2]]

    def bound_type(self, name, kind):
        """The type a binding gives a limit: the type of the config or
        struct field it bounds (GRACE_MAX_MS: grace_ms, int64; KDF_OPSLIMIT_MIN:
        kdf_opslimit, uint64), else its expression's. "int32", "int64",
        "uint64" or "string"."""
        if kind == "string":
            return "string"
        m = re.fullmatch(r"(\w+?)_(?:MIN|MAX)(_MS)?", name)
        if m:
            field = (m.group(1) + (m.group(2) or "")).lower()
            for s in self.header.structs.values():
                for f in s.fields:
                    if f.name == field and f.signature is None and f.type.pointers == 0:
                        return {"int32_t": "int32", "int64_t": "int64", "uint64_t": "uint64",
                                "uint32_t": "int64", "size_t": "uint64"}.get(f.type.base, "int32")
        return {"int": "int32"}.get(kind, kind)

    def snapshot_slots(self):
        return [f for f in self.header.structs["idlelock_snapshot"].data_fields()]

    def config_slots(self):
        """The config's integer fields, in order: what a binding sets by number."""
        return [f for f in self.header.structs["idlelock_config"].data_fields()
                if f.signature is None and f.type.pointers == 0 and f.type.base in ("int32_t", "int64_t", "uint64_t")]

    def is_status_function(self, name, sig):
        return sig.ret.is_("int") and name not in self.names["values"]

    def status_class(self, constant, language):
        suffix = pascal(constant.short[len("ERR_"):])
        return suffix + ("Error" if language == "Python" else "Exception")

    def has_snapshot(self, constant):
        return constant.name not in self.names["statuses without a snapshot"]

    def type_name(self, c_name, language):
        cell = self.names["types"][c_name][language]
        return c_name if cell == "-" else cell

    def parameter_type(self, where, language):
        row = self.names["parameter types"].get(where)
        return None if row is None or row[language] == "-" else row[language]

    def message_names(self, language):
        """C name -> this binding's name, for the library's messages:
        functions, fields and parameters, constants (the rules of
        bindings/names.txt, then its rows)."""
        out = {}
        for name, row in self.names["functions"].items():
            if row[language] != "-":
                out[name] = row[language]
        for name, value in self.field_names(language).items():
            out[name] = value
        for c in self.header.constants:
            value = self.constant_name(c, language)
            if value is not None and value != c.name:
                out[c.name] = value
        for prefix, row in self.names["families"].items():
            if row.get(language, "-") != "-":
                out[prefix] = row[language]
        return out

    def field_names(self, language):
        """The names of fields and parameters: the rule, then
        bindings/names.txt's [fields]."""
        out = {}
        h = self.header

        def put(name, value):
            if value != name and out.get(name, value) != value:
                die(NAMES, "the rule names %s both %r and %r in %s: add it to [fields]" % (name, out[name], value, language))
            if value != name:
                out[name] = value

        rule_structs = ("idlelock_config", "idlelock_snapshot", "idlelock_delay_step")
        if language == "Java":
            for s in rule_structs:
                for f in h.structs[s].data_fields():
                    put(f.name, camel(f.name))
            for _, sig in h.functions:
                for p in sig.params:
                    put(p.name, camel(p.name))
        elif language == "C#":
            for f in h.structs["idlelock_config"].data_fields() + h.structs["idlelock_delay_step"].data_fields():
                put(f.name, pascal(f.name))
            for f in h.structs["idlelock_snapshot"].data_fields():
                put(f.name, "Snapshot." + pascal(f.name))
            for f in h.structs["idlelock_authenticator"].data_fields():
                if f.signature is not None:
                    put(f.name, "IAuthenticator." + pascal(f.name))
            for _, sig in h.functions:
                for p in sig.params:
                    if p.name not in out:
                        put(p.name, camel(p.name))
        for name, row in self.names["fields"].items():
            if row[language] != "-":
                out[name] = row[language]
        return out

    def constant_name(self, c, language):
        """The name of a constant: [constants], the family rule, the
        plain rule; None where the binding keeps the C name."""
        row = self.names["constants"].get(c.name)
        if row is not None and row[language] != "-":
            return row[language]
        if c.name in self.families:
            prefix, member = self.families[c.name]
            family = self.names["families"][prefix + "_*"].get(language, "-")
            if family == "-":
                return None
            return family + "." + (pascal(member) if language == "C#" else member)
        if c in self.statuses or c in self.versions:
            return None
        # LuaJIT's rule, idlelock.X, is the module's own code (lua_words).
        return {"Python": None, "Java": "IdleLock." + c.short, "C#": "IdleLock." + pascal(c.short),
                "LuaJIT": None}[language]


# -- emitters ------------------------------------------------------------------


def sorted_names(names):
    """Longest C name first: a name that starts another never wins over it."""
    return sorted(names.items(), key=lambda kv: (-len(kv[0]), kv[0]))


def c_string(s):
    """A string literal of C, Java, C#, Lua and Python alike (the header's
    strings have no control characters)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


CTYPES = {"int": "c_int", "int32_t": "c_int32", "int64_t": "c_int64", "uint8_t": "c_uint8", "uint32_t": "c_uint32",
          "uint64_t": "c_uint64", "size_t": "c_size_t", "char": "c_char"}


def ctypes_type(model, t, next_param=None, override=None):
    """The ctypes type of a C type. `char *` is c_char_p (a NUL-terminated
    string) unless a size_t follows it: then it is a buffer, POINTER(c_char)."""
    if override:
        return override
    if t.pointers == 0:
        if t.base == "void":
            return "None"
        if t.base in model.header.fn_types:
            return model.type_name(t.base, "Python")
        if t.base in CTYPES:
            return CTYPES[t.base]
    if t.base == "void" and t.pointers == 1:
        return "c_void_p"
    if t.base == "char" and t.pointers == 1:
        buffer = next_param is not None and next_param.type.is_("size_t")
        return "POINTER(c_char)" if buffer else "c_char_p"
    if t.base == "idlelock" and t.pointers >= 1:
        inner = "HandleP"
        for _ in range(t.pointers - 1):
            inner = "POINTER(%s)" % inner
        return inner
    inner = model.type_name(t.base, "Python") if t.base in model.header.structs else CTYPES.get(t.base)
    if inner is None:
        die(HEADER, "no ctypes type for %s" % t.c())
    for _ in range(t.pointers):
        inner = "POINTER(%s)" % inner
    return inner


def python_signature(model, where, sig):
    args = []
    for i, p in enumerate(sig.params):
        following = sig.params[i + 1] if i + 1 < len(sig.params) else None
        args.append(ctypes_type(model, p.type, following, model.parameter_type(where + "." + p.name, "Python")))
    return ctypes_type(model, sig.ret), args


def emit_python(model):
    h = model.header
    out = ["# SPDX-License-Identifier: MIT", "# " + BANNER, '"""The C interface as ctypes sees it (include/idlelock.h %s): its'
           % h.constant("IDLELOCK_VERSION_STRING").value,
           "constants, its structs as Structures, its callback types, every function's",
           "restype and argtypes, and the tables the idiomatic layer uses. Private:",
           ':mod:`idlelock._ffi` loads the library and declares the functions."""', "",
           "from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_int, c_int32, c_int64,",
           "                    c_size_t, c_uint8, c_uint32, c_uint64, c_void_p)",
           "from typing import Any, Dict, List, Tuple", ""]

    group = [None]

    def constant(name, c):
        if c.group != group[0]:
            out.extend(([""] if group[0] is not None else []) + wrapped(c.group, "# "))
            group[0] = c.group
        comment = "  # %s" % c.expr if c.kind != "string" and str(c.value) != c.expr else ""
        value = c_string(c.value) if c.kind == "string" else str(c.value)
        out.extend(wrapped(c.doc, "#: "))
        out.append("%s = %s%s" % (name, value, comment))

    for c in h.constants:
        constant(("HEADER_" if c in model.versions else "") + c.short, c)
    out += ["", "# Bounds the header states in its prose."]
    for name, value in model.bounds:
        out.append("%s = %d" % (name, value))
    out += ["", ""]
    for kind, name in h.order:
        py = model.type_name(name, "Python")
        if kind == "opaque":
            out += ["class %s(Structure):" % py, '    """``struct %s`` (opaque: only ever used through a pointer)."""' % name,
                    "", "", "%sP = POINTER(%s)" % (py, py), ""]
        elif kind == "fn_type":
            ret, args = python_signature(model, name, h.fn_types[name])
            out += ["# %s" % name, "%s = CFUNCTYPE(%s)" % (py, ", ".join([ret] + args)), ""]
        else:
            s = h.structs[name]
            for f in s.fields:
                if f.signature is not None:
                    fn = model.type_name(name + "." + f.name, "Python")
                    ret, args = python_signature(model, "%s.%s" % (name, f.name), f.signature)
                    out += ["# %s.%s" % (name, f.name), "%s = CFUNCTYPE(%s)" % (fn, ", ".join([ret] + args))]
            while out[-1] == "":
                out.pop()
            out += ["", "", "class %s(Structure):" % py, '    """Mirror of ``%s``."""' % name, "", "    _fields_ = ["]
            for f in s.fields:
                if f.signature is not None:
                    t = model.type_name(name + "." + f.name, "Python")
                else:
                    t = ctypes_type(model, f.type)
                out.append('        ("%s", %s),' % (f.name, t))
            out += ["    ]", ""]
    out += ["# The mirrors by their C names.", "STRUCTS: Dict[str, Any] = {"]
    out += ['    "%s": %s,' % (n, model.type_name(n, "Python")) for n in h.structs]
    out += ["}", ""]
    out += ["# Every function: (name, restype, argtypes, kind); kind is \"status\" (an",
            "# IDLELOCK_* status), \"string\" (a static C string), \"value\" or \"void\".",
            "FUNCTIONS: List[Tuple[str, Any, List[Any], str]] = ["]
    for name, sig in h.functions:
        ret, args = python_signature(model, name, sig)
        if model.is_status_function(name, sig):
            kind = "status"
        elif sig.ret.is_("char", 1):
            kind = "string"
        elif sig.ret.is_("void"):
            kind = "void"
        else:
            kind = "value"
        out.append('    ("%s", %s, [%s], "%s"),' % (name, ret, ", ".join(args), kind))
    out += ["]", "", "# C name -> Python's, for the library's messages (bindings/names.txt).", "NAMES: Dict[str, str] = {"]
    for k, v in sorted_names(model.message_names("Python")):
        out.append("    %s: %s," % (c_string(k), c_string(v)))
    out += ["}", "", "# Status -> the name of its exception class (errors.py).", "STATUS_CLASSES: Dict[int, str] = {"]
    for c in model.statuses[1:]:
        out.append('    %d: "%s",  # %s' % (c.value, model.status_class(c, "Python"), c.name))
    out += ["}", ""]
    return "\n".join(out)


def java_literal(kind, value):
    if kind == "string":
        return c_string(value)
    if kind in ("int64", "uint64"):
        return "%dL" % value
    return str(value)


def java_doc(lines, indent="    "):
    return [indent + "/** " + lines + " */"] if lines else []


def emit_java_constants(model):
    out = ["// SPDX-License-Identifier: MIT", "// " + BANNER, "package org.idlelock;", "",
           "/**", " * The header's constants ({@code include/idlelock.h}), as {@link IdleLock}",
           " * has them: {@code IdleLock.NEVER}, {@code IdleLock.GRACE_MAX_MS}, ...",
           " */", "interface GeneratedConstants {"]
    for c in model.plain:
        kind = model.bound_type(c.short, c.kind)
        java = {"int32": "int", "int64": "long", "uint64": "long", "string": "String"}[kind]
        out += java_doc("{@code %s}: %s" % (c.name, java_escape(c.description())))
        out.append("    %s %s = %s;" % (java, c.short, java_literal(kind if kind != "int32" else "int", c.value)))
    for name, value in model.bounds:
        kind = model.bound_type(name, "int")
        java = {"int32": "int", "int64": "long", "uint64": "long"}[kind]
        out += java_doc("A bound the header states in its prose.")
        out.append("    %s %s = %s;" % (java, name, java_literal(kind, value)))
    out += java_doc("The header version this package was generated from.")
    out.append("    String HEADER_VERSION = %s;" % c_string(model.header.constant("IDLELOCK_VERSION_STRING").value))
    out += java_doc("{@code IDLELOCK_VERSION_NUMBER} of that header.")
    out.append("    int HEADER_VERSION_NUMBER = %d;" % model.version("NUMBER"))
    out += ["}", ""]
    return "\n".join(out)


def java_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("*/", "*&#47;").replace("@", "{@literal @}")


def emit_java_tables(model):
    out = ["// SPDX-License-Identifier: MIT", "// " + BANNER, "package org.idlelock;", "",
           "/** The header's tables as the binding and its glue (jni/idlelock_jni_generated.h) use them. */",
           "final class GeneratedTables {", "    private GeneratedTables() {}", "",
           "    /** Slots of a snapshot's {@code long[]}, as the glue fills it: idlelock_snapshot's fields in order. */"]
    for i, f in enumerate(model.snapshot_slots()):
        out.append("    static final int SNAP_%s = %d;" % (f.name.upper(), i))
    out += ["    static final int SNAP_FIELDS = %d;" % len(model.snapshot_slots()), "",
            "    /** Slots of the config's numbers, as the glue reads them: idlelock_config's integer fields in order. */"]
    for i, f in enumerate(model.config_slots()):
        out.append("    static final int CFG_%s = %d;" % (f.name.upper(), i))
    out += ["    static final int CFG_FIELDS = %d;" % len(model.config_slots()), "",
            "    /** C name and the binding's, for the library's messages (bindings/names.txt). */",
            "    static final String[][] NAMES = {"]
    for k, v in sorted_names(model.message_names("Java")):
        out.append("        {%s, %s}," % (c_string(k), c_string(v)))
    out += ["    };", "",
            "    /** The exception for a status: its subclass, or IdleLockException for one this binding does not know. */",
            "    static RuntimeException exception(int status, String message, Snapshot snapshot) {",
            "        switch (status) {"]
    for c in model.statuses[1:]:
        args = "message, snapshot" if model.has_snapshot(c) else "message"
        out.append("            case %d: return new %s(%s);" % (c.value, model.status_class(c, "Java"), args))
    out += ["            default: return new IdleLockException(status, message, snapshot);", "        }", "    }", "",
            "    /** The state names of a platform ({@code IDLELOCK_PLATFORM_*}), as the library's table has them; null for another. */",
            "    static String[] lifecycleNames(int platform) {", "        switch (platform) {"]
    for c, rows in model.lifecycle:
        out.append("            case %d: return new String[] {%s};" % (c.value, ", ".join(c_string(n) for n, _ in rows)))
    out += ["            default: return null;", "        }", "    }", "}", ""]
    return "\n".join(out)


def emit_jni(model):
    out = ["/* SPDX-License-Identifier: MIT */", "/* " + BANNER + " */",
           "/* The snapshot as the long[] org.idlelock.Snapshot reads, and the config's",
           " * numbers as IdleLock.Builder sets them: the slots of GeneratedTables.SNAP_*",
           " * and GeneratedTables.CFG_* (included once, by idlelock_jni.c). */", "",
           "#define SNAP_FIELDS %d" % len(model.snapshot_slots()),
           "#define CFG_FIELDS %d" % len(model.config_slots()), "",
           "static void snapshot_slots(jlong *f, const idlelock_snapshot *s)", "{"]
    for i, f in enumerate(model.snapshot_slots()):
        out.append("    f[%d] = (jlong)s->%s;" % (i, f.name))
    out += ["}", "", "/* Sets each field whose bit (1 << slot) is in mask; the others keep config_init's default. */",
            "static void config_from_slots(idlelock_config *cfg, const jlong *num, jint mask)", "{"]
    for i, f in enumerate(model.config_slots()):
        out.append("    if (mask & (1 << %d)) cfg->%s = (%s)num[%d];" % (i, f.name, f.type.base, i))
    out += ["}", ""]
    return "\n".join(out)


CS_KEYWORDS = {"lock", "out", "ref", "in", "params", "string", "object", "base", "event", "fixed", "checked", "operator"}
CS_TYPES = {"int": "int", "int32_t": "int", "int64_t": "long", "uint8_t": "byte", "uint32_t": "uint",
            "uint64_t": "ulong", "size_t": "UIntPtr", "void": "void"}


def cs_param_name(name):
    n = camel(name)
    return "@" + n if n in CS_KEYWORDS else n


def csharp_type(model, t, next_param=None):
    """The P/Invoke type of a parameter (the rules; bindings/names.txt
    [parameter types] has the exceptions)."""
    if t.pointers == 0:
        if t.base in model.header.fn_types:
            return "IntPtr"
        return CS_TYPES[t.base]
    if t.base == "idlelock":
        return "IntPtr" if t.pointers == 1 else "out IntPtr"
    if t.base in model.header.structs and t.pointers == 1:
        return "ref " + model.type_name(t.base, "C#")
    if t.pointers == 2:
        return "out IntPtr"
    if t.base == "char":
        buffer = next_param is not None and next_param.type.is_("size_t")
        return "IntPtr" if buffer else "byte[]"
    if t.base == "uint8_t":
        return "byte[]" if t.const else "[In, Out] byte[]"
    if t.base == "uint64_t":
        return "out ulong"
    if t.base == "size_t":
        return "ref UIntPtr"
    if t.base == "void" and t.pointers == 1:
        return "IntPtr"
    die(HEADER, "no P/Invoke type for a parameter %s: add a rule to csharp_type, or a row to "
                "bindings/names.txt [parameter types]" % t.c())


def csharp_return(t):
    if t.pointers:
        return "IntPtr"
    return CS_TYPES[t.base]


def csharp_field(model, t):
    return "IntPtr" if t.pointers or t.base in model.header.fn_types else CS_TYPES[t.base]


def cs_doc(text, indent):
    return [indent + "/// <summary>%s</summary>" % text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")] if text else []


def emit_csharp(model):
    h = model.header
    out = ["// SPDX-License-Identifier: MIT", "// " + BANNER,
           "// The C ABI as P/Invoke declarations, blittable struct mirrors and delegates",
           "// (Native), IdleLock's constants, and the tables the idiomatic layer uses",
           "// (HeaderTables).",
           "using System;", "using System.Collections.Generic;", "using System.Runtime.InteropServices;", "",
           "namespace LibIdleLock", "{"]
    for kind, name in h.order:
        if kind == "struct":
            s = h.structs[name]
            out += ["    [StructLayout(LayoutKind.Sequential)]", "    internal struct %s" % model.type_name(name, "C#"), "    {"]
            for f in s.fields:
                out.append("        public %s %s;" % ("IntPtr" if f.signature else csharp_field(model, f.type), f.name))
            out += ["    }", ""]
    delegates = [(model.type_name(n, "C#"), n, h.fn_types[n]) for n in h.fn_types]
    for s in h.structs.values():
        for f in s.fields:
            if f.signature is not None:
                delegates.append((model.type_name(s.name + "." + f.name, "C#"), s.name + "." + f.name, f.signature))
    for cs, c, sig in delegates:
        params = ", ".join("%s %s" % (csharp_return(p.type) if p.type.pointers else CS_TYPES.get(p.type.base, "IntPtr"),
                                      cs_param_name(p.name)) for p in sig.params)
        out += ["    // %s" % c, "    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]",
                "    internal delegate %s %s(%s);" % (csharp_return(sig.ret), cs, params)]
    out += ["", "    internal static partial class Native", "    {",
            "        internal const int HeaderVersionNumber = %d;" % model.version("NUMBER"),
            "        internal const int HeaderVersionMajor = %d;" % model.version("MAJOR"),
            "        internal const int HeaderVersionMinor = %d;" % model.version("MINOR"), "",
            "        internal static readonly int %s;" % ", ".join(
                "%sSize = Marshal.SizeOf(typeof(%s))" % (pascal(n[len("idlelock_"):]), model.type_name(n, "C#")) for n in h.structs),
            ""]
    for name, sig in h.functions:
        params = []
        for i, p in enumerate(sig.params):
            following = sig.params[i + 1] if i + 1 < len(sig.params) else None
            t = model.parameter_type(name + "." + p.name, "C#") or csharp_type(model, p.type, following)
            params.append("%s %s" % (t, cs_param_name(p.name)))
        out.append("        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern %s %s(%s);"
                   % (csharp_return(sig.ret), name, ", ".join(params)))
    out += ["    }", "", "    public sealed partial class IdleLock", "    {"]
    cs_types = {"int32": "int", "int64": "long", "uint64": "ulong", "string": "string"}
    for c in model.plain:
        kind = model.bound_type(c.short, c.kind)
        value = c_string(c.value) if kind == "string" else str(c.value) + ("UL" if kind == "uint64" else "")
        out += cs_doc("%s: %s" % (c.name, c.description()), "        ")
        out.append("        public const %s %s = %s;" % (cs_types[kind], pascal(c.short), value))
    for name, value in model.bounds:
        kind = model.bound_type(name, "int")
        out += cs_doc("A bound the header states in its prose.", "        ")
        out.append("        public const %s %s = %d%s;" % (cs_types[kind], pascal(name), value, "UL" if kind == "uint64" else ""))
    out += cs_doc("The header version this assembly was generated from.", "        ")
    out.append("        public const string HeaderVersion = %s;" % c_string(h.constant("IDLELOCK_VERSION_STRING").value))
    out += cs_doc("IDLELOCK_VERSION_NUMBER of that header.", "        ")
    out.append("        public const int HeaderVersionNumber = %d;" % model.version("NUMBER"))
    out += ["    }", "", "    internal static class HeaderTables", "    {",
            "        /// <summary>C name -> the binding's, for the library's messages (bindings/names.txt).</summary>",
            "        internal static readonly Dictionary<string, string> Names = new Dictionary<string, string>", "        {"]
    for k, v in sorted_names(model.message_names("C#")):
        out.append("            { %s, %s }," % (c_string(k), c_string(v)))
    out += ["        };", "",
            "        /// <summary>The exception for a status (1: InvalidArgumentException); IdleLockException for one this binding does not know.</summary>",
            "        internal static Exception ExceptionFor(int status, string message, Snapshot snapshot)", "        {",
            "            switch (status)", "            {"]
    for c in model.statuses[1:]:
        args = "message, snapshot" if model.has_snapshot(c) else "message"
        out.append("                case %d: return new %s(%s);" % (c.value, model.status_class(c, "C#"), args))
    out += ["                default: return new IdleLockException(status, message, snapshot);", "            }", "        }", "",
            "        /// <summary>The state names of a platform (IDLELOCK_PLATFORM_*), as the library's table has them; null for another.</summary>",
            "        internal static string[] LifecycleNames(int platform)", "        {", "            switch (platform)", "            {"]
    for c, rows in model.lifecycle:
        out.append("                case %d: return new[] { %s };" % (c.value, ", ".join(c_string(n) for n, _ in rows)))
    out += ["                default: return null;", "            }", "        }", "    }", "}", ""]
    return "\n".join(out)


def lua_constant(c):
    if c.kind == "string":
        return c_string(c.value)
    if c.kind == "int64":
        return "0x7fffffffffffffffLL" if c.value == 2**63 - 1 else "%dLL" % c.value
    if c.kind == "uint64":
        return "%dULL" % c.value
    return str(c.value)


def cdef(model):
    """The header's declarations, as C spells them (comments and
    preprocessor lines removed, the C++ guard dropped): LuaJIT's ffi.cdef."""
    masked, _ = mask_comments(model.header.text)
    keep, in_cplusplus = [], False
    for line in masked.split("\n"):
        s = line.strip()
        if s == "#ifdef __cplusplus":
            in_cplusplus = True
        elif in_cplusplus:
            in_cplusplus = s != "#endif"
        elif not s.startswith("#") and s:
            keep.append(line.rstrip())
    return "\n".join(keep)


def emit_luajit(model):
    out = ["-- SPDX-License-Identifier: MIT", "-- " + BANNER,
           "-- The build inserts it into idlelock.in.lua (its --@@GENERATED@@ line).",
           "local IDLELOCK_CDEF = [[", cdef(model), "]]", "local IDLELOCK_CONSTANTS = {"]
    for c in model.header.constants:
        out.append("  %s = %s," % (c.name, lua_constant(c)))
    out += ["}", "-- Bounds the header states in its prose.", "local IDLELOCK_BOUNDS = {"]
    for name, value in model.bounds:
        out.append("  %s = %d," % (name, value))
    out += ["}", "-- C name -> this module's, for the library's messages (bindings/names.txt).", "local IDLELOCK_NAMES = {"]
    for k, v in sorted_names(model.message_names("LuaJIT")):
        key = k if re.fullmatch(r"[A-Za-z_]\w*", k) else "[%s]" % c_string(k)
        out.append("  %s = %s," % (key, c_string(v)))
    out += ["}", ""]
    return "\n".join(out)


def swift_case(member):
    name = camel(member)
    if not re.fullmatch(r"[a-z][A-Za-z0-9]*", name):
        die(NAMES, "%s is no Swift case name" % member)
    return name


def emit_swift(model):
    out = ["// SPDX-License-Identifier: MIT", "// " + BANNER,
           "// The header's enumerations as Swift enums whose raw values are the C",
           "// constants, and SwiftUI's scene phases as the library's lifecycle table", "// names them.", ""]
    nested = {}
    for prefix, row in model.names["families"].items():
        swift = row["Swift"]
        if swift == "-":
            continue
        owner, _, name = swift.rpartition(".")
        first = model.family_members(prefix)[0]
        lines = wrapped("`%s`: %s" % (prefix, first.group), "/// ") + ["public enum %s: Int32, Sendable {" % name]
        for c in model.family_members(prefix):
            lines += ["    /// %s" % c.doc] if c.doc else []
            lines.append("    case %s = %d" % (swift_case(model.families[c.name][1]), c.value))
        lines.append("}")
        nested.setdefault(owner, []).append(lines)
    for owner, enums in nested.items():
        if owner:
            out.append("extension %s {" % owner)
        for n, lines in enumerate(enums):
            out += ([""] if n else []) + [("    " if owner else "") + line for line in lines]
        out += ["}", ""] if owner else [""]
    events = {"foreground": "foreground", "inactive": "inactive (visible, not interactive)",
              "background": "background (no longer visible)", "none": "no change of presence"}
    phase = [rows for c, rows in model.lifecycle if c.short == "PLATFORM_IOS_SCENE_PHASE"][0]
    out += ["/// A scene's phase, as SwiftUI's `ScenePhase` names it; the library maps",
            "/// each (`idlelock_lifecycle`, `IDLELOCK_PLATFORM_IOS_SCENE_PHASE`). On Apple",
            "/// platforms `AppPhase(scenePhase)` converts (IdleLockView.swift).",
            "public enum AppPhase: String, Sendable, CaseIterable {"]
    for name, event in phase:
        out += ["    /// The library takes it as %s." % events[event], "    case %s" % swift_case(name)]
    out += ["}", ""]
    return "\n".join(out)


def c_layout(model):
    """(expected lines, C program): every constant's value, every
    struct's size and every field's offset and size on an LP64 target (the
    build host), by the C rules (natural alignment)."""
    h = model.header
    size = {"int": 4, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8, "size_t": 8, "uint8_t": 1, "char": 1}
    expected, body = [], []
    for c in h.constants:
        expected.append("%s %s" % (c.name, c.value))
        if c.kind == "string":
            body.append('    printf("%%s %%s\\n", "%s", %s);' % (c.name, c.name))
        elif c.kind == "uint64":
            body.append('    printf("%%s %%llu\\n", "%s", (unsigned long long)(%s));' % (c.name, c.name))
        else:
            body.append('    printf("%%s %%lld\\n", "%s", (long long)(%s));' % (c.name, c.name))
    for s in h.structs.values():
        offset, align = 0, 1
        for f in s.fields:
            pointer = f.signature is not None or f.type.pointers or f.type.base in h.fn_types
            n = 8 if pointer else size[f.type.base]
            offset = (offset + n - 1) // n * n
            expected.append("%s.%s %d %d" % (s.name, f.name, offset, n))
            body.append('    printf("%%s %%zu %%zu\\n", "%s.%s", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                        % (s.name, f.name, s.name, f.name, s.name, f.name))
            offset += n
            align = max(align, n)
        expected.append("sizeof %s %d" % (s.name, (offset + align - 1) // align * align))
        body.append('    printf("%%s %%zu\\n", "sizeof %s", sizeof(%s));' % (s.name, s.name))
    program = ["/* " + BANNER.replace("do not edit.", "prints the constants and struct layouts as C sees them. */"),
               "#include <stddef.h>", "#include <stdio.h>", '#include "idlelock.h"', "",
               "int main(void)", "{", '    if (sizeof(void *) != 8 || sizeof(size_t) != 8) { puts("not LP64"); return 1; }']
    program += body + ["    return 0;", "}", ""]
    return "\n".join(expected) + "\n", "\n".join(program)


OUTPUTS = [
    ("bindings/python/idlelock/_generated.py", emit_python),
    ("bindings/java/src/org/idlelock/GeneratedConstants.java", emit_java_constants),
    ("bindings/java/src/org/idlelock/GeneratedTables.java", emit_java_tables),
    ("bindings/java/jni/idlelock_jni_generated.h", emit_jni),
    ("bindings/csharp/src/Generated.cs", emit_csharp),
    ("bindings/luajit/idlelock_generated.lua", emit_luajit),
    ("bindings/swift/Sources/IdleLockKit/Generated.swift", emit_swift),
]


def main(argv):
    if argv not in ([], ["--check"]) and not (len(argv) == 2 and argv[0] == "--c-check"):
        sys.exit("usage: gen-bindings.py [--check | --c-check DIR]")
    model = Model()
    if argv and argv[0] == "--c-check":
        os.makedirs(argv[1], exist_ok=True)
        expected, program = c_layout(model)
        for name, text in (("expected.txt", expected), ("check.c", program)):
            with open(os.path.join(argv[1], name), "w", encoding="utf-8") as f:
                f.write(text)
        return
    stale = 0
    for path, emit in OUTPUTS:
        text = emit(model)
        full = os.path.join(ROOT, path)
        old = open(full, encoding="utf-8").read() if os.path.exists(full) else None
        if old == text:
            continue
        if argv:
            print("stale: %s is not what the header gives; run `make gen-bindings` and commit it" % path)
            stale += 1
        else:
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
            print("  GEN      " + path)
    if argv:
        print("%d passed, %d failed" % (len(OUTPUTS) - stale, stale))
        sys.exit(1 if stale else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
