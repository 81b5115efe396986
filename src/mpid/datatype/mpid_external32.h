/*
 * external32: the portable data representation of MPI 4.1 (§5.2 "Canonical MPI_PACK and
 * MPI_UNPACK", whose format is the table of §14.5.2).
 *
 * Every basic element is stored big-endian at the fixed size of the standard's table, pair types as
 * their two members back to back, with no padding anywhere:
 *   - integers in two's complement: CHAR/BYTE/PACKED/C_BOOL 1, SHORT 2, INT 4, LONG 4 (!),
 *     LONG_LONG 8, AINT/COUNT/OFFSET 8, Fortran LOGICAL/INTEGER 4, INTEGERn and INTn_T n;
 *   - WCHAR 2, as an unsigned 16-bit code unit (0 to 0xFFFF), whatever the width of wchar_t;
 *   - reals in IEEE format: FLOAT 4, DOUBLE 8, LONG_DOUBLE 16 (IEEE quad; x87 extended values are
 *     converted exactly on the way out and rounded to nearest-even on the way in), REALn n;
 *   - complex types as two of their reals.
 * A native integer wider than its external32 slot (MPI_LONG, MPI_UNSIGNED_LONG on LP64, MPI_WCHAR
 * where wchar_t has 4 bytes) is stored as its low bytes when its value fits them; when it does not
 * (a wchar_t beyond 0xFFFF or negative), packing stops with MPI_ERR_CONVERSION (the bytes before
 * that element are written, none after). Unpacking widens by sign extension (zero extension for
 * the unsigned types and MPI_WCHAR).
 * MPI_REAL16 and MPI_COMPLEX32 are long double in this library (see type_f90.c), so they are
 * converted like MPI_LONG_DOUBLE.
 */
#ifndef MPID_EXTERNAL32_H_INCLUDED
#define MPID_EXTERNAL32_H_INCLUDED

#include "mpi.h"

/* External32 bytes of one element of a predefined type, INT64_MAX if it has no representation. */
MPI_Count MPID_External32_basic_size(MPI_Datatype type);

/* Bytes that count instances of type take in external32. The type need not be committed. */
int MPID_External32_size(MPI_Datatype type, MPI_Count count, MPI_Count *size);

/* Converts (inbuf, incount, type) to external32 at out, which must hold
 * MPID_External32_size(type, incount) bytes. type must be committed. */
int MPID_External32_pack(const void *inbuf, MPI_Count incount, MPI_Datatype type, void *out);

/* Converts the external32 bytes at in (MPID_External32_size(type, outcount) of them) into
 * (outbuf, outcount, type). type must be committed. */
int MPID_External32_unpack(const void *in, void *outbuf, MPI_Count outcount, MPI_Datatype type);

#endif
