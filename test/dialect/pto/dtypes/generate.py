#!/usr/bin/env python3
"""generate.py: writes the element type tests of the pto verifier.

    python3 test/dialect/pto/dtypes/generate.py      (from the source root)

For every row of dialect/pto_dtypes.def it writes, into test/dialect/pto/dtypes/
<family>.pto, an a3 and an a5 case: an op whose operand `role` has an element
type the hardware implementation accepts (it verifies) and one with a type it
rejects (the diagnostic). The accepted and rejected types come from HW below,
transcribed from pto-isa's hardware headers (include/pto/npu/a2a3 and a5) on
their own, not from the table nor from ptoc's output, so a wrong table row
fails here. It also writes test/unit/dtype_fixtures.inc: the same op
fixtures for test_dtype_table.c, which checks the verifier against the table
for every (row, arch, element type).

Rows are read from the table with the C preprocessor (only their keys: opcode,
role, conditions), and the opcodes' names from the op table (dialect/pto_ops.def)
the same way; a row without an entry in HW is an error, so a new row needs its
hardware sets written here too.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
CLASSES = ["i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64", "f16", "bf16", "f32",
           "f8E4M3", "f8E5M2", "other"]
SPELL = {"f8E4M3": "f8E4M3FN", "f8E5M2": "f8E5M2", "other": "f64"}   # a type of each class


def spell(c):
    return SPELL.get(c, c)


# ---------------------------------------------------------------- the hardware's sets

def S(text):
    """A set of classes from names; shorthands as the headers state them."""
    out = set()
    for w in text.split():
        out |= {"b8": {"i8", "ui8", "f8E4M3", "f8E5M2"}, "b16": {"i16", "ui16", "f16", "bf16"},
                "b32": {"i32", "ui32", "f32"}, "b64": {"i64", "ui64"}, "f8": {"f8E4M3", "f8E5M2"},
                "ints": {"i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64"},
                "ints32": {"i8", "ui8", "i16", "ui16", "i32", "ui32"},
                "all11": {"i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64", "f16", "bf16", "f32"},
                "any": set(CLASSES), "-": set()}.get(w, {w})
    return out


ARITH23 = "i32 i16 f16 f32"                 # the A2/A3 vector list: int32, int16, half, float
A5ALL = "all11"                             # the A5 list of eleven

HW = {}                                      # (op, role, when) -> (a2a3 set, a5 set)


def hw(op, role, when, a2a3, a5):
    HW[("pto." + op, role, when)] = (S(a2a3), S(a5))


# textract / tinsert (TExtract.hpp, TInsert.hpp, textract_common.hpp, tinsert_common.hpp, common.hpp)
hw("textract", "dst", "src@vec dst@vec", "i8 ui8 i16 ui16 f16 bf16 f32 i32 ui32", "f16 bf16 f32 i32 i8 f8")
hw("textract", "dst", "src@mat", "i8 f16 bf16 f32", "i8 f8 f16 bf16 f32")
hw("textract", "dst", "src@vec dst@mat", "-", "i8 f8 f16 bf16 f32")
hw("textract", "src", "src@acc", "f32", "f32 i32")
hw("textract", "dst", "src@acc src=f32", "f16 bf16", "f16 bf16 f32")
hw("textract", "dst", "src@acc src=i32", "-", "i32")
hw("tinsert", "dst", "src@vec", "i8 ui8 i16 ui16 f16 bf16 f32 i32 ui32", "f16 bf16 f32 i32 f8 i8")
hw("tinsert", "src", "src@acc", "f32", "f32 i32")
hw("tinsert", "dst", "src@acc src=f32", "f16 bf16", "f16 bf16 f32")
hw("tinsert", "dst", "src@acc src=i32", "-", "i32")
# cube (TMatmul.hpp CheckStaticMad / CheckMadValid / CheckMadMxValid)
for op in ["tmatmul", "tmatmul.acc", "tmatmul.bias", "tgemv", "tgemv.acc", "tgemv.bias"]:
    hw(op, "dst", "", "i32 f32", "i32 f32")
    hw(op, "lhs", "dst=i32", "i8", "i8")
    hw(op, "lhs", "dst=f32", "f16 f32 bf16", "f16 bf16 f32 f8")
    for t in ["i8", "f16", "bf16", "f32"]:
        hw(op, "rhs", "lhs=" + t, t, t)
    hw(op, "rhs", "lhs=f8E4M3", "-", "f8")
    hw(op, "rhs", "lhs=f8E5M2", "-", "f8")
for op in ["tmatmul.mx", "tmatmul.mx.acc", "tmatmul.mx.bias", "tgemv.mx", "tgemv.mx.acc", "tgemv.mx.bias"]:
    hw(op, "dst", "", "-", "f32")
    hw(op, "a", "", "-", "f8")
    hw(op, "b", "", "-", "f8")
    if op.endswith("bias"):
        hw(op, "bias", "", "-", "f32")
# elementwise tile-tile
for op in ["tadd", "tsub", "tmax", "tmin", "tpartadd", "tpartmax", "tpartmin"]:
    hw(op, "dst", "", ARITH23, A5ALL)
hw("tmul", "dst", "", ARITH23, "i64 ui64 i32 ui32 f32 i16 ui16 f16 bf16")
hw("tdiv", "dst", "", "f16 f32", "i64 ui64 i32 ui32 f32 i16 ui16 f16")
hw("trem", "dst", "", "f32 i32", "i64 ui64 f16 f32 ui16 i16 ui32 i32")
hw("tfmod", "dst", "", "f32", "f16 f32 ui16 i16 ui32 i32")
hw("tand", "dst", "", "ints32", "b8 b16 b32")
hw("tor", "dst", "", "ui8 i8 ui16 i16 ui32 i32", "b8 b16 b32")
hw("txor", "dst", "", "ints32", "ui8 i8 ui16 i16 ui32 i32")
hw("tshl", "dst", "", "ui8 i8 ui16 i16 ui32 i32", "ints")
hw("tshr", "dst", "", "ui8 i8 ui16 i16 ui32 i32", "ints")
hw("tpartmul", "dst", "", ARITH23, "i32 ui32 f32 i16 ui16 f16 bf16 ui8 i8")
hw("tprelu", "dst", "", "f16 f32", "f16 f32")
hw("tprelu", "tmp", "", "ui8", "any")
# tile-scalar
for op in ["tadds", "tsubs", "tmaxs", "tmins"]:
    hw(op, "dst", "", ARITH23, A5ALL)
hw("tmuls", "dst", "", ARITH23, "i64 ui64 i32 i16 ui32 ui16 f16 f32 bf16")
hw("tdivs", "dst", "", ARITH23, "ui64 i64 ui32 i32 ui16 i16 f16 f32")
hw("trems", "dst", "", "f32 i32", "b16 b32 b64")
hw("tfmods", "dst", "", "f32", "b16 b32")
for op in ["tands", "tors", "txors"]:
    hw(op, "dst", "", "ints32", "b8 b16 b32")
for op in ["tshls", "tshrs"]:
    hw(op, "dst", "", "i32 i16 ui32 ui16", "ints")
hw("taxpy", "dst", "", "f16 f32", "f16 f32")
hw("taxpy", "src", "dst=f16", "f16", "f16")
hw("taxpy", "src", "dst=f32", "f16 f32", "f16 f32")
hw("tlrelu", "dst", "", "f16 f32", "f16 f32")
# unary
hw("tabs", "dst", "", "f16 f32", "f32 f16 i8 i16 i32")
hw("tneg", "dst", "", ARITH23, "i64 ui64 i32 i16 ui32 ui16 f16 f32 bf16")
for op in ["texp", "tlog", "tsqrt", "trsqrt"]:
    hw(op, "dst", "", "f16 f32", "f16 f32")
hw("trecip", "dst", "", ARITH23, ARITH23)
hw("trelu", "dst", "", "f16 f32 i32", "f16 f32 i32")
hw("tnot", "dst", "", "i16 ui16 ui32 i32 i8 ui8", "ui32 i32 ui16 i16 ui8 i8")
# tcvt: the pairs with a kernel (TCvt.hpp)
hw("tcvt", "src", "", "f32 f16 bf16 ui8 i8 i16 i32 i64", "f32 f16 bf16 ui8 i8 i16 i32 ui32 i64 f8")
hw("tcvt", "dst", "src=f32", "f16 f32 i64 i32 i16 bf16", "f32 f16 bf16 i16 i32 i64 f8")
hw("tcvt", "dst", "src=f16", "f32 i32 i16 i8 ui8", "f32 i32 i16 i8 ui8")
hw("tcvt", "dst", "src=bf16", "f32 i32", "f32 i32 f16")
hw("tcvt", "dst", "src=ui8", "f16", "f16 ui16")
hw("tcvt", "dst", "src=i8", "f16", "f16 i16 i32")
hw("tcvt", "dst", "src=i16", "f32 f16", "ui8 f16 f32 ui32 i32")
hw("tcvt", "dst", "src=i32", "i64 i16 f16 f32", "f32 i16 ui16 i64 ui8")
hw("tcvt", "dst", "src=ui32", "-", "ui8 ui16 i16")
hw("tcvt", "dst", "src=i64", "i32 f32", "f32 i32")
hw("tcvt", "dst", "src=f8E4M3", "-", "f32")
hw("tcvt", "dst", "src=f8E5M2", "-", "f32")
hw("tquant", "src", "", "f32", "f32")
hw("tquant", "dst", "", "i8 ui8", "i8 ui8")
hw("tdequant", "dst", "", "f32", "f32")
hw("tdequant", "src", "", "i8 i16", "i16 i8")
# fill and generate
for op in ["tfillpad", "tfillpad_expand", "tfillpad_inplace"]:
    hw(op, "dst", "", "b8 b16 b32", "b8 b16 b32")
    hw(op, "src", "", "b8 b16 b32", "b8 b16 b32")
hw("tci", "dst", "", "b16 b32", "ui16 i16 ui32 i32")
hw("ttri", "dst", "", "i32 i16 ui32 ui16 f16 f32", "i64 ui64 i32 i16 i8 ui32 ui16 ui8 f16 f32 bf16")
hw("trandom", "dst", "", "-", "i32 ui32")
# compare and select
hw("tcmp", "src0", "", "i32 f16 f32", A5ALL)
hw("tcmp", "dst", "", "i8 ui8", "i8 ui8 i32 ui32")
hw("tcmps", "src", "", "i32 f32 f16 ui16 i16", A5ALL)
hw("tcmps", "dst", "", "i8 ui8", "i8 ui8 i32 ui32")
hw("tsel", "dst", "", "b16 b32", "b8 b16 b32 b64")
hw("tsels", "dst", "", "b16 b32", "i64 ui64 i8 i16 i32 f16 f32 ui8 ui16 ui32")
# reductions
for op in ["trowsum", "trowprod"]:
    hw(op, "src", "", "f16 f32 i32 i16", "f16 f32 i32 i16")
for op in ["trowmax", "trowmin"]:
    hw(op, "src", "", "f16 f32 i32 i16", "f16 f32 i32 i16 i8 ui8")
for op in ["trowargmax", "trowargmin"]:
    hw(op, "src", "", "f16 f32 i32 i16", "f16 bf16 i16 ui16 f32 i32 ui32")
    hw(op, "dst", "", "i32 ui32", "i32 ui32")
for op in ["tcolsum", "tcolmax", "tcolmin"]:
    hw(op, "src", "", "f16 f32 i16 i32", "i64 ui64 f16 f32 i8 ui8 ui16 i16 i32 ui32 bf16")
hw("tcolprod", "src", "", "f16 f32 i16 i32", "f32 f16 bf16 i16 ui16 i32 ui32")
for op in ["tcolargmax", "tcolargmin"]:
    hw(op, "src", "", "ui32 ui16 f16 f32", "b8 b16 b32")
    hw(op, "dst", "", "ui32 i32", "ui32 i32")
# expand
for fam in ["trowexpand", "tcolexpand"]:      # TRowExpand*.hpp, TColExpand*.hpp: the same lists
    hw(fam, "dst", "", "b8 b16 b32", "b8 b16 b32 b64")
    for op in ["add", "sub", "mul", "max", "min"]:
        # ptoc's one extension of the hardware sets: pto-split-u64 gives the
        # tcolexpand forms 64-bit integers on A5 (docs/decisions.md)
        wide = " b64" if fam == "tcolexpand" else ""
        hw(fam + op, "dst", "", ARITH23, "i32 ui32 f32 i16 ui16 f16 bf16 ui8 i8" + wide)
    hw(fam + "div", "dst", "", "f16 f32", "i32 ui32 f32 i16 ui16 f16 bf16 ui8 i8")
    hw(fam + "expdif", "dst", "", "f16 f32", "f16 f32")
hw("texpands", "dst", "", "ui8 i8 ui16 i16 ui32 i32 f16 bf16 f32", A5ALL)
# histogram, sort, gather, layout
hw("thistogram", "src", "", "-", "ui16 ui32")
hw("thistogram", "idx", "", "-", "ui8")
hw("thistogram", "dst", "", "-", "ui32")
hw("tsort32", "dst", "", "f16 f32", "f16 f32")
hw("tsort32", "idx", "", "ui32", "ui32")
hw("tgatherb", "dst", "", "b8 b16 b32", "b8 b16 b32")
hw("tscatter", "dst", "", "i32 i16 i8 ui32 ui16 ui8 f16 f32 bf16", A5ALL)
hw("tscatter", "indexes", "", "ui16 ui32 i16 i32", "ui16 ui32 i16 i32")
hw("mgather", "dst", "", "i8 ui8 i16 ui16 i32 ui32 f16 bf16 f32", "i8 ui8 i16 ui16 i32 ui32 f16 bf16 f32 f8")
hw("mgather", "idx", "", "i32 ui32", "i32 ui32")
hw("mscatter", "src", "", "i8 ui8 i16 ui16 i32 ui32 f16 bf16 f32", "i8 ui8 i16 ui16 i32 ui32 f16 bf16 f32 f8")
hw("mscatter", "idx", "", "i32 ui32", "i32 ui32")
hw("ttrans", "src", "", "b8 b16 b32", "b8 b16 b32")
hw("tconcat", "dst", "", "i32 i16 i8 ui32 ui16 ui8 f16 f32 bf16", "i32 ui32 f32 i16 ui16 f16 bf16 ui8 i8")
hw("tpack", "src", "", "-", "any")          # no a2a3/TPack.hpp; A5 unchecked

# ---------------------------------------------------------------- op fixtures

def T(shape="16x64", dflt="f32", loc="vec", extra=""):
    return ("tile", loc, shape, dflt, extra)


def SC(ty="f32"):
    return ("scalar", ty)


IX = ("index",)
NZ = ", blayout=col_major, slayout=row_major"
ZN = ", slayout=col_major"
ZZ = ", slayout=row_major"

# (op, loc conditions of the rows it serves) -> (ins, outs, overrides); each in/out
# is (role, spec); a default "=role" copies that role's element type; an
# override ("role=class", "role=class ...") sets free roles when the fact holds.
FIXTURES = {}


def fixture(op, ins, outs, locs="", overrides=()):
    FIXTURES[("pto." + op, locs)] = (ins, outs, list(overrides))


fixture("textract", [("src", T("32x64")), ("indexRow", IX), ("indexCol", IX)], [("dst", T())], "src@vec dst@vec")
fixture("textract", [("src", T("32x64", loc="mat", extra=ZN)), ("indexRow", IX), ("indexCol", IX)],
        [("dst", T(loc="left", extra=ZZ))], "src@mat")
fixture("textract", [("src", T("32x64")), ("indexRow", IX), ("indexCol", IX)],
        [("dst", T(loc="mat", extra=NZ))], "src@vec dst@mat")
fixture("textract", [("src", T("32x64", loc="acc", extra=NZ)), ("indexRow", IX), ("indexCol", IX)],
        [("dst", T(dflt="f16", loc="mat", extra=NZ))], "src@acc", [("src=i32", "dst=i32")])
fixture("tinsert", [("src", T()), ("indexRow", IX), ("indexCol", IX)], [("dst", T("32x64"))], "src@vec")
fixture("tinsert", [("src", T(loc="acc", extra=NZ)), ("indexRow", IX), ("indexCol", IX)],
        [("dst", T("32x64", dflt="f16", loc="mat", extra=NZ))], "src@acc", [("src=i32", "dst=i32")])
MATMUL_OVERRIDES = [("lhs=i8", "dst=i32"), ("dst=i32", "lhs=i8 rhs=i8")]
for op, extra_in in [("tmatmul", []), ("tmatmul.acc", [("acc_in", T(dflt="=dst"))]),
                     ("tmatmul.bias", []), ("tgemv", []), ("tgemv.acc", [("acc_in", T(dflt="=dst"))]),
                     ("tgemv.bias", [])]:
    ins = extra_in + [("lhs", T(dflt="f16")), ("rhs", T(dflt="=lhs"))]
    if op.endswith("bias"):
        ins.append(("bias", T(dflt="=dst")))
    fixture(op, ins, [("dst", T())], "", MATMUL_OVERRIDES)
for op in ["tmatmul.mx", "tmatmul.mx.acc", "tmatmul.mx.bias", "tgemv.mx", "tgemv.mx.acc", "tgemv.mx.bias"]:
    ins = [("a", T("16x64", "f8E4M3")), ("a_scale", T(dflt="f16")), ("b", T("16x64", "f8E4M3")),
           ("b_scale", T(dflt="f16"))]
    if op.endswith("acc"):
        ins.insert(0, ("c_in", T(dflt="=dst")))
    if op.endswith("bias"):
        ins.append(("bias", T()))
    fixture(op, ins, [("dst", T())])
for op, d in [("tadd", "f32"), ("tsub", "f32"), ("tmul", "f32"), ("tdiv", "f32"), ("tmax", "f32"),
              ("tmin", "f32"), ("tfmod", "f32"), ("tand", "i32"), ("tor", "i32"), ("tshl", "i32"),
              ("tshr", "i32"), ("tpartadd", "f32"), ("tpartmax", "f32"), ("tpartmin", "f32"),
              ("tpartmul", "f32"), ("tconcat", "f32"), ("trowexpandadd", "f32"), ("trowexpandsub", "f32"),
              ("trowexpandmul", "f32"), ("trowexpanddiv", "f32"), ("trowexpandmax", "f32"),
              ("trowexpandmin", "f32"), ("trowexpandexpdif", "f32")]:
    fixture(op, [("src0", T(dflt=d)), ("src1", T(dflt=d))], [("dst", T(dflt=d))])
for op in ["tcolexpandadd", "tcolexpandsub", "tcolexpandmul", "tcolexpanddiv", "tcolexpandmax",
           "tcolexpandmin", "tcolexpandexpdif"]:
    fixture(op, [("src0", T()), ("src1", T("1x64"))], [("dst", T())])
fixture("trem", [("src0", T()), ("src1", T()), ("tmp", T())], [("dst", T())])
fixture("txor", [("src0", T(dflt="i32")), ("src1", T(dflt="i32")), ("tmp", T(dflt="i32"))], [("dst", T(dflt="i32"))])
fixture("tprelu", [("src0", T()), ("src1", T()), ("tmp", T(dflt="ui8"))], [("dst", T())])
for op, d in [("tadds", "f32"), ("tsubs", "f32"), ("tmuls", "f32"), ("tdivs", "f32"), ("tmaxs", "f32"),
              ("tmins", "f32"), ("tfmods", "f32"), ("tands", "i32"), ("tors", "i32"), ("tshls", "i32"),
              ("tshrs", "i32")]:
    fixture(op, [("src", T(dflt=d)), ("scalar", SC())], [("dst", T(dflt=d))])
for op, d in [("trems", "f32"), ("txors", "i32")]:
    fixture(op, [("src", T(dflt=d)), ("scalar", SC()), ("tmp", T(dflt=d))], [("dst", T(dflt=d))])
fixture("taxpy", [("src", T(dflt="f16")), ("scalar", SC())], [("dst", T())])
fixture("tlrelu", [("src", T()), ("slope", SC())], [("dst", T())])
for op, d in [("tabs", "f32"), ("tneg", "f32"), ("texp", "f32"), ("tlog", "f32"), ("tsqrt", "f32"),
              ("trsqrt", "f32"), ("trecip", "f32"), ("trelu", "f32"), ("tnot", "i32"), ("trowexpand", "f32"),
              ("tfillpad", "f32"), ("tfillpad_expand", "f32"), ("tfillpad_inplace", "f32"), ("tcolmax", "f32"),
              ("tcolmin", "f32"), ("tcolprod", "f32")]:
    fixture(op, [("src", T(dflt=d))], [("dst", T(dflt=d))])
fixture("tcolexpand", [("src", T("1x64"))], [("dst", T())])
fixture("tcvt", [("src", T())], [("dst", T(dflt="f16"))],
        "", [("src=" + c, "dst=" + d) for c, d in [("f16", "f32"), ("bf16", "f32"), ("ui8", "f16"),
                                                    ("i8", "f16"), ("i16", "f32"), ("i32", "f32"),
                                                    ("ui32", "i16"), ("i64", "f32"), ("f8E4M3", "f32"),
                                                    ("f8E5M2", "f32")]])
fixture("tquant", [("src", T())], [("dst", T(dflt="i8"))])
fixture("tdequant", [("src", T(dflt="i8")), ("scale", T(dflt="=dst")), ("offset", T(dflt="=dst"))], [("dst", T())])
fixture("tci", [("S", SC("i32"))], [("dst", T(dflt="i32"))])
fixture("ttri", [("diagonal", SC("i32"))], [("dst", T())])
fixture("trandom", [(r, SC("i32")) for r in ["key0", "key1", "counter0", "counter1", "counter2", "counter3"]],
        [("dst", T(dflt="i32"))])
fixture("tcmp", [("src0", T()), ("src1", T())], [("dst", T("16x32", "ui8"))])
fixture("tcmps", [("src", T()), ("scalar", SC())], [("dst", T("16x32", "ui8"))])
fixture("tsel", [("mask", T("16x32", "ui8")), ("src0", T()), ("src1", T()), ("tmp", T())], [("dst", T())])
fixture("tsels", [("mask", T("16x32", "ui8")), ("src", T()), ("tmp", T()), ("scalar", SC())], [("dst", T())])
for op in ["trowsum", "trowmax", "trowmin", "trowprod", "tcolsum"]:
    fixture(op, [("src", T()), ("tmp", T())], [("dst", T())])
for op in ["trowargmax", "trowargmin", "tcolargmax", "tcolargmin"]:
    fixture(op, [("src", T()), ("tmp", T())], [("dst", T(dflt="i32"))])
fixture("texpands", [("scalar", SC())], [("dst", T())])
fixture("thistogram", [("src", T("8x64", "ui16")), ("idx", T("8x64", "ui8"))], [("dst", T("8x256", "ui32"))])
fixture("tsort32", [("src", T("16x32")), ("idx", T("16x32", dflt="ui32"))], [("dst", T("16x128"))])
fixture("tgatherb", [("src", T()), ("offsets", T(dflt="ui32"))], [("dst", T())])
fixture("tscatter", [("src", T()), ("indexes", T(dflt="i32"))], [("dst", T())])
fixture("mgather", [("mem", T()), ("idx", T(dflt="i32"))], [("dst", T())])
fixture("mscatter", [("src", T()), ("idx", T(dflt="i32"))], [("mem", T())])
fixture("ttrans", [("src", T()), ("tmp", T())], [("dst", T())])
fixture("tpack", [("src", T(dflt="i32"))], [("dst", T(dflt="i16"))])

# ---------------------------------------------------------------- the table's rows

def preprocess(src):
    return subprocess.run(["cc", "-E", "-P", "-I" + ROOT, "-"], input=src, capture_output=True, text=True,
                          check=True).stdout


def op_names():
    """The full name of each opcode of the op table: {"TADD": "pto.tadd", ...}."""
    out = preprocess('#define PTO_OP(id, name, ...) @OP id name @\n#include "dialect/pto_ops.def"\n')
    return {op_id: "pto." + name for op_id, name in re.findall(r'@OP (\w+) "([^"]*)" @', out)}


NAMES = op_names()
OPCODES = {name: op_id for op_id, name in NAMES.items()}


def table_rows():
    """(kind, op, role, when, same_as) for every row of the table, in order;
    op is the opcode's name ("pto.tadd")."""
    out = preprocess('#define PTO_DTYPES(op, role, when, a2a3, a5, cpu) @ROW op role when @\n'
                     '#define PTO_SAME(op, role, when, as) @SAME op role when as @\n'
                     '#include "dialect/pto_dtypes.def"\n')
    rows = []
    for kind, op_id, body in re.findall(r'@(ROW|SAME) (\w+) (.*?) @', out):
        if op_id not in NAMES:
            sys.exit("generate.py: the table's opcode %s is not in the op table" % op_id)
        strs = re.findall(r'"([^"]*)"', body)
        rows.append((kind, NAMES[op_id], strs[0], strs[1], strs[2] if kind == "SAME" else None))
    return rows


def fixture_for(op, when):
    locs = " ".join(w for w in when.split() if "@" in w)
    if (op, locs) in FIXTURES:
        return FIXTURES[(op, locs)]
    sys.exit("generate.py: no fixture for %s when '%s'" % (op, when))


def same_groups(rows, op, when):
    """Roles that share one element type by the op's SAME rows applying here."""
    locs = {w for w in when.split() if "@" in w}
    groups = {}
    for kind, rop, role, rwhen, as_ in rows:
        if kind == "SAME" and rop == op and {w for w in rwhen.split() if "@" in w} <= locs:
            a, b = groups.setdefault(role, {role}), groups.setdefault(as_, {as_})
            merged = a | b
            for r in merged:
                groups[r] = merged
    return groups


def assign(rows, op, role, when, cls):
    """The element type of every tile role: the tested one, its SAME partners,
    the conditions, then the fixture's defaults and overrides."""
    ins, outs, overrides = fixture_for(op, when)
    groups = same_groups(rows, op, when)
    got = {}
    for r in groups.get(role, {role}):
        got[r] = cls
    for w in when.split():
        if "=" in w:
            r, c = w.split("=")
            got.setdefault(r, c)
    for fact, sets in overrides:
        r, c = fact.split("=")
        if got.get(r) == c:
            for s in sets.split():
                k, v = s.split("=")
                got.setdefault(k, v)
    specs = dict(ins + outs)
    for _ in range(3):
        for r, spec in specs.items():
            if spec[0] == "tile" and r not in got and not spec[3].startswith("="):
                got[r] = spec[3]
        for r, spec in specs.items():
            if spec[0] == "tile" and r not in got and spec[3][1:] in got:
                got[r] = got[spec[3][1:]]
    return got


def op_text(op, when, types, args):
    """`pto.op ins(...) outs(...)` with fresh argument names recorded in args."""
    ins, outs, _ = fixture_for(op, when)
    def group(items):
        names, tys = [], []
        for role, spec in items:
            if spec[0] == "index":
                names.append("%c0")
                tys.append("index")
                continue
            ty = spec[1] if spec[0] == "scalar" else "!pto.tile_buf<%s, %sx%s%s>" % (
                spec[1], spec[2], spell(types[role]), spec[4])
            name = "%%a%d" % len(args)
            args.append("%s: %s" % (name, ty))
            names.append(name)
            tys.append(ty)
        return "%s : %s" % (", ".join(names), ", ".join(tys))
    return "%s ins(%s) outs(%s)" % (op, group(ins), group(outs))


# ---------------------------------------------------------------- lit cases

ARCHS = [("a3", 0), ("a5", 1)]
SCALAR_OPS = {"tadds", "tsubs", "tmuls", "tdivs", "tmaxs", "tmins", "trems", "tfmods", "tands", "tors", "txors",
              "tshls", "tshrs", "taxpy", "tlrelu"}
UNARY_OPS = {"tabs", "tneg", "texp", "tlog", "tsqrt", "trsqrt", "trecip", "trelu", "tnot"}


def family(op):
    """The test file of an op's rows."""
    name = op[len("pto."):]
    if name in ("textract", "tinsert"):
        return "move"
    if name.startswith(("tmatmul", "tgemv")):
        return "cube"
    if name in ("tcvt", "tquant", "tdequant"):
        return "convert"
    if name in ("tcmp", "tcmps", "tsel", "tsels"):
        return "compare"
    if name.startswith(("trowexpand", "tcolexpand", "texpands")):
        return "expand"
    if name.startswith(("trow", "tcol")):
        return "reduce"
    if name in SCALAR_OPS:
        return "scalar"
    if name in UNARY_OPS:
        return "unary"
    if name in ("tadd", "tsub", "tmul", "tdiv", "tmax", "tmin", "trem", "tfmod", "tand", "tor", "txor", "tshl",
                "tshr", "tprelu") or name.startswith("tpart"):
        return "elementwise"
    return "misc"


def unimplemented(op, arch_index):
    sets = [v[arch_index] for k, v in HW.items() if k[0] == op]
    return all(not s for s in sets)


def when_phrase(when):
    parts = []
    for w in when.split():
        r, sep, v = re.split(r"([=@])", w)
        parts.append("%s is %s%s" % (r, "in loc=" if sep == "@" else "", v))
    return " when " + " and ".join(parts) if parts else ""


# The location pairs with a kernel (TEXTRACT_IMPL / TINSERT_IMPL dispatch).
PATHS = {("pto.textract", 0): {"vec->vec", "mat->left", "mat->right", "acc->mat"},
         ("pto.textract", 1): {"vec->vec", "mat->left", "mat->right", "acc->mat", "acc->vec", "vec->mat",
                               "mat->scaling"},
         ("pto.tinsert", 0): {"vec->vec", "acc->mat"},
         ("pto.tinsert", 1): {"acc->mat", "acc->vec", "vec->mat", "vec->vec"}}


def locs_of(op, when):
    ins, outs, _ = fixture_for(op, when)
    return {r: spec[1] for r, spec in ins + outs if spec[0] == "tile"}


def expected_error(rows, op, when, types, arch, i):
    """The first rule the hardware breaks for this instance, as ptoc words it."""
    if unimplemented(op, i):
        return "%s is only supported on A5" % op[4:]
    locs = locs_of(op, when)
    if (op, i) in PATHS:
        pair = "%s->%s" % (locs["src"], locs["dst"])
        if pair not in PATHS[(op, i)]:
            return "moves src in loc=%s to dst in loc=%s, which %s has no kernel for" % (locs["src"], locs["dst"], arch)
    if op == "pto.thistogram" and types["src"] not in ("i16", "ui16", "i32", "ui32"):
        return "src element type must be a 16- or 32-bit unsigned or signless integer"   # ptoc's own rule first
    def holds(w):
        for t in w.split():
            r, sep, v = re.split(r"([=@])", t)
            if (types.get(r) if sep == "=" else locs.get(r)) != v:
                return False
        return True
    for kind, rop, role, rwhen, as_ in rows:
        if rop != op or role not in types or not holds(rwhen):
            continue
        if kind == "ROW" and types[role] not in HW[(op, role, rwhen)][i]:
            return "%s element type %s is not supported on %s%s" % (role, spell(types[role]), arch,
                                                                  when_phrase(rwhen))
        if kind == "SAME" and as_ in types and types[role] != types[as_]:
            return "%s element type %s does not match %s element type %s" % (role, spell(types[role]), as_,
                                                                            spell(types[as_]))
    return None


NEAR = ["ui16", "i8", "bf16", "ui32", "i64", "f16", "i32", "f32", "i16", "ui8", "ui64", "f8E4M3", "f8E5M2", "other"]


def pick(rows, op, role, when, arch, i, want_ok):
    """A class the hardware accepts (want_ok) or rejects for `role`, the
    near misses first (those the other arch takes), and the instance."""
    here, other = HW[(op, role, when)][i], HW[(op, role, when)][1 - i]
    order = [c for c in NEAR if (c in here) == want_ok and (c in other) != want_ok]
    order += [c for c in NEAR if (c in here) == want_ok and c not in order]
    for c in order:
        types = assign(rows, op, role, when, c)
        err = expected_error(rows, op, when, types, arch, i)
        if (err is None) == want_ok:
            return c, types, err
    return None, None, None


def quirk_warning(op, types, arch):
    """The A2/A3 compare quirk an accepted case meets, which the verifier
    warns about: tcmps of 16-bit integers compares them as fp16 (pto-isa
    a2a3 TCmps.hpp). The int32 quirk needs a cmpMode other than eq or ne;
    the fixtures compare with the default, eq."""
    if arch == "a3" and op == "pto.tcmps" and dict(types).get("src") in ("i16", "ui16"):
        return "compares them as fp16"
    return None


def function(name, op, when, types, expect, warn=None):
    args = []
    text = op_text(op, when, types, args)
    body = []
    if any("indexRow" == r for r, _ in fixture_for(op, when)[0]):
        body.append("  %c0 = arith.constant 0 : index")
    if expect:
        body.append("  // expected-error@+1 {{%s}}" % expect)
    if warn:
        body.append("  // expected-warning@+1 {{%s}}" % warn)
    body.append("  " + text)
    return "  func.func @%s(%s) {\n%s\n    return\n  }" % (name, ", ".join(args), "\n".join("  " + b for b in body))


def set_row_chunk(rows, op, role, when):
    sets = HW.get((op, role, when))
    if sets is None:
        sys.exit("generate.py: no hardware sets for %s %s '%s'" % (op, role, when))
    lines = ["// %s %s%s: a2/a3 %s; a5 %s" % (op[4:], role, when_phrase(when),
                                              " ".join(c for c in CLASSES if c in sets[0]) or "none",
                                              " ".join(c for c in CLASSES if c in sets[1]) or "none")]
    for arch, i in ARCHS:
        funcs = []
        good, types, _ = pick(rows, op, role, when, arch, i, True)
        if good:
            funcs.append(function("ok", op, when, types, None, quirk_warning(op, types, arch)))
        bad, types, err = pick(rows, op, role, when, arch, i, False)
        if bad:
            funcs.append(function("bad", op, when, types, err))
        lines.append('module attributes {pto.target_arch = "%s"} {\n%s\n}' % (arch, "\n".join(funcs)))
    return "\n".join(lines)


def same_row_chunk(rows, op, role, when, as_):
    ins, outs, _ = fixture_for(op, when)
    if dict(ins + outs)[role][0] != "tile":
        return None
    for c in NEAR:
        base = assign(rows, op, as_, when, c)
        if expected_error(rows, op, when, base, "a5", 1) is None:
            break
    types = dict(base)
    types[role] = "f16" if base[as_] != "f16" else "f32"
    err = expected_error(rows, op, when, types, "a5", 1)
    return ("// %s %s%s has %s's element type\n" % (op[4:], role, when_phrase(when), as_) +
            'module attributes {pto.target_arch = "a5"} {\n%s\n}' % function("bad", op, when, types, err))


def write_lit(rows):
    chunks = {}
    for kind, op, role, when, as_ in rows:
        c = set_row_chunk(rows, op, role, when) if kind == "ROW" else same_row_chunk(rows, op, role, when, as_)
        if c:
            chunks.setdefault(family(op), []).append(c)
    here = os.path.dirname(os.path.abspath(__file__))
    for fam, cs in chunks.items():
        with open(os.path.join(here, fam + ".pto"), "w") as f:
            f.write("// Element types per target of the %s ops, one chunk per row of the\n" % fam)
            f.write("// table (dialect/pto_dtypes.def): on a3 and on a5, a type the hardware\n")
            f.write("// implementation accepts verifies and one it rejects is the diagnostic.\n")
            f.write("// Written by generate.py from its own transcription of the hardware checks.\n")
            f.write("// RUN: ptoc-opt %s --split-input-file --verify-diagnostics\n\n")
            f.write("\n\n// -----\n\n".join(cs) + "\n")


# ---------------------------------------------------------------- unit test fixtures

def c_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_fixtures():
    out = ["/* dtype_fixtures.inc: written by test/dialect/pto/dtypes/generate.py.",
           " * FIXTURE(opcode, loc conditions, ins, outs, overrides): each operand is",
           " * `role:kind:loc:shape:default:extra` (kind t tile, s scalar, i index),",
           " * separated by ';'; overrides are `fact>role=class,...` separated by ';'. */"]
    for (op, locs), (ins, outs, overrides) in FIXTURES.items():
        def enc(items):
            parts = []
            for role, spec in items:
                if spec[0] == "tile":
                    parts.append("%s:t:%s:%s:%s:%s" % (role, spec[1], spec[2], spec[3], spec[4]))
                elif spec[0] == "scalar":
                    parts.append("%s:s:%s" % (role, spec[1]))
                else:
                    parts.append("%s:i" % role)
            return ";".join(parts)
        ov = ";".join("%s>%s" % (f, s.replace(" ", ",")) for f, s in overrides)
        if op not in OPCODES:
            sys.exit("generate.py: the fixture's op %s is not in the op table" % op)
        out.append("FIXTURE(%s, %s, %s, %s, %s)" % (OPCODES[op], c_str(locs), c_str(enc(ins)), c_str(enc(outs)),
                                                    c_str(ov)))
    with open(os.path.join(ROOT, "test", "unit", "dtype_fixtures.inc"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    rows = table_rows()
    write_lit(rows)
    write_fixtures()
