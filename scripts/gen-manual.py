#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen-manual.py HEADER OUTDIR: the reference manual of libidlelock, made
from the public header alone (`make docs`, mk/docs.mk), as zstd makes
zstd_manual.html from zstd.h and SQLite its C reference from sqlite3.h.

Writes, under OUTDIR:
  idlelock_manual.html        one page: the header's conventions, then each
                              section of the header in order, every function,
                              type and constant with its own anchor
                              (#idlelock_unlock, #idlelock_config, ...)
  man/man3/idlelock.3         idlelock(3): the conventions, every section's
                              rules, and the list of functions, types and
                              constants
  man/man3/<name>.3           one page per function and per type
                              (idlelock_unlock(3), idlelock_config(3), ...)
and removes any other man/man3/idlelock*.3 (a function the header dropped).

What it reads from the header (its layout, which every part keeps):
  - the first comment after the SPDX line: the conventions;
  - a section: a line of dashes in a comment, its title, optionally a blank
    comment line and its rules, and a closing line of dashes;
  - a documentation comment (/** ... */) and the declaration right after
    it: a function prototype, a typedef (struct or function pointer), or a
    run of #define lines (a group of constants, each with an optional
    /**< ... */ after it); inside a struct, each field with its /**< */
    or /** */ comment.
In the comments: a line "- text" (indented one space) starts a list item,
whose continuation lines are indented three; a line indented two spaces is
preformatted (a call sequence); `text` is code. The output depends on
nothing but the header's text: running it twice gives the same bytes.
"""

import html
import os
import re
import sys

header_path, outdir = sys.argv[1], sys.argv[2]
source = open(header_path, encoding="utf-8").read()
lines = source.split("\n")
VERSION = re.search(r'^#define IDLELOCK_VERSION_STRING "([^"]+)"', source, re.M).group(1)
DASHES = re.compile(r"^/\* -{20,} \*/$")


def die(message):
    sys.exit("gen-manual: %s: %s" % (header_path, message))


# -- parsing the header --------------------------------------------------------


def comment_body(block):
    """The text lines of a /* or /** comment (lines of the header), with
    the comment's own marks removed and the indentation relative to the
    text's margin kept."""
    out = []
    for n, line in enumerate(block):
        s = line
        if n == 0:
            s = re.sub(r"^\s*/\*\*?<?\s?", "", s)
        else:
            s = re.sub(r"^\s*\* ?", "", s, count=1) if re.match(r"^\s*\*(?!/)", s) else s.strip()
        s = re.sub(r"\s*\*/\s*$", "", s)
        out.append(s.rstrip())
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    return out


def banner_body(block):
    """The text lines of a section's banner: each line is /* text */."""
    out = []
    for line in block:
        m = re.match(r"^/\* ?(.*?)\s*\*/$", line)
        out.append(m.group(1).rstrip() if m else line)
    return out


class Decl:
    def __init__(self, kind, name, doc, code):
        self.kind = kind          # "function", "struct", "typedef", "constants"
        self.name = name          # the anchor; a constant group: its first name
        self.doc = doc            # comment text lines
        self.code = code          # the declaration as the header writes it
        self.fields = []          # struct: (name, declaration, doc lines) or ("", note, [])
        self.constants = []       # constants: (name, value, doc lines)
        self.section = None


class Section:
    def __init__(self, title, prose):
        self.title = title
        self.prose = prose
        self.decls = []
        self.anchor = "section-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def read_comment(i):
    """The comment that starts at line i: (its lines, the line after it)."""
    j = i
    first = lines[i][lines[i].index("/*") + 2:]
    if "*/" not in first:
        j += 1
        while "*/" not in lines[j]:
            j += 1
    return lines[i:j + 1], j + 1


def trailing_doc(i):
    """A /**< comment that starts on line i after a declaration, with its
    continuation lines: (its text lines, the line after it)."""
    line = lines[i]
    k = line.find("/**<")
    if k < 0:
        return [], i + 1
    block = [line[k:]]
    j = i
    while "*/" not in lines[j][k if j == i else 0:]:
        j += 1
        block.append(lines[j])
    return comment_body(block), j + 1


def parse():
    i = 0
    if not lines[0].startswith("/* SPDX"):
        die("the first line is not the SPDX comment")
    i = 1
    block, i = read_comment(i)
    overview = comment_body(block)
    sections = []
    current = Section("", [])
    pending = None        # a /** comment waiting for its declaration
    while i < len(lines):
        line = lines[i]
        if DASHES.match(line):
            j = i + 1
            while j < len(lines) and not DASHES.match(lines[j]):
                j += 1
            body = banner_body(lines[i + 1:j])
            title = body[0].strip()
            prose = body[1:]
            while prose and not prose[0].strip():
                prose.pop(0)
            current = Section(title, prose)
            sections.append(current)
            i = j + 1
            continue
        if line.lstrip().startswith("/**") and not line.lstrip().startswith("/**<"):
            block, i = read_comment(i)
            pending = comment_body(block)
            continue
        if line.startswith("#define"):
            if pending is None:
                i += 1            # the include guard
                continue
            decl = Decl("constants", None, pending, [])
            while i < len(lines) and lines[i].startswith("#define"):
                m = re.match(r"^#define (\w+)\s+(.*?)\s*(/\*\*<.*)?$", lines[i])
                if not m:
                    die("cannot read the #define on line %d" % (i + 1))
                doc, i = trailing_doc(i)
                decl.constants.append((m.group(1), m.group(2), doc))
                decl.code.append("#define %s %s" % (m.group(1), m.group(2)))
            decl.name = decl.constants[0][0]
            add(current, decl)
            pending = None
            continue
        if pending is not None and line.strip() and not line.startswith("#") and not line.startswith("/*"):
            decl, i = read_declaration(i, pending)
            add(current, decl)
            pending = None
            continue
        i += 1
    return overview, sections


def add(section, decl):
    decl.section = section
    section.decls.append(decl)


def read_declaration(i, doc):
    """The declaration at line i, after its /** comment."""
    if re.match(r"^typedef struct \w+ \{", lines[i]):
        name = re.match(r"^typedef struct (\w+)", lines[i]).group(1)
        decl = Decl("struct", name, doc, [])
        code = [lines[i]]
        i += 1
        field_doc = None
        while not lines[i].startswith("}"):
            line = lines[i]
            s = line.strip()
            if s.startswith("/**") and not s.startswith("/**<"):
                block, i = read_comment(i)
                field_doc = comment_body(block)
                continue
            if s.startswith("/*"):
                block, i = read_comment(i)
                note = " ".join(x.strip() for x in comment_body(block)).strip(" -")
                decl.fields.append(("", note, []))
                code.append("    /* " + note + " */")
                continue
            if not s:
                i += 1
                continue
            # A field: its declaration may span lines (a callback's prototype).
            j = i
            text = line.split("/**<")[0].rstrip()
            while not text.rstrip().endswith(";"):
                j += 1
                text += " " + lines[j].split("/**<")[0].strip()
            text = re.sub(r"\s+", " ", text.strip())
            m = re.search(r"(\w+)\s*;$", text) or re.search(r"\(\s*\*\s*(\w+)\s*\)", text)
            if not m:
                die("cannot find the field's name on line %d" % (i + 1))
            if "/**<" in lines[j]:
                fdoc, i = trailing_doc(j)
            else:
                fdoc, i = field_doc or [], j + 1
            field_doc = None
            decl.fields.append((m.group(1), text, fdoc))
            code.append("    " + text)
        if lines[i].strip() != "} %s;" % name:
            die("struct %s does not end with '} %s;' (line %d)" % (name, name, i + 1))
        code.append(lines[i].strip())
        decl.code = code
        return decl, i + 1
    # A prototype or a one-statement typedef: up to its semicolon.
    j = i
    text = lines[i].strip()
    while not text.endswith(";"):
        j += 1
        text += " " + lines[j].strip()
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\(\s+", "(", text)
    if text.startswith("typedef"):
        m = re.search(r"\(\*\s*(\w+)\)", text) or re.search(r"(\w+);$", text)
        return Decl("typedef", m.group(1), doc, [text]), j + 1
    m = re.search(r"\b(idlelock_\w+)\(", text)
    if not m:
        die("cannot read the declaration on line %d" % (i + 1))
    return Decl("function", m.group(1), doc, [text]), j + 1


overview, sections = parse()
# The conventions: the header's first comment after its title paragraph
# ("idlelock.h: the C interface of ...").
conventions = overview
if overview and overview[0].startswith("idlelock.h:") and "" in overview:
    conventions = overview[overview.index("") + 1:]
decls = [d for s in sections for d in s.decls]
functions = [d for d in decls if d.kind == "function"]
types = [d for d in decls if d.kind in ("struct", "typedef")]
if not functions:
    die("found no function")
anchors = {d.name: d for d in decls}
for d in decls:
    for name, _, _ in d.constants:
        anchors.setdefault(name, d)


# -- the comment text as blocks ------------------------------------------------


def blocks(text_lines):
    """Paragraphs, lists and preformatted lines: [("p", text), ("ul",
    [text, ...]), ("pre", [line, ...])]."""
    out = []          # [kind, body]
    para = []
    item = None       # the list item being read: its lines

    def close_item():
        nonlocal item
        if item is not None:
            out[-1][1].append(" ".join(item))
            item = None

    def close_para():
        nonlocal para
        if para:
            out.append(["p", " ".join(para)])
            para = []

    list_open = False
    for raw in text_lines:
        indent = len(raw) - len(raw.lstrip(" "))
        s = raw.strip()
        if not s:
            close_item()
            close_para()
            continue
        if indent <= 1 and s.startswith("- "):
            close_item()
            close_para()
            if not (list_open and out and out[-1][0] == "ul"):
                out.append(["ul", []])
            list_open = True
            item = [s[2:]]
            continue
        if item is not None and indent >= 2:
            item.append(s)
            continue
        close_item()
        if indent >= 2 and not para:
            if out and out[-1][0] == "pre" and list_open is None:
                out[-1][1].append(raw[2:])
            else:
                out.append(["pre", [raw[2:]]])
            list_open = None      # in a preformatted block
            continue
        list_open = False
        para.append(s)
    close_item()
    close_para()
    return [(k, b) for k, b in out]


def first_sentence(doc):
    text = " ".join(x.strip() for x in doc).strip()
    depth = 0
    for k, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "." and depth == 0 and (k + 1 == len(text) or text[k + 1] == " "):
            return text[:k]
    return text


# -- HTML ----------------------------------------------------------------------

IDENT = re.compile(r"\b(idlelock_\w+|IDLELOCK_\w+)\b")


def html_inline(text, here=None):
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        code = part.startswith("`") and part.endswith("`") and len(part) > 1
        body = html.escape(part[1:-1] if code else part, quote=False)
        body = IDENT.sub(lambda m: ('<a href="#%s">%s</a>' % (m.group(1), m.group(1))
                                    if m.group(1) in anchors and m.group(1) != here else m.group(1)), body)
        out.append("<code>%s</code>" % body if code else body)
    return "".join(out)


def html_blocks(text_lines, here=None):
    out = []
    for kind, body in blocks(text_lines):
        if kind == "p":
            out.append("<p>%s</p>" % html_inline(body, here))
        elif kind == "ul":
            out.append("<ul>\n%s\n</ul>" % "\n".join("<li>%s</li>" % html_inline(x, here) for x in body))
        else:
            out.append("<pre>%s</pre>" % html.escape("\n".join(body), quote=False))
    return "\n".join(out)


def html_code(code_lines):
    return "<pre class=\"decl\"><code>%s</code></pre>" % html.escape("\n".join(code_lines), quote=False)


def write_html(path):
    title = "libidlelock %s manual" % VERSION
    o = []
    o.append("<!DOCTYPE html>")
    o.append("<!-- Made from include/idlelock.h by scripts/gen-manual.py (make docs): edit the header. -->")
    o.append('<html lang="en">')
    o.append("<head>")
    o.append('<meta charset="utf-8">')
    o.append("<title>%s</title>" % title)
    o.append("<style>body{max-width:52em;margin:2em auto;padding:0 1em;font-family:sans-serif;line-height:1.45}"
             "pre{background:#f6f6f6;padding:.5em;overflow-x:auto}pre.decl{border-left:3px solid #888}"
             "h3{margin-top:2em}dt{font-family:monospace;font-weight:bold}dd{margin-bottom:.6em}"
             "table{border-collapse:collapse}td{border-top:1px solid #ddd;padding:.2em .5em;vertical-align:top}"
             "</style>")
    o.append("</head>")
    o.append("<body>")
    o.append("<h1>%s</h1>" % title)
    o.append("<p>Generated from <code>include/idlelock.h</code> (<code>make docs</code>); the header is "
             "the specification, and this page is its text. Man pages of the same text: "
             "<code>man 3 idlelock</code>, <code>man idlelock_unlock</code>, ...</p>")
    o.append('<h2 id="contents">Contents</h2>')
    o.append("<ol>")
    o.append('<li><a href="#conventions">Conventions</a></li>')
    for s in sections:
        names = [d.name for d in s.decls if d.kind != "constants"]
        sub = ""
        if names:
            sub = "\n<ul>\n%s\n</ul>\n" % "\n".join('<li><a href="#%s">%s</a></li>' % (n, n) for n in names)
        o.append('<li><a href="#%s">%s</a>%s</li>' % (s.anchor, html.escape(s.title), sub))
    o.append("</ol>")
    o.append('<h2 id="conventions">Conventions</h2>')
    o.append(html_blocks(conventions))
    for s in sections:
        o.append('<h2 id="%s">%s</h2>' % (s.anchor, html.escape(s.title)))
        if s.prose:
            o.append(html_blocks(s.prose))
        for d in s.decls:
            if d.kind == "constants":
                o.append('<h3 id="%s">%s</h3>' % (d.name, html.escape(first_sentence(d.doc))))
                o.append(html_blocks(d.doc))
                o.append("<table>")
                for name, value, doc in d.constants:
                    anchor = ' id="%s"' % name if name != d.name else ""
                    o.append("<tr%s><td><code>%s</code></td><td><code>%s</code></td><td>%s</td></tr>"
                             % (anchor, name, html.escape(value, quote=False),
                                html_inline(" ".join(x.strip() for x in doc), name)))
                o.append("</table>")
                continue
            o.append('<h3 id="%s">%s</h3>' % (d.name, d.name))
            o.append(html_code(d.code))
            o.append(html_blocks(d.doc, d.name))
            if d.fields:
                o.append("<dl>")
                for name, text, doc in d.fields:
                    if not name:
                        o.append("<dt>%s</dt><dd></dd>" % html.escape(text))
                        continue
                    o.append('<dt id="%s.%s">%s</dt>' % (d.name, name, html.escape(text)))
                    o.append("<dd>%s</dd>" % html_inline(" ".join(x.strip() for x in doc), d.name))
                o.append("</dl>")
    o.append("</body>")
    o.append("</html>")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(o) + "\n")


# -- man pages -----------------------------------------------------------------


def roff_escape(text):
    text = text.replace("\\", "\\e")
    text = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)
    return text


def roff_inline(text):
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append("\\fB%s\\fP" % roff_escape(part[1:-1]))
        else:
            out.append(IDENT.sub(lambda m: "\\fB%s\\fP" % m.group(1), roff_escape(part)))
    line = "".join(out)
    if line.startswith(".") or line.startswith("'"):
        line = "\\&" + line
    return line


def roff_blocks(text_lines):
    out = []
    for kind, body in blocks(text_lines):
        if kind == "p":
            out += [".PP", roff_inline(body)]
        elif kind == "ul":
            for x in body:
                out += [".IP \\(bu 2", roff_inline(x)]
        else:
            out += [".PP", ".nf", ".RS 2"] + ["\\&" + roff_escape(x) for x in body] + [".RE", ".fi"]
    return out


def roff_code(code_lines):
    return [".nf", ".RS 2"] + ["\\&" + roff_escape(x) for x in code_lines] + [".RE", ".fi"]


def th(name):
    # .nh, .ad l: no hyphenation, ragged right (names like
    # IDLELOCK_ERR_INVALID_ARGUMENT are not split).
    return ('.\\" Made from include/idlelock.h by scripts/gen-manual.py (make docs): edit the header.\n'
            '.TH %s 3 "" "libidlelock %s" "libidlelock manual"\n.nh\n.ad l' % (name.upper(), VERSION))


SYNOPSIS_HEAD = [".SH SYNOPSIS", ".nf", ".B #include <idlelock.h>", ".fi", ".PP",
                 "Link with \\fB\\-lidlelock\\fP (\\fBpkg\\-config \\-\\-cflags \\-\\-libs idlelock\\fP)."]


def fields_roff(d):
    out = []
    for name, text, doc in d.fields:
        if not name:
            out += [".PP", roff_inline(text)]
            continue
        out += [".TP", "\\fB%s\\fP" % roff_escape(name), roff_inline(" ".join(x.strip() for x in doc))]
    return out


def section_roff(s):
    if not s.prose:
        return []
    return ['.SH "RULES OF THIS PART OF THE HEADER: %s"' % roff_escape(s.title.upper().replace('"', ""))] + \
        roff_blocks(s.prose)


def see_also(d):
    related = [x.name for x in d.section.decls if x.kind != "constants" and x.name != d.name]
    names = ["idlelock"] + related
    return [".SH SEE ALSO", ",\n".join(".BR %s (3)" % roff_escape(n) for n in names),
            ".PP", "The same text as one page: \\fIidlelock_manual.html\\fP."]


def page_for(d):
    o = [th(d.name), ".SH NAME", "%s \\- %s" % (roff_escape(d.name), roff_inline(first_sentence(d.doc)))]
    o += SYNOPSIS_HEAD
    o += [".PP"] + roff_code(d.code)
    o += [".SH DESCRIPTION"] + roff_blocks(d.doc)
    if d.fields:
        o += [".SH FIELDS"] + fields_roff(d)
    o += section_roff(d.section)
    o += see_also(d)
    return o


def overview_page():
    o = [th("idlelock"), ".SH NAME",
         "idlelock \\- the C interface of libidlelock, an idle lock for signed\\-in sessions"]
    o += SYNOPSIS_HEAD
    o += [".SH DESCRIPTION"] + roff_blocks(conventions)
    for s in sections:
        o += ['.SH "%s"' % roff_escape(s.title.upper().replace('"', ""))]
        o += roff_blocks(s.prose)
        for d in s.decls:
            if d.kind == "constants":
                o += [".PP"] + roff_blocks(d.doc)[1:]
                for name, value, doc in d.constants:
                    o += [".TP", "\\fB%s\\fP %s" % (name, roff_escape(value))]
                    o += [roff_inline(" ".join(x.strip() for x in doc))] if doc else ["\\&"]
            else:
                o += [".TP", ".BR %s (3)" % d.name, roff_inline(first_sentence(d.doc) + ".")]
    o += [".SH SEE ALSO", "\\fIidlelock_manual.html\\fP (the same text as one page), and the guides of the",
          "source tree's \\fIdocs/\\fP folder."]
    return o


def write_man(folder):
    os.makedirs(folder, exist_ok=True)
    written = set()

    def put(name, page):
        path = os.path.join(folder, name + ".3")
        with open(path, "w", encoding="ascii", newline="\n") as f:
            f.write("\n".join(page) + "\n")
        written.add(name + ".3")

    put("idlelock", overview_page())
    for d in functions + types:
        if d.name != "idlelock":      # the opaque handle: idlelock(3) itself
            put(d.name, page_for(d))
    for old in sorted(os.listdir(folder)):
        if old.startswith("idlelock") and old.endswith(".3") and old not in written:
            os.remove(os.path.join(folder, old))


os.makedirs(outdir, exist_ok=True)
write_html(os.path.join(outdir, "idlelock_manual.html"))
write_man(os.path.join(outdir, "man", "man3"))
