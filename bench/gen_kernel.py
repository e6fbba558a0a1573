"""Generates a synthetic PTO kernel of about N ops for the parser benchmark.

Usage: gen_kernel.py N > kernel.pto

The kernel is a module of vector-add-like functions in the PTOAS style: index
arithmetic, tensor views, partition views, tile allocation, tload, tadd/tmul,
tstore and sync flags inside an scf.for loop, with arith and scf.if around it.
Every function is the same shape, so time and memory should grow linearly
with N.
"""
import sys

TILE = ("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>")
VIEW = "!pto.tensor_view<?x?xf32>"
PART = "!pto.partition_tensor_view<16x64xf32>"

HEADER = "!tile = %s\n!view = %s\n!part = %s\n\nmodule attributes {pto.target_arch = \"a5\"} {\n" % (
    TILE, VIEW, PART)


def function(k):
    """One function; returns (text, number of ops)."""
    body = """  func.func @kernel_{k}(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %c: !pto.ptr<f32>, %n: index) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %rows = arith.muli %n, %c16 : index
    %va = pto.make_tensor_view %a, shape = [%rows, %c64], strides = [%c64, %c1] : !view
    %vb = pto.make_tensor_view %b, shape = [%rows, %c64], strides = [%c64, %c1] : !view
    %vc = pto.make_tensor_view %c, shape = [%rows, %c64], strides = [%c64, %c1] : !view
    %ta = pto.alloc_tile : !tile
    %tb = pto.alloc_tile : !tile
    %tc = pto.alloc_tile : !tile
    scf.for %i = %c0 to %n step %c1 {{
      %row = arith.muli %i, %c16 : index
      %pa = pto.partition_view %va, offsets = [%row, %c0], sizes = [%c16, %c64] : !view -> !part
      %pb = pto.partition_view %vb, offsets = [%row, %c0], sizes = [%c16, %c64] : !view -> !part
      %pc = pto.partition_view %vc, offsets = [%row, %c0], sizes = [%c16, %c64] : !view -> !part
      pto.tload ins(%pa : !part) outs(%ta : !tile)
      pto.tload ins(%pb : !part) outs(%tb : !tile)
      pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
      %odd = arith.remui %i, %c1 : index
      %is_odd = arith.cmpi ne, %odd, %c0 : index
      scf.if %is_odd {{
        pto.tmul ins(%ta, %tb : !tile, !tile) outs(%tc : !tile)
      }} else {{
        pto.tadd ins(%ta, %tb : !tile, !tile) outs(%tc : !tile)
      }}
      pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
      pto.tstore ins(%tc : !tile) outs(%pc : !part)
      pto.set_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
      pto.wait_flag[<PIPE_MTE3>, <PIPE_MTE2>, <EVENT_ID0>]
    }}
    return
  }}
""".format(k=k)
    # Ops: 5 arith + 3 views + 3 allocs + scf.for + (1 + 3 + 2 + 2 + 2 + scf.if + 2 ops
    # + 2 yields + 2 + 1 + 2 + yield) in the loop + return + func.func.
    ops = 5 + 3 + 3 + 1 + (1 + 3 + 2 + 2 + 2 + 1 + 2 + 2 + 2 + 1 + 2 + 1) + 1 + 1
    return body, ops


def main():
    target = int(sys.argv[1])
    out = [HEADER]
    total, k = 1, 0          # the module
    while total < target:
        text, ops = function(k)
        out.append(text)
        total += ops
        k += 1
    out.append("}\n")
    sys.stdout.write("".join(out))
    sys.stderr.write("gen_kernel.py: %d functions, %d ops\n" % (k, total))


if __name__ == "__main__":
    main()
