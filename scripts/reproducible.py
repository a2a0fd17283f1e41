#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""reproducible.py: makes a built artifact depend on its contents only, so
that the same commit gives the same bytes (SOURCE_DATE_EPOCH, as
reproducible-builds.org defines it: every time stamp is that moment).

  reproducible.py zip ARCHIVE [--first NAME]... [--last-dir PREFIX]
      Rewrites a zip (a jar, a wheel, a nupkg, a rock) in place: entries in
      name order (the --first names first, in the order given: a jar's
      META-INF/MANIFEST.MF; entries under --last-dir last, its RECORD the
      very last: a wheel's .dist-info), each dated SOURCE_DATE_EPOCH (UTC),
      mode 0644, or 0755 when it was executable by its owner (folders
      0755), made on Unix, no extra field, no comment, deflated at level 9
      (stored entries stay stored). The contents are not touched, so a
      wheel's RECORD and a rock's manifest stay true.
  reproducible.py nupkg ARCHIVE
      As zip, and the package's core properties (package/services/metadata/
      core-properties/*.psmdcp) lose what NuGet writes of the machine that
      packed it (lastModifiedBy names its kernel's version).
  reproducible.py tar.gz ARCHIVE
      Rewrites a gzipped tar (an sdist) in place: members in name order,
      owner and group 0 (no names), every mtime SOURCE_DATE_EPOCH, modes
      0644 or 0755 (folders 0755), gzip with no name and no time stamp.
  reproducible.py pe-mvid ASSEMBLY [DEBUG-SYMBOLS]
      A .NET assembly from Mono's mcs differs between two compiles of the
      same sources only by its module version id (a random GUID, the first
      of its #GUID heap): sets it to the first 16 bytes of the SHA-256 of
      the assembly with that GUID zeroed (the choice of Roslyn's
      /deterministic), and the same GUID in the .mdb that names it.
"""

import gzip
import hashlib
import io
import os
import re
import struct
import sys
import tarfile
import time
import zipfile


def epoch():
    value = os.environ.get("SOURCE_DATE_EPOCH")
    if not value or not value.isdigit():
        sys.exit("reproducible.py: SOURCE_DATE_EPOCH is not set to a number of seconds (the Makefile sets it"
                 " to the last commit's time)")
    return int(value)


def rewrite_zip(path, first=(), last_dir=None, transform=None):
    # A zip cannot date anything before 1980.
    stamp = time.gmtime(max(epoch(), 315532800))[:6]
    with zipfile.ZipFile(path) as z:
        entries = [(info, z.read(info.filename)) for info in z.infolist()]
    names = [info.filename for info, _ in entries]
    if len(set(names)) != len(names):
        sys.exit("reproducible.py: %s holds a name twice" % path)

    def order(entry):
        name = entry[0].filename
        if name in first:
            return (0, first.index(name), name)
        if last_dir and name.startswith(last_dir):
            return (2, name.endswith("/RECORD"), name)
        return (1, 0, name)

    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w") as out:
        for old, data in sorted(entries, key=order):
            if transform:
                data = transform(old.filename, data)
            info = zipfile.ZipInfo(old.filename, date_time=stamp)
            info.create_system = 3
            if old.is_dir():
                info.external_attr = (0o40755 << 16) | 0x10
                info.compress_type = zipfile.ZIP_STORED
            else:
                executable = (old.external_attr >> 16) & 0o100
                info.external_attr = (0o100755 if executable else 0o100644) << 16
                info.compress_type = old.compress_type if old.compress_type == zipfile.ZIP_STORED \
                    else zipfile.ZIP_DEFLATED
            out.writestr(info, data, compresslevel=9)
    os.replace(tmp, path)


def nupkg_transform(name, data):
    if name.startswith("package/services/metadata/core-properties/") and name.endswith(".psmdcp"):
        text = data.decode("utf-8-sig")
        text = re.sub(r"<lastModifiedBy>([^<;]*)[^<]*</lastModifiedBy>", r"<lastModifiedBy>\1</lastModifiedBy>",
                      text)
        data = ("\ufeff" + text).encode("utf-8") if data.startswith(b"\xef\xbb\xbf") else text.encode("utf-8")
    return data


def rewrite_tar_gz(path):
    stamp = epoch()
    with tarfile.open(path, "r:gz") as t:
        members = [(m, t.extractfile(m).read() if m.isfile() else None) for m in t.getmembers()]
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as out:
        for m, data in sorted(members, key=lambda x: x[0].name):
            m.mtime = stamp
            m.uid = m.gid = 0
            m.uname = m.gname = ""
            m.pax_headers = {}
            if m.isdir():
                m.mode = 0o755
            elif m.isfile():
                m.mode = 0o755 if m.mode & 0o100 else 0o644
            out.addfile(m, io.BytesIO(data) if data is not None else None)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as g:
            g.write(buf.getvalue())
    os.replace(tmp, path)


def mvid_offset(pe):
    """The file offset of the first GUID of the #GUID heap."""
    if pe[:2] != b"MZ":
        raise ValueError("not a PE file")
    lfanew = struct.unpack_from("<I", pe, 0x3C)[0]
    if pe[lfanew:lfanew + 4] != b"PE\0\0":
        raise ValueError("no PE signature")
    coff = lfanew + 4
    sections, opt_size = struct.unpack_from("<H", pe, coff + 2)[0], struct.unpack_from("<H", pe, coff + 16)[0]
    opt = coff + 20
    magic = struct.unpack_from("<H", pe, opt)[0]
    dirs = opt + (96 if magic == 0x10B else 112)
    cli_rva = struct.unpack_from("<I", pe, dirs + 14 * 8)[0]
    table = opt + opt_size

    def offset(rva):
        for k in range(sections):
            s = table + 40 * k
            vsize, vaddr, rawsize, rawptr = struct.unpack_from("<IIII", pe, s + 8)
            if vaddr <= rva < vaddr + max(vsize, rawsize):
                return rva - vaddr + rawptr
        raise ValueError("RVA %#x is in no section" % rva)

    cli = offset(cli_rva)
    meta = offset(struct.unpack_from("<I", pe, cli + 8)[0])
    if struct.unpack_from("<I", pe, meta)[0] != 0x424A5342:
        raise ValueError("no metadata signature")
    length = struct.unpack_from("<I", pe, meta + 12)[0]
    p = meta + 16 + length + 2
    streams = struct.unpack_from("<H", pe, p)[0]
    p += 2
    for _ in range(streams):
        off, size = struct.unpack_from("<II", pe, p)
        end = pe.index(b"\0", p + 8)
        name = pe[p + 8:end].decode("ascii")
        p = (end + 4) & ~3
        if name == "#GUID":
            if size < 16:
                raise ValueError("an empty #GUID heap")
            return meta + off
    raise ValueError("no #GUID stream")


def set_mvid(path, symbols=None):
    pe = bytearray(open(path, "rb").read())
    at = mvid_offset(bytes(pe))
    old = bytes(pe[at:at + 16])
    pe[at:at + 16] = bytes(16)
    new = hashlib.sha256(bytes(pe)).digest()[:16]
    pe[at:at + 16] = new
    with open(path, "wb") as f:
        f.write(pe)
    if symbols and os.path.exists(symbols):
        data = open(symbols, "rb").read()
        if data.count(old) != 1:
            sys.exit("reproducible.py: %s names the module id %s %d times, not once" % (symbols, old.hex(),
                                                                                          data.count(old)))
        with open(symbols, "wb") as f:
            f.write(data.replace(old, new))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    what, path, rest = argv[1], argv[2], argv[3:]
    if what == "zip":
        first, last_dir = [], None
        while rest:
            if rest[0] == "--first":
                first.append(rest[1])
            elif rest[0] == "--last-dir":
                last_dir = rest[1]
            else:
                sys.exit("reproducible.py: unknown option %s" % rest[0])
            rest = rest[2:]
        rewrite_zip(path, first, last_dir)
    elif what == "nupkg":
        rewrite_zip(path, ["_rels/.rels"], None, nupkg_transform)
    elif what == "tar.gz":
        rewrite_tar_gz(path)
    elif what == "pe-mvid":
        set_mvid(path, rest[0] if rest else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
