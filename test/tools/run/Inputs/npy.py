"""Makes and prints .npy and raw files for the --run tests, with python3 only
(no numpy): the .npy format is a magic string, a version, a dict header and
little-endian elements, which struct handles.

  npy.py make OUT DTYPE SHAPE PATTERN [VERSION]
                                         write OUT.npy (format VERSION: 1, 2 or 3),
                                         or raw bytes if OUT ends .bin
  npy.py show FILE                       print "dtype shape" then the elements
  npy.py header FILE DESCR FORTRAN SHAPE write a .npy with this header and zeros

DTYPE is a numpy code (f4, i4, u2 ...); SHAPE is like 16x16; PATTERN is `iota`
(0, 1, 2 ...), `iota*K`, a constant number, `list:A,B,...` (those numbers,
repeated to fill the shape), `random:SEED`: values from Python's seeded
Mersenne Twister (the same on every host and version), integers over the
dtype's whole range, floats uniform in [-100, 100) rounded to the dtype (f2 to
half precision by struct itself), or `spread:SEED`: integers of every
magnitude (a bit length uniform over the dtype's, then a value of that length,
negative half the time if signed, clamped to the dtype), one in eight an edge
(0, 1, -1, the least and the greatest, 2^k and its neighbours).
"""
import random
import struct
import sys

CODES = {"b1": "?", "i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I",
         "i8": "q", "u8": "Q", "f2": "e", "f4": "f", "f8": "d"}


def dims(text):
    return tuple(int(d) for d in text.split("x")) if text else ()


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def random_values(seed, n, code):
    rng = random.Random(seed)
    if code in "efd":
        return [rng.uniform(-100, 100) for _ in range(n)]
    if code == "?":
        return [rng.randrange(2) for _ in range(n)]
    bits = struct.calcsize(code) * 8
    lo, hi = (0, (1 << bits) - 1) if code in "BHIQ" else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return [rng.randint(lo, hi) for _ in range(n)]


def spread_value(rng, bits, signed):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if rng.randrange(8) == 0:
        k = rng.randrange(bits - 1 if signed else bits)
        edge = rng.choice([0, 1, -1, lo, hi, 1 << k, (1 << k) - 1, (1 << k) + 1])
        return min(max(edge, lo), hi)
    v = rng.getrandbits(rng.randrange(bits + 1))
    if signed and rng.randrange(2):
        v = -v
    return min(max(v, lo), hi)


def values(pattern, n, code):
    if pattern.startswith("random:"):
        return random_values(int(pattern[7:]), n, code)
    if pattern.startswith("spread:"):
        rng = random.Random(int(pattern[7:]))
        return [spread_value(rng, struct.calcsize(code) * 8, code in "bhiq") for _ in range(n)]
    if pattern.startswith("list:"):
        vals = [float(v) if code in "efd" else int(v) for v in pattern[5:].split(",")]
        return [vals[i % len(vals)] for i in range(n)]
    if pattern.startswith("iota"):
        k = float(pattern[5:]) if pattern.startswith("iota*") else 1
        vals = [i * k for i in range(n)]
    else:
        vals = [float(pattern)] * n
    return [v if code in "efd" else int(v) for v in vals]


def npy_bytes(descr, fortran, shape, body, version=1):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_text)
    prefix = 10 if version == 1 else 12
    total = (prefix + len(header) + 1 + 63) // 64 * 64
    header = header + " " * (total - prefix - len(header) - 1) + "\n"
    size = struct.pack("<H" if version == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode() + body


def make(out, dtype, shape_text, pattern, version="1"):
    shape = dims(shape_text)
    code = CODES[dtype]
    body = struct.pack("<%d%s" % (count(shape), code), *values(pattern, count(shape), code))
    byteorder = "|" if dtype[1] == "1" else "<"
    data = body if out.endswith(".bin") else npy_bytes(byteorder + dtype, "False", shape, body, int(version))
    with open(out, "wb") as f:
        f.write(data)


def show(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    (hlen,) = struct.unpack("<H", data[8:10])
    header = eval(data[10:10 + hlen].decode())  # a dict literal we wrote ourselves
    descr, shape = header["descr"], header["shape"]
    code = CODES[descr[1:]]
    vals = struct.unpack("<%d%s" % (count(shape), code), data[10 + hlen:])
    print(descr, "x".join(str(d) for d in shape))
    row = shape[-1] if shape else 1
    for i in range(0, len(vals), row):
        print(" ".join(("%g" % v) if code in "efd" else str(v) for v in vals[i:i + row]))


def header(out, descr, fortran, shape_text):
    shape = dims(shape_text)
    size = int(descr[2:]) if descr[1:2] in "iufb" and descr[2:].isdigit() else 4
    with open(out, "wb") as f:
        f.write(npy_bytes(descr, fortran, shape, b"\0" * (count(shape) * size)))


if __name__ == "__main__":
    {"make": make, "show": show, "header": header}[sys.argv[1]](*sys.argv[2:])
