#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# add-license-expression.py NUPKG: adds <license type="expression">MIT</license>
# to the .nuspec inside a package packed by Debian's nuget 2.8.7, whose schema
# predates the element (it refuses it in the nuspec it packs). Every other
# entry is copied unchanged, in order. Fails when the nuspec has no
# <licenseUrl> to put it after, or already has a <license>.
import os
import sys
import zipfile

path = sys.argv[1]
with zipfile.ZipFile(path) as z:
    entries = [(info, z.read(info.filename)) for info in z.infolist()]
nuspecs = [i for i, (info, _) in enumerate(entries)
           if info.filename.endswith(".nuspec") and "/" not in info.filename]
if len(nuspecs) != 1:
    sys.exit("add-license-expression: %s: expected one .nuspec, found %d" % (path, len(nuspecs)))
info, data = entries[nuspecs[0]]
text = data.decode("utf-8")
if "<license " in text or "<license>" in text:
    sys.exit("add-license-expression: %s already has a <license>" % path)
end = text.find("</licenseUrl>")
if end < 0:
    sys.exit("add-license-expression: %s has no <licenseUrl>" % path)
end += len("</licenseUrl>")
line = text[text.rfind("\n", 0, end) + 1:end]
indent = line[:len(line) - len(line.lstrip())]
text = text[:end] + "\n" + indent + '<license type="expression">MIT</license>' + text[end:]
entries[nuspecs[0]] = (info, text.encode("utf-8"))
tmp = path + ".tmp"
with zipfile.ZipFile(tmp, "w") as out:
    for info, data in entries:
        out.writestr(info, data)
os.replace(tmp, path)
