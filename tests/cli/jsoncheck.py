#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The oracle of --json: the text output of the same command, parsed here
# independently of pfnmap's JSON code, must say the same as the objects.
#
#   jsoncheck.py info TEXT JSON    TEXT: `info` output, JSON: `info --json`
#   jsoncheck.py bars MACHINE TEXT JSON
#                                  MACHINE: `bars -M`, TEXT: `bars` (for
#                                  the names), JSON: `bars --json`
#
# Every line of JSON must be one JSON object (json.loads, which rejects
# anything else) with exactly the documented keys; prints one line saying
# what was compared, or fails with the difference (exit 1).
import json
import re
import sys


def objects(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data.endswith(b"\n") or not data, "no newline at the end"
    # strict: a JSON text is UTF-8 (RFC 8259); bad bytes fail here
    lines = data.decode("utf-8", errors="strict").split("\n")[:-1]
    return [json.loads(line) for line in lines]


def hexs(v):
    return "0x%x" % v


def utf8(s):
    """The text's bytes as the JSON has them: invalid UTF-8 as U+FFFD"""
    return s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


PCI_KEYS = ["slot", "vendor", "device", "names", "driver", "bar", "start",
            "size", "bits", "prefetchable"]
INFO_KEYS = ["region", "start", "end", "size", "first_pfn", "last_pfn",
             "pages", "page_size", "page_offset", "pci", "iomem",
             "iomem_error", "ram", "cache", "helper", "space"]
CONFIG_KEYS = ["region", "space", "pci", "config_offset", "config_end",
               "size", "config_size"]


def info_text(path):
    """The text of info as a dict of the JSON fields it implies"""
    want = {"pci": None, "iomem": [], "iomem_error": None, "helper": None,
            "space": "memory"}
    pci = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")[:-1]
    for line in lines:
        key, _, val = line.partition(": ")
        if key == "device":
            m = re.fullmatch(r"(\S+) ([0-9a-f]{4}):([0-9a-f]{4}) (.*)", val)
            pci.update(slot=m[1], vendor=m[2], device=m[3], names=utf8(m[4]))
        elif key == "driver":
            pci["driver"] = None if val == "none" else utf8(val)
        elif key == "bar":
            m = re.fullmatch(r"bar(\d) (0x[0-9a-f]+)-(0x[0-9a-f]+), size "
                             r"(0x[0-9a-f]+), (32|64)-bit, "
                             r"(prefetchable|non-prefetchable)", val)
            pci.update(bar=int(m[1]), start=m[2], size=m[4],
                       bits=int(m[5]), prefetchable=m[6] == "prefetchable")
            assert int(m[3], 16) == int(m[2], 16) + int(m[4], 16) - 1
        elif key == "config":
            m = re.fullmatch(r"(0x[0-9a-f]+)-(0x[0-9a-f]+), size "
                             r"(0x[0-9a-f]+), in (\d+) bytes of configuration "
                             r"space, through libpci", val)
            want = {"space": "config", "config_offset": m[1],
                    "config_end": m[2], "size": m[3],
                    "config_size": int(m[4])}
            pci.update(bar=None, start=None, size=None, bits=None,
                       prefetchable=None)
        elif key == "region":
            start, end = val.split("-")
            want.update(start=start, end=end)
        elif key == "size":
            want["size"] = hexs(int(val))
        elif key == "pfn":
            want["first_pfn"], want["last_pfn"] = val.split("-")
        elif key in ("pages", "page-size"):
            want[key.replace("-", "_")] = int(val)
        elif key == "page-offset":
            want["page_offset"] = val
        elif key == "iomem":
            m = re.fullmatch(r"( *)([0-9a-f]+)-([0-9a-f]+) : (.*)", val)
            if m:
                want["iomem"].append({
                    "start": hexs(int(m[2], 16)), "end": hexs(int(m[3], 16)),
                    "depth": len(m[1]) // 2, "name": utf8(m[4])})
            elif not val.startswith("none "):
                want["iomem"] = None
                want["iomem_error"] = re.sub(r"^unknown: ", "", val)
        elif key == "ram":
            want["ram"] = None if val == "unknown" else val.split(" ")[0]
        elif key == "cache":
            want["cache"] = ("wb" if val.startswith("auto: wb ") else
                             "auto" if val.startswith("auto:") else val)
        elif key == "helper" and val.startswith("abi "):
            m = re.fullmatch(r"abi (\d+), phys-bits (\d+), pat (on|off), "
                             r"allow-ram (yes|no)", val)
            want["helper"] = {"path": "/dev/pfnmap", "error": None,
                              "abi": int(m[1]), "phys_bits": int(m[2]),
                              "pat": m[3] == "on", "allow_ram": m[4] == "yes"}
        elif key == "helper":
            m = re.fullmatch(r"(/\S+): (.*)", val)
            want["helper"] = {"path": m[1], "error": m[2], "abi": None,
                              "phys_bits": None, "pat": None,
                              "allow_ram": None}
        else:
            raise AssertionError("unknown text line %r" % line)
    if pci:
        want["pci"] = {k: pci[k] for k in PCI_KEYS}
    return want


def check_info(text, jpath):
    objs = objects(jpath)
    assert len(objs) == 1, "%d objects, not one" % len(objs)
    j = objs[0]
    want = info_text(text)
    keys = INFO_KEYS if want["space"] == "memory" else CONFIG_KEYS
    assert list(j) == keys, list(j)
    for k, v in want.items():
        assert j[k] == v, "%s: json %r, text %r" % (k, j[k], v)
    assert j["region"], j
    print("info --json = text: %d fields, %d iomem entries%s" %
          (len(want) + 1, len(j.get("iomem") or []),
           ", pci " + j["pci"]["slot"] if j["pci"] else ""))


BARS_KEYS = ["slot", "vendor", "device", "class", "names", "driver", "bar",
             "start", "size", "bits", "prefetchable", "type",
             "memory_enabled"]
DECODE_OFF = ("  memory decoding off (COMMAND bit 1 clear): the memory BARs "
              "read as all ones")


def bars_names(path):
    """slot -> the names of bars' text device lines, and the slots whose
    device line is followed by the memory decoding off line"""
    names, off, slot = {}, set(), None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f.read().split("\n")[:-1]:
            m = re.fullmatch(r"(\S+) [0-9a-f]{4}:[0-9a-f]{4} (.*) "
                             r"\[[0-9a-f]{4}\] driver: .*", line)
            if m:
                slot = m[1]
                names[slot] = utf8(m[2])
            elif line == DECODE_OFF:
                off.add(slot)
    return names, off


def check_bars(machine, text, jpath):
    objs = objects(jpath)
    names, off = bars_names(text)
    with open(machine, encoding="utf-8", errors="surrogateescape") as f:
        rows = [line.split(" ") for line in f.read().split("\n")[:-1]]
    assert len(objs) == len(rows), "%d objects, %d -M lines" % (
        len(objs), len(rows))
    for j, r in zip(objs, rows):
        assert list(j) == BARS_KEYS, list(j)
        # -M: SLOT VENDOR:DEVICE CLASS barN START SIZE BITS PREFETCH TYPE
        # DRIVER; the driver may hold blanks: the rest of the line
        slot, ids, cls, bar, start, size, bits, pf, typ = r[:9]
        drv = " ".join(r[9:])
        vendor, device = ids.split(":")
        io = typ == "io"
        want = {"slot": slot, "vendor": vendor, "device": device,
                "class": cls, "bar": int(bar[3:]), "start": start,
                "size": size, "bits": None if io else int(bits),
                "prefetchable": None if io else pf == "prefetchable",
                "type": typ, "driver": None if drv == "-" else drv,
                "memory_enabled": slot not in off}
        for k, v in want.items():
            if k == "driver" and v is not None:
                v = utf8(v)	# -M prints the bytes
            assert j[k] == v, "%s %s: json %r, -M %r" % (slot, k, j[k], v)
        assert j["names"] == names[slot], (j["names"], names[slot])
    print("bars --json = -M: %d BARs" % len(objs))


if __name__ == "__main__":
    {"info": check_info, "bars": check_bars}[sys.argv[1]](*sys.argv[2:])
