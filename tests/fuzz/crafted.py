#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""crafted.py: hostile perf.data files for pmuctl report (issue 38's findings).

Each file is made the way a stranger would make it, by the layout of
perf.data-file-format.txt and include/uapi/linux/perf_event.h, to break one
assumption of the reader. They are the fuzzer's regression inputs
(tests/fuzz/README.md) and report-hostile-test's cases.

    crafted.py DIR [ELF]

writes DIR/NAME.data for each case; with ELF (a program with a function of
a 350-character name, built by report-hostile-test), the cases that need a
real symbol map it. Prints each name and what it breaks, one per line.
"""
import os
import struct
import sys

MAGIC = b"PERFILE2"
HEADER_SIZE = 104
ATTR_SIZE = 112                       # PERF_ATTR_SIZE_VER5
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_PERIOD = 0x1, 0x2, 0x4, 0x100
REC_MMAP, REC_COMM, REC_FORK, REC_SAMPLE, REC_MMAP2 = 1, 3, 7, 9, 10
REC_LOST, REC_LOST_SAMPLES = 2, 13
MISC_USER = 2
EXCLUDE_KERNEL = 1 << 5


def attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD, config=0):
    """A perf_event_attr: a hardware event, user mode, sampled."""
    a = struct.pack("<IIQQQQQ", 0, ATTR_SIZE, config, 1000, sample_type, 0, EXCLUDE_KERNEL)
    return a + bytes(ATTR_SIZE - len(a))


def record(kind, body, misc=0, size=None):
    """A record: its header, then @body; @size overrides the header's size."""
    return struct.pack("<IHH", kind, misc, 8 + len(body) if size is None else size) + body


def pad8(b):
    return b + bytes(-len(b) % 8)


def comm(pid, tid, name):
    return record(REC_COMM, struct.pack("<II", pid, tid) + pad8(name.encode() + b"\0"))


def fork(pid, ppid, tid, ptid, time=0):
    return record(REC_FORK, struct.pack("<IIIIQ", pid, ppid, tid, ptid, time))


def mmap2(pid, start, length, pgoff, path):
    fixed = struct.pack("<IIQQQIIQQII", pid, pid, start, length, pgoff, 0, 0, 0, 0, 5, 2)
    return record(REC_MMAP2, fixed + pad8(path.encode() + b"\0"))


def sample(pid, tid, ip, time, period=1000):
    return record(REC_SAMPLE, struct.pack("<QIIQQ", ip, pid, tid, time, period), MISC_USER)


REC_HEADER_BUILD_ID, MISC_BUILD_ID_SIZE, FEAT_BUILD_ID = 67, 1 << 15, 2


def build_id_list(build_ids):
    """HEADER_BUILD_ID's records: (path, ID bytes, with its size) each.

    Without the size (perfs before 5.12), the ID is 20 bytes, zero-padded.
    """
    out = b""
    for path, bid, sized in build_ids:
        field = bid.ljust(20, b"\0") + bytes([len(bid) if sized else 0]) + bytes(3)
        body = struct.pack("<i", -1) + field + pad8(path.encode() + b"\0")
        out += record(REC_HEADER_BUILD_ID, body, MISC_USER | (MISC_BUILD_ID_SIZE if sized else 0))
    return out


def perf_data(records, attrs=None, ids=None, attrs_at=None, data_at=None, build_ids=None):
    """A whole file: header, the attributes (each with its IDs), the records.

    @ids: per attribute, its IDs; @attrs_at/@data_at: where the sections go
    (an odd offset is the stranger's right); @build_ids: the BUILD_ID
    feature's (path, ID, sized) entries, after the data.
    """
    attrs = attrs or [attr()]
    ids = ids if ids is not None else [[] for _ in attrs]
    data = b"".join(records)
    attrs_at = attrs_at if attrs_at is not None else HEADER_SIZE
    ids_at = attrs_at + len(attrs) * (ATTR_SIZE + 16)
    id_bytes = b""
    table = b""
    for a, these in zip(attrs, ids):
        section = struct.pack("<QQ", ids_at + len(id_bytes), 8 * len(these))
        id_bytes += b"".join(struct.pack("<Q", i) for i in these)
        table += a + section
    data_at = data_at if data_at is not None else ids_at + len(id_bytes)
    head = MAGIC + struct.pack("<QQ", HEADER_SIZE, ATTR_SIZE + 16)
    head += struct.pack("<QQ", attrs_at, len(table))
    head += struct.pack("<QQ", data_at, len(data))
    features = 1 << FEAT_BUILD_ID if build_ids is not None else 0
    head += struct.pack("<QQ", 0, 0) + struct.pack("<Q", features) + bytes(24)
    out = bytearray(head)
    out += bytes(max(0, attrs_at - len(out)))
    out[attrs_at:attrs_at + len(table) + len(id_bytes)] = table + id_bytes
    out += bytes(max(0, data_at - len(out)))
    out[data_at:data_at + len(data)] = data
    if build_ids is not None:
        # The feature table follows the data: one section, then its bytes.
        del out[data_at + len(data):]
        listed = build_id_list(build_ids)
        out += struct.pack("<QQ", len(out) + 16, len(listed)) + listed
    return bytes(out)


def build_id(path):
    """The GNU build ID of ELF @path (its NT_GNU_BUILD_ID note), or b""."""
    with open(path, "rb") as f:
        elf = f.read()
    wide = elf[4] == 2
    if wide:
        shoff, = struct.unpack_from("<Q", elf, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", elf, 0x3a)
        shdr = "<IIQQQQIIQQ"
    else:
        shoff, = struct.unpack_from("<I", elf, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", elf, 0x2e)
        shdr = "<IIIIIIIIII"
    for i in range(shnum):
        s = struct.unpack_from(shdr, elf, shoff + i * shentsize)
        if s[1] != 7:                 # SHT_NOTE
            continue
        off, end = s[4], s[4] + s[5]
        while off + 12 <= end:
            namesz, descsz, kind = struct.unpack_from("<III", elf, off)
            name_at = off + 12
            desc_at = name_at + (namesz + 3) // 4 * 4
            if kind == 3 and elf[name_at:name_at + namesz] == b"GNU\0":
                return elf[desc_at:desc_at + descsz]
            off = desc_at + (descsz + 3) // 4 * 4
    return b""


def elf_functions(path):
    """{name: (file offset, size)} of the functions of ELF @path, 32- or 64-bit, little-endian.

    A Thumb function's address loses its bit 0, as the code's does.
    """
    with open(path, "rb") as f:
        elf = f.read()
    assert elf[:4] == b"\x7fELF" and elf[5] == 1, "a little-endian ELF"
    wide = elf[4] == 2
    if wide:
        shoff, = struct.unpack_from("<Q", elf, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", elf, 0x3a)
        shdr, sym, symsize = "<IIQQQQIIQQ", "<IBBHQQ", 24
    else:
        shoff, = struct.unpack_from("<I", elf, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", elf, 0x2e)
        shdr, sym, symsize = "<IIIIIIIIII", "<IIIBBH", 16
    machine, = struct.unpack_from("<H", elf, 0x12)
    sections = [struct.unpack_from(shdr, elf, shoff + i * shentsize) for i in range(shnum)]
    found = {}
    for s in sections:
        if s[1] != 2:                 # SHT_SYMTAB
            continue
        strtab = sections[s[6]]
        for off in range(s[4], s[4] + s[5], symsize):
            if wide:
                st_name, info, _, shndx, value, size = struct.unpack_from(sym, elf, off)
            else:
                st_name, value, size, info, _, shndx = struct.unpack_from(sym, elf, off)
            if info & 0xf != 2 or not 0 < shndx < len(sections):   # STT_FUNC, defined
                continue
            if machine == 40:         # EM_ARM
                value &= ~1
            start = strtab[4] + st_name
            name = elf[start:elf.index(b"\0", start)].decode()
            t = sections[shndx]
            found[name] = (value - t[3] + t[4], size)
    return found


def elf_function(path, name_len):
    """(file offset, size) of the function of a @name_len-character name in @path."""
    for name, where in elf_functions(path).items():
        if len(name) == name_len:
            return where
    raise SystemExit(f"crafted.py: no function of a {name_len}-character name in {path}")


def spread(pid, start, where, n, time=0):
    """@n samples spread through a function at @where (file offset, size), mapped at @start."""
    off, size = where
    return [sample(pid, pid, start + off + (k * size // n & ~1), time + k) for k in range(n)]


def cases(elf):
    pid = 4242
    base = 0x7f0000000000
    yield "empty-ids", "two attributes with empty ID sections (a double free)", perf_data(
        [comm(pid, pid, "victim"), sample(pid, pid, 0x1234, 1)], attrs=[attr(), attr(config=1)])
    yield "unaligned", "the attributes and the records at odd offsets", perf_data(
        [comm(pid, pid, "odd"), sample(pid, pid, 0x1234, 1)], attrs_at=HEADER_SIZE + 3,
        data_at=HEADER_SIZE + 3 + ATTR_SIZE + 16 + 5)
    short = sample(pid, pid, 0x1234, 2)[:12]
    yield "short-record", "a record whose size is not a multiple of 8, last in the file", perf_data(
        [comm(pid, pid, "short"), record(REC_SAMPLE, short[8:], MISC_USER)])
    yield "wrapping-map", "a mapping whose end wraps past 2^64", perf_data(
        [comm(pid, pid, "wrap"), mmap2(pid, 2**64 - 4096, 8192, 0, "/bin/sh"),
         sample(pid, pid, 2**64 - 1, 1)])
    yield "huge-sections", "sections whose offsets and sizes overflow", (
        MAGIC + struct.pack("<QQ", HEADER_SIZE, ATTR_SIZE + 16) +
        struct.pack("<QQ", 2**64 - 8, 2**63) + struct.pack("<QQ", 2**64 - 16, 64) +
        bytes(16) + bytes([0xff]) * 32 + bytes(64))
    lost = record(REC_LOST, struct.pack("<QQ", 1, 7))
    lost_samples = record(REC_LOST_SAMPLES, struct.pack("<Q", 3))
    yield "lost", "7 samples in a lost chunk, 3 lost samples apart", perf_data(
        [comm(pid, pid, "lossy"), lost, lost_samples, sample(pid, pid, 0x1234, 1)])
    recs = [comm(pid, pid, "forker")]
    recs += [mmap2(pid, base + i * 8192, 4096, 0, "/nonexistent/lib%d.so" % i) for i in range(20000)]
    recs += [fork(pid + 1 + i, pid, pid + 1 + i, pid) for i in range(6000)]
    recs += [mmap2(pid + 1 + i, 0x1000, 4096, 0, "/nonexistent/child") for i in range(6000)]
    yield "fork-copies", "20,000 mappings, then 6,000 children that each map a file", perf_data(recs)
    recs = [comm(100000 + i, 100000 + i, "t%d" % i) for i in range(200000)]
    recs.append(sample(100000, 100000, 0x1234, 1))
    yield "many-threads", "200,000 threads, each named", perf_data(recs)
    # Names of one djb2 hash ("Aa" and "B@" hash alike): rows by comparison.
    names = [format(i, "012b").replace("0", "Aa").replace("1", "B@") for i in range(4096)]
    recs = []
    for i, name in enumerate(names):
        recs += [comm(20000 + i, 20000 + i, name), sample(20000 + i, 20000 + i, 0x1234, i + 1)]
    yield "colliding-names", "4,096 thread names of one string hash", perf_data(recs)
    if elf:
        off, size = elf_function(elf, 350)
        start = 0x555555554000
        recs = [comm(pid, pid, "longname"), mmap2(pid, start, 1 << 20, 0, os.path.abspath(elf))]
        recs += [sample(pid, pid, start + off + size // 2, 10 + i) for i in range(4)]
        yield "long-symbol", "a 350-character function name (-s sym,sym,sym,sym)", perf_data(recs)
        path = os.path.abspath(elf)
        bid = build_id(elf)
        listed = [(path, bytes(20), False), ("/x" * 3000, bid, True), ("/y", b"\xff" * 20, True),
                  (path, bid, True)]
        # The file named first with a wrong ID (the first one counts), a
        # 6,000-character path, and a last record too short for its fields.
        listed = build_id_list(listed) + record(REC_HEADER_BUILD_ID, bytes(30))
        data = bytearray(perf_data(recs, build_ids=[]))
        data[-16:] = struct.pack("<QQ", len(data), len(listed))
        yield "build-ids", "a wrong build ID first, a 6,000-character path, a short record", \
            bytes(data) + listed
        many = [attr(config=i) for i in range(40)]
        yield "forty-events", "40 events, and a long name: the header's rule", perf_data(
            recs, attrs=many, ids=[[1000 + i] for i in range(40)])


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    out, elf = sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None
    os.makedirs(out, exist_ok=True)
    for name, what, data in cases(elf):
        with open(os.path.join(out, name + ".data"), "wb") as f:
            f.write(data)
        print(f"{name}: {what}")


if __name__ == "__main__":
    main()
