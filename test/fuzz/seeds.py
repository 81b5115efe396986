#!/usr/bin/env python3
"""Writes the hand-made seed inputs of fuzz_datatype into test/fuzz/corpus/ (seed-*.bin).

The fuzzer reads its input as a small program (see fuzz_datatype.c); an exhausted input reads as
zeros, so every seed may stop early. The layout, byte by byte:

    nops                          number of operations (mod 25)
    per operation: opcode, variant (variant & 3: 0 int API, 1 the _c twin, 2 the MPI-1 name)
        CONTIG      count type
        VECTOR      count blocklen stride type         (stride in elements)
        HVECTOR     count blocklen stride type         (stride in bytes)
        INDEXED, HINDEXED
                    n {count disp}*n type
        INDEXED_BLOCK, HINDEXED_BLOCK
                    n blocklen disp*n type
        STRUCT      n {count disp type}*n
        SUBARRAY    ndims {size subsize start}*ndims order type
        DARRAY      nprocs rank ndims free_psizes {gsize distrib darg [psize]}*ndims order type
        RESIZED     lb extent type
        DUP         type
        FREE        slot
        COMMIT      slot
        CONTENTS    slot large
        VALUE_INDEX type type mode [size]
        F90         which
        MARKERS     type blocklen lb_disp disp ub_disp  (struct of MPI_LB, type, MPI_UB)
        VEC_CONTIG  type n count blocklen stride       (vector of contiguous(n, type))
    then: target (< 128: the newest type), count (1 + x % 3), seed u32, split u32, first i32,
          last i32, knobs.

Value bytes: counts are C(v) for v in 0..15; displacements D(v) for v in -16..15 (x8: D8, x1000:
D1000); types T(name) for predefined ones, S(k) for the k-th type made so far.
"""
import os
import struct
import sys

OPS = ['CONTIG', 'VECTOR', 'HVECTOR', 'INDEXED', 'HINDEXED', 'INDEXED_BLOCK', 'HINDEXED_BLOCK',
       'STRUCT', 'SUBARRAY', 'DARRAY', 'RESIZED', 'DUP', 'FREE', 'COMMIT', 'CONTENTS',
       'VALUE_INDEX', 'F90', 'MARKERS', 'VEC_CONTIG']
PREDEFINED = ['CHAR', 'BYTE', 'SHORT', 'INT', 'LONG', 'UNSIGNED_LONG', 'FLOAT', 'DOUBLE',
              'LONG_DOUBLE', 'C_BOOL', 'WCHAR', 'INT8_T', 'UINT16_T', 'INT64_T', 'C_FLOAT_COMPLEX',
              'C_DOUBLE_COMPLEX', 'C_LONG_DOUBLE_COMPLEX', 'PACKED', 'AINT', 'FLOAT_INT',
              'DOUBLE_INT', 'LONG_INT', 'SHORT_INT', '2INT', 'LONG_DOUBLE_INT', 'LB', 'UB',
              'INTEGER', 'REAL', 'DOUBLE_COMPLEX', '2DOUBLE_PRECISION']
NTABLE = 34 + 8 + 6    # predefined, f90, invalid handles (fuzz_datatype.c)


def op(name, variant=0):
    return bytes([OPS.index(name), variant])


def C(v):
    """A count 0..15 (or the hostile specials with C.special(i))."""
    return bytes([v if v < 4 else 0x80 | v])


def C_special(i):     # -1, -7, INT_MAX, INT_MIN, 2^20, 2^30, 2^40, INT64_MAX
    return bytes([0xE0 | i])


def D(v):
    return bytes([v + 16])


def D8(v):
    return bytes([0x80 | (v + 16)])


def D1000(v):
    return bytes([0xC0 | (v + 16)])


def D_special(i):     # INT_MIN, INT_MAX, -2^20, 2^20, INT64_MIN, INT64_MAX, 2^40, -2^40
    return bytes([0xE0 | i])


def T(name):
    return bytes([144 + PREDEFINED.index(name)])


def T_f90(i):
    return bytes([144 + 34 + i])


def T_bad(i):
    return bytes([144 + 42 + i])


def S(k):
    """The k-th type made so far (valid while fewer than 16 were made)."""
    return bytes([k])


def tail(count=1, seed=12345, split=7, first=3, last=1000, knobs=0x03, target=0):
    return bytes([target, count - 1]) + struct.pack('>IIii', seed, split, first, last) + bytes([knobs])


def prog(*ops, **kw):
    return bytes([len(ops)]) + b''.join(ops) + tail(**kw)


SEEDS = {
    'predefined-int': bytes([0, 3]) + tail()[1:],
    'contig-double': prog(op('CONTIG') + C(5) + T('DOUBLE')),
    'contig-c': prog(op('CONTIG', 1) + C(3) + T('FLOAT_INT')),
    'vector-int': prog(op('VECTOR') + C(3) + C(2) + D(4) + T('INT'), count=2),
    'vector-negstride': prog(op('VECTOR') + C(4) + C(1) + D(-3) + T('SHORT')),
    'vector-c-overlap': prog(op('VECTOR', 1) + C(5) + C(3) + D(1) + T('CHAR')),
    'hvector-unaligned': prog(op('HVECTOR') + C(3) + C(2) + D(5) + T('INT'), count=3),
    'hvector-mpi1': prog(op('HVECTOR', 2) + C(4) + C(1) + D8(-2) + T('DOUBLE_INT')),
    'indexed': prog(op('INDEXED') + C(3) + C(2) + D(0) + C(1) + D(5) + C(3) + D(-4) + T('INT')),
    'indexed-zero-blocks': prog(op('INDEXED') + C(3) + C(0) + D(1) + C(2) + D(3) + C(0) + D(9) + T('FLOAT')),
    'hindexed': prog(op('HINDEXED') + C(2) + C(2) + D8(3) + C(1) + D(-7) + T('DOUBLE')),
    'indexed-block': prog(op('INDEXED_BLOCK') + C(3) + C(2) + D(6) + D(0) + D(-2) + T('SHORT_INT')),
    'hindexed-block-c': prog(op('HINDEXED_BLOCK', 1) + C(2) + C(3) + D(0) + D8(2) + T('C_DOUBLE_COMPLEX')),
    'struct-mixed': prog(op('STRUCT') + C(3) + C(1) + D(0) + T('CHAR') + C(2) + D8(1) + T('DOUBLE')
                         + C(1) + D(3) + T('SHORT'), count=2),
    'struct-lb-ub': prog(op('STRUCT', 2) + C(3) + C(1) + D(-4) + T('LB') + C(2) + D(0) + T('INT')
                         + C(1) + D(12) + T('UB'), count=3),
    'markers': prog(op('MARKERS') + T('FLOAT') + bytes([2]) + D(-8) + D(0) + D8(2), count=2),
    'subarray-2d-c': prog(op('SUBARRAY') + bytes([1]) + bytes([5, 2, 1]) + bytes([3, 1, 1])
                          + bytes([1]) + T('INT')),
    'subarray-3d-fortran': prog(op('SUBARRAY', 1) + bytes([2]) + bytes([3, 1, 0, 4, 2, 1, 2, 1, 1])
                                + bytes([0]) + T('DOUBLE')),
    'darray-block': prog(op('DARRAY') + bytes([3, 1, 1, 0]) + bytes([7, 0, 0, 1]) + bytes([3, 0, 0])
                         + bytes([1]) + T('INT')),
    'darray-cyclic': prog(op('DARRAY', 1) + bytes([3, 2, 0, 0]) + bytes([8, 1, 3]) + bytes([1]) + T('FLOAT')),
    'resized-neg': prog(op('CONTIG') + C(2) + T('INT'), op('RESIZED') + D(-4) + D(12) + S(0), count=3),
    'resized-neg-extent': prog(op('RESIZED') + D(8) + D(-8) + T('DOUBLE'), count=3),
    'dup-vector': prog(op('VECTOR') + C(2) + C(2) + D(3) + T('FLOAT'), op('DUP') + S(0), count=2),
    'vector-of-struct': prog(op('STRUCT') + C(2) + C(1) + D(0) + T('DOUBLE') + C(1) + D(8) + T('CHAR'),
                             op('VECTOR') + C(3) + C(2) + D(3) + S(0), count=2),
    'vec-contig': prog(op('VEC_CONTIG') + T('DOUBLE') + bytes([4, 4, 1, 6 + 2])),
    'nested-3': prog(op('CONTIG') + C(3) + T('SHORT'),
                     op('HVECTOR') + C(2) + C(1) + D(-10) + S(0),
                     op('INDEXED_BLOCK') + C(2) + C(1) + D(2) + D(-1) + S(1), count=2),
    'free-child-early': prog(op('VECTOR') + C(2) + C(1) + D(2) + T('INT'),
                             op('CONTIG') + C(2) + S(0),
                             op('FREE') + S(0), count=2),
    'stale-handle': prog(op('CONTIG') + C(2) + T('INT'), op('FREE') + S(0), op('DUP') + S(0)),
    'contents': prog(op('INDEXED') + C(2) + C(1) + D(0) + C(2) + D(3) + T('INT'),
                     op('CONTENTS') + S(0) + bytes([0]),
                     op('CONTENTS') + S(0) + bytes([1])),
    'commit-child': prog(op('CONTIG') + C(2) + T('LONG_DOUBLE'),
                         op('COMMIT') + S(0),
                         op('VECTOR') + C(2) + C(1) + D(-1) + S(0)),
    'value-index': prog(op('VALUE_INDEX') + T('DOUBLE') + T('INT') + bytes([1]), op('CONTIG') + C(2) + S(0)),
    'match-size': prog(op('VALUE_INDEX') + T('INT') + T('INT') + bytes([0, 8])),
    'f90': prog(op('F90') + bytes([0x28]), op('VECTOR') + C(2) + C(1) + D(2) + S(0)),
    'pairs-struct': prog(op('STRUCT') + C(3) + C(1) + D(0) + T('LONG_DOUBLE_INT') + C(2) + D8(4)
                         + T('SHORT_INT') + C(1) + D8(-2) + T('2INT')),
    'bad-count': prog(op('VECTOR') + C_special(0) + C(1) + D(1) + T('INT'), op('CONTIG') + C(1) + T('INT')),
    'bad-disp': prog(op('HINDEXED', 1) + C(2) + C(1) + D_special(5) + C(1) + D_special(4) + T('INT'),
                     op('CONTIG') + C(1) + T('INT')),
    'bad-type': prog(op('CONTIG') + C(2) + T_bad(0), op('STRUCT') + C(2) + C(1) + D(0) + T('INT')
                     + C(1) + D(4) + T_bad(2), op('CONTIG') + C(1) + T('BYTE')),
    'big-vector': prog(op('VECTOR', 1) + C_special(4) + C(2) + D(3) + T('INT')),
    'big-struct': prog(op('STRUCT', 1) + C(2) + C_special(4) + D(0) + T('INT') + C(1) + D_special(6) + T('CHAR')),
    'ranges-inside': prog(op('STRUCT') + C(2) + C(1) + D(0) + T('DOUBLE') + C(3) + D(8) + T('SHORT'),
                          count=3, split=5, first=3, last=11, knobs=0x01),
    'ranges-raw': prog(op('HVECTOR') + C(3) + C(1) + D(-6) + T('C_LONG_DOUBLE_COMPLEX'), count=2,
                       first=-5, last=1 << 30, knobs=0x00),
    'iov-window': prog(op('HINDEXED') + C(4) + C(1) + D(0) + C(1) + D(8) + C(2) + D(4) + C(1) + D(20)
                       + T('INT'), knobs=0xe6),
    'external32-long': prog(op('CONTIG') + C(3) + T('LONG')),
    'wchar-bool': prog(op('STRUCT') + C(2) + C(2) + D(0) + T('WCHAR') + C(3) + D(9) + T('C_BOOL')),
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, 'seed-' + name + '.bin'), 'wb') as f:
            f.write(data)
    print('%d seeds written to %s' % (len(SEEDS), out), file=sys.stderr)


if __name__ == '__main__':
    main()
