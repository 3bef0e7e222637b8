#!/usr/bin/env python3
"""Marks every floating-point arithmetic result of a SPIR-V module NoContraction (the effect of
GLSL's `precise` on every expression); with --c-array, only writes a module's words as a C
initialiser, like `glslc -mfmt=c`.

Why: Vulkan lets a compiler fuse a*b+c into an FMA and re-associate float arithmetic unless
the result is NoContraction (Mesa's NIR does, e.g. (a - k*c1) - k*c2 -> a - k*(c1 + c2)). The
CPU reference is built with -ffp-contract=off; with this the compute shaders round every
operation the same way, so the two backends give the same bits (clothcheck).

usage: spirv_exact.py IN.spv OUT.spv
       spirv_exact.py --c-array IN.spv OUT.inc
"""
import struct
import sys

NO_CONTRACTION = 42
OP_DECORATE = 71
OP_EXT_INST_IMPORT = 11
OP_EXT_INST = 12
ANNOTATIONS = {71, 72, 73, 74, 75, 332, 5632, 5633}
# OpFNegate, OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod, OpVectorTimesScalar,
# OpMatrixTimesScalar, OpVectorTimesMatrix, OpMatrixTimesVector, OpMatrixTimesMatrix,
# OpOuterProduct, OpDot: all have (result type, result id) as their first operands.
FLOAT_ARITHMETIC = {127, 129, 131, 133, 136, 140, 141, 142, 143, 144, 145, 146, 147, 148}


def read_words(path):
    data = open(path, "rb").read()
    words = list(struct.unpack("<%dI" % (len(data) // 4), data))
    if not words or words[0] != 0x07230203:
        sys.exit("%s: not a little-endian SPIR-V module" % path)
    return words


def mark_exact(words, path):
    insts = []  # (start, length, opcode)
    i = 5
    while i < len(words):
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if count == 0:
            sys.exit("%s: malformed instruction at word %d" % (path, i))
        insts.append((i, count, opcode))
        i += count
    glsl_sets = set()
    for start, count, opcode in insts:
        if opcode == OP_EXT_INST_IMPORT:
            name = struct.pack("<%dI" % (count - 2), *words[start + 2:start + count])
            if name.rstrip(b"\0") == b"GLSL.std.450":
                glsl_sets.add(words[start + 1])
    already = {words[s + 1] for s, c, op in insts
               if op == OP_DECORATE and c >= 3 and words[s + 2] == NO_CONTRACTION}
    targets = []
    for start, count, opcode in insts:
        arithmetic = opcode in FLOAT_ARITHMETIC
        extended = opcode == OP_EXT_INST and words[start + 3] in glsl_sets
        if (arithmetic or extended) and words[start + 2] not in already:
            targets.append(words[start + 2])
    first_annotation = next((s for s, c, op in insts if op in ANNOTATIONS), None)
    if first_annotation is None:
        sys.exit("%s: no annotation section to add decorations to" % path)
    added = []
    for target in targets:
        added += [(3 << 16) | OP_DECORATE, target, NO_CONTRACTION]
    return words[:first_annotation] + added + words[first_annotation:]


def main():
    args = sys.argv[1:]
    if args and args[0] == "--c-array":
        words = read_words(args[1])
        with open(args[2], "w") as out:
            out.write("{" + ",".join("0x%08x" % w for w in words) + "}\n")
        return
    words = mark_exact(read_words(args[0]), args[0])
    with open(args[1], "wb") as out:
        out.write(struct.pack("<%dI" % len(words), *words))


if __name__ == "__main__":
    main()
