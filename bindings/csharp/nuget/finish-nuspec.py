#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# finish-nuspec.py NUPKG PROJECT_URL COMMIT: adds to the .nuspec inside a
# package packed by Debian's nuget 2.8.7 the metadata its schema predates
# (it refuses them in the nuspec it packs), after <licenseUrl>:
#   <license type="expression">MIT</license>    (NuGet 4.9)
#   <readme>README.md</readme>                   (NuGet 5.10; the file is in the package)
#   <repository type="git" url="PROJECT_URL" commit="COMMIT" />   (NuGet 4.0)
# and it writes the dependency group of netstandard2.0, a framework it
# predates, as targetFramework="Unsupported0.0": that group becomes
# ".NETStandard2.0", as NuGet 3 and later write it. Every other entry is
# copied unchanged, in order. Fails when the nuspec has no <licenseUrl> to
# put them after, already has one of them, or has not exactly one
# unsupported group.
import os
import sys
import zipfile

path, url, commit = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(path) as z:
    entries = [(info, z.read(info.filename)) for info in z.infolist()]
nuspecs = [i for i, (info, _) in enumerate(entries)
           if info.filename.endswith(".nuspec") and "/" not in info.filename]
if len(nuspecs) != 1:
    sys.exit("finish-nuspec: %s: expected one .nuspec, found %d" % (path, len(nuspecs)))
info, data = entries[nuspecs[0]]
text = data.decode("utf-8")
for element in ("license", "readme", "repository"):
    if "<%s " % element in text or "<%s>" % element in text:
        sys.exit("finish-nuspec: %s already has a <%s>" % (path, element))
if "README.md" not in [i.filename for i, _ in entries]:
    sys.exit("finish-nuspec: %s has no README.md for <readme>" % path)
unsupported = '<group targetFramework="Unsupported0.0" />'
if text.count(unsupported) != 1:
    sys.exit("finish-nuspec: %s: expected one %s (lib/netstandard2.0), found %d" % (path, unsupported,
                                                                                   text.count(unsupported)))
text = text.replace(unsupported, '<group targetFramework=".NETStandard2.0" />')
end = text.find("</licenseUrl>")
if end < 0:
    sys.exit("finish-nuspec: %s has no <licenseUrl>" % path)
end += len("</licenseUrl>")
line = text[text.rfind("\n", 0, end) + 1:end]
indent = line[:len(line) - len(line.lstrip())]
added = ['<license type="expression">MIT</license>', "<readme>README.md</readme>",
         '<repository type="git" url="%s" commit="%s" />' % (url, commit)]
text = text[:end] + "".join("\n" + indent + a for a in added) + text[end:]
entries[nuspecs[0]] = (info, text.encode("utf-8"))
tmp = path + ".tmp"
with zipfile.ZipFile(tmp, "w") as out:
    for info, data in entries:
        out.writestr(info, data)
os.replace(tmp, path)
