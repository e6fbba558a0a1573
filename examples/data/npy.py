"""npy.py: read and write .npy files with the standard library only.

The example checkers use it instead of numpy: format version 1.0, little-endian
dtypes, C order, which is what `ptoc --run --out` writes. Values are flat
Python lists in row-major order.
"""
import ast
import struct

# .npy dtype -> struct format letter
FORMATS = {
    "|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H", "<i4": "i", "<u4": "I",
    "<i8": "q", "<u8": "Q", "<f2": "e", "<f4": "f", "<f8": "d",
}
MAGIC = b"\x93NUMPY\x01\x00"


def save(path, descr, shape, values):
    """Writes `values` (a flat list) as an array of dtype `descr` and `shape`."""
    count = 1
    for dim in shape:
        count *= dim
    if count != len(values):
        raise ValueError(f"{path}: {len(values)} values for shape {shape}")
    dims = "".join(f"{d}, " for d in shape) if len(shape) == 1 else ", ".join(str(d) for d in shape)
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({dims}), }}"
    pad = -(len(MAGIC) + 2 + len(header) + 1) % 64      # data starts 64-byte aligned
    header = (header + " " * pad + "\n").encode("latin1")
    with open(path, "wb") as f:
        f.write(MAGIC + struct.pack("<H", len(header)) + header)
        f.write(struct.pack(f"<{count}{FORMATS[descr]}", *values))


def load(path):
    """Returns (descr, shape, flat list of values)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != MAGIC[:6]:
        raise ValueError(f"{path}: not a .npy file")
    major = data[6]
    size_len = 2 if major == 1 else 4
    (hlen,) = struct.unpack_from("<H" if size_len == 2 else "<I", data, 8)
    start = 8 + size_len
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    if header["fortran_order"]:
        raise ValueError(f"{path}: fortran order is not supported")
    descr, shape = header["descr"], tuple(header["shape"])
    count = 1
    for dim in shape:
        count *= dim
    values = struct.unpack_from(f"<{count}{FORMATS[descr]}", data, start + hlen)
    return descr, shape, list(values)


def f32(x):
    """x rounded to the nearest float32 (as a Python float)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


class Lcg:
    """A fixed 64-bit LCG (Knuth's MMIX constants): the same data on every run
    and every Python version."""

    def __init__(self, seed):
        self.state = seed & (2**64 - 1)

    def next_u32(self):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        return self.state >> 32

    def below(self, n):
        return self.next_u32() % n


def main(doc, gen, check):
    """The command line every example script shares: `gen DIR` writes the
    inputs, `check DIR` checks DIR/out and exits 1 on a mismatch."""
    import sys
    if len(sys.argv) != 3 or sys.argv[1] not in ("gen", "check"):
        sys.exit(doc)
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif not check(sys.argv[2]):
        sys.exit(1)
