/*
 * Type matching between sender and receiver (MPI 4.1, 3.3.1): the sender's type signature must be
 * a prefix of the receiver's, MPI_PACKED matches anything, MPI_BYTE only MPI_BYTE. The library
 * detects a mismatch, completes the receive with MPI_ERR_TYPE and names both signatures in the
 * message. Every rank sends each case to the next one with MPI_ERRORS_RETURN on MPI_COMM_WORLD;
 * the sends always succeed, and a well-typed message after each case proves that a rejected
 * message left nothing behind.
 *
 * The runner also runs this program with LOOM_TYPE_CHECK=0 (as type_mismatch_nocheck): then
 * nothing is checked and every receive must succeed, delivering the bytes unchanged. Other MPI
 * libraries do not check signatures: under MPICH the program expects what it expects unchecked.
 */
#include <stddef.h>
#include <stdlib.h>
#include "mtest.h"

static int rank, size, prev, next, checking;

/* Whether one of the names in alternatives ("A|B": synonyms such as MPI_LONG_LONG and
 * MPI_LONG_LONG_INT) occurs in msg as a whole name (MPI_LONG is not found in MPI_LONG_LONG). */
static int names(const char *msg, const char *alternatives)
{
    char name[64];
    for (const char *a = alternatives; *a;) {
        size_t n = strcspn(a, "|");
        snprintf(name, sizeof name, "%.*s", (int) n, a);
        for (const char *p = msg; (p = strstr(p, name)) != NULL; p++) {
            char c = p[n];
            if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
                return 1;
        }
        a += n + (a[n] == '|');
    }
    return 0;
}

/* The next message, always well typed, must arrive intact. */
static void follow_up(int tag)
{
    int out = rank * 10 + tag, in = -1;
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, next, tag, &in, 1, MPI_INT, prev, tag, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(in == prev * 10 + tag, "tag %d: the message after the case holds %d, expected %d", tag, in, prev * 10 + tag);
}

/* Sends (sbuf, scount, stype) to next, receives (rbuf, rcount, rtype) from prev. match: the
 * signatures match; sname/rname: the names the error message must hold (NULL: not checked).
 * Returns the receive's error code. */
static int exchange(const char *what, int tag, const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, int rcount, MPI_Datatype rtype, int match, const char *sname, const char *rname)
{
    MPI_Request req;
    CHECK_MPI(MPI_Isend(sbuf, scount, stype, next, tag, MPI_COMM_WORLD, &req));
    int rc = MPI_Recv(rbuf, rcount, rtype, prev, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0, cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &cls);
        MPI_Error_string(rc, msg, &len);
    }
    if (match || !checking) {
        if (rc != MPI_SUCCESS)
            MTEST_FAIL("%s: the receive failed (%s), expected success", what, msg);
    } else if (cls != MPI_ERR_TYPE) {
        MTEST_FAIL("%s: the receive gave class %d (%s), expected MPI_ERR_TYPE", what, cls, msg);
    } else if ((sname && !names(msg, sname)) || (rname && !names(msg, rname))) {
        MTEST_FAIL("%s: the message does not name %s and %s: \"%s\"", what, sname, rname, msg);
    }
    follow_up(tag + 1);
    return rc;
}

/* The receive buffer holds the sent bytes unchanged (no conversion between types). */
static void same_bytes(const char *what, const void *sent, const void *got, size_t n)
{
    CHECK(memcmp(sent, got, n) == 0, "%s: the received bytes differ from the sent ones", what);
}

static void basic(void)
{
    int ints[4] = { rank, rank + 1, -rank, 1 << 30 }, prev_ints[4] = { prev, prev + 1, -prev, 1 << 30 };
    float floats[4];
    exchange("MPI_INT -> MPI_FLOAT", 0, ints, 4, MPI_INT, floats, 4, MPI_FLOAT, 0, "MPI_INT", "MPI_FLOAT");
    if (!checking)
        same_bytes("MPI_INT -> MPI_FLOAT", prev_ints, floats, sizeof floats);

    long longs[2] = { rank, -1L };
    long long got_ll[2];
    exchange("MPI_LONG -> MPI_LONG_LONG (same size, other type)", 2, longs, 2, MPI_LONG, got_ll, 2,
             MPI_LONG_LONG, 0, "MPI_LONG", "MPI_LONG_LONG|MPI_LONG_LONG_INT");

    unsigned char bytes[8] = { 1, 2, 3, 4, 5, 6, 7, (unsigned char) rank }, got[8];
    exchange("MPI_BYTE -> MPI_CHAR", 4, bytes, 8, MPI_BYTE, got, 8, MPI_CHAR, 0, "MPI_BYTE", "MPI_CHAR");
    exchange("MPI_BYTE -> MPI_UNSIGNED_CHAR", 6, bytes, 8, MPI_BYTE, got, 8, MPI_UNSIGNED_CHAR, 0,
             "MPI_BYTE", "MPI_UNSIGNED_CHAR");
    exchange("MPI_INT -> MPI_BYTE", 8, ints, 2, MPI_INT, got, 8, MPI_BYTE, 0, "MPI_INT", "MPI_BYTE");
    if (!checking)
        same_bytes("MPI_INT -> MPI_BYTE", prev_ints, got, 8);
    memset(got, 0, sizeof got);
    exchange("MPI_BYTE -> MPI_BYTE", 10, bytes, 8, MPI_BYTE, got, 8, MPI_BYTE, 1, NULL, NULL);
    CHECK(got[0] == 1 && got[6] == 7 && got[7] == (unsigned char) prev, "MPI_BYTE -> MPI_BYTE: wrong data");

    MPI_Datatype eight_bytes;
    MPI_Type_contiguous(8, MPI_BYTE, &eight_bytes);
    MPI_Type_commit(&eight_bytes);
    memset(got, 0, sizeof got);
    exchange("MPI_BYTE -> contiguous(8, MPI_BYTE)", 12, bytes, 8, MPI_BYTE, got, 1, eight_bytes, 1, NULL, NULL);
    CHECK(got[7] == (unsigned char) prev, "MPI_BYTE -> contiguous of bytes: wrong data");
    MPI_Type_free(&eight_bytes);

    int five[5] = { -1, -1, -1, -1, -1 };
    exchange("3 MPI_INT -> 5 MPI_INT (a prefix)", 14, ints, 3, MPI_INT, five, 5, MPI_INT, 1, NULL, NULL);
    CHECK(five[0] == prev && five[2] == -prev && five[3] == -1, "3 ints into 5: wrong data");
}

/* MPI_PACKED matches any signature, on either side. */
static void packed(void)
{
    int ints[4] = { rank, 2, 3, 4 };
    char packbuf[256];
    exchange("MPI_INT -> MPI_PACKED", 20, ints, 4, MPI_INT, packbuf, (int) sizeof packbuf, MPI_PACKED, 1, NULL, NULL);
    int out[4] = { -1, -1, -1, -1 }, pos = 0;
    CHECK_MPI(MPI_Unpack(packbuf, (int) sizeof packbuf, &pos, out, 4, MPI_INT, MPI_COMM_WORLD));
    CHECK(out[0] == prev && out[3] == 4, "MPI_INT -> MPI_PACKED: unpacked %d %d %d %d", out[0], out[1], out[2], out[3]);

    struct id { int i; double d; } s = { rank, rank + 0.25 }, r = { -1, -1 };
    MPI_Datatype id_type;
    MPI_Type_create_struct(2, (int[]) { 1, 1 }, (MPI_Aint[]) { offsetof(struct id, i), offsetof(struct id, d) },
                           (MPI_Datatype[]) { MPI_INT, MPI_DOUBLE }, &id_type);
    MPI_Type_commit(&id_type);
    pos = 0;
    CHECK_MPI(MPI_Pack(&s, 1, id_type, packbuf, (int) sizeof packbuf, &pos, MPI_COMM_WORLD));
    exchange("MPI_PACKED -> struct {int; double}", 22, packbuf, pos, MPI_PACKED, &r, 1, id_type, 1, NULL, NULL);
    CHECK(r.i == prev && r.d == prev + 0.25, "MPI_PACKED -> struct: got {%d, %g}", r.i, r.d);
    MPI_Type_free(&id_type);
}

static void derived(void)
{
    /* vector of two doubles vs struct {double; int; int}: the second element differs (the byte
     * counts agree, so that the unchecked run has a well-defined outcome) */
    double d[6] = { 1, 2, 3, 4, 5, 6 };
    MPI_Datatype v, dii, di, id, idi;
    MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &v);
    MPI_Type_create_struct(2, (int[]) { 1, 2 }, (MPI_Aint[]) { 0, 8 }, (MPI_Datatype[]) { MPI_DOUBLE, MPI_INT }, &dii);
    MPI_Type_create_struct(2, (int[]) { 1, 1 }, (MPI_Aint[]) { 0, 8 }, (MPI_Datatype[]) { MPI_DOUBLE, MPI_INT }, &di);
    MPI_Type_create_struct(2, (int[]) { 1, 1 }, (MPI_Aint[]) { 0, 8 }, (MPI_Datatype[]) { MPI_INT, MPI_DOUBLE }, &id);
    MPI_Type_create_struct(3, (int[]) { 1, 1, 1 }, (MPI_Aint[]) { 0, 8, 16 },
                           (MPI_Datatype[]) { MPI_INT, MPI_DOUBLE, MPI_INT }, &idi);
    MPI_Type_commit(&v);
    MPI_Type_commit(&dii);
    MPI_Type_commit(&di);
    MPI_Type_commit(&id);
    MPI_Type_commit(&idi);
    char buf[256];
    exchange("vector of doubles -> struct {double; int; int}", 30, d, 1, v, buf, 1, dii, 0, NULL, NULL);

    /* {int, double, int} is a prefix of {int, double} x 2 */
    char sbuf[24] = { 0 };
    exchange("struct {int; double; int} -> 2 x struct {int; double}", 32, sbuf, 1, idi, buf, 2, id, 1, NULL, NULL);
    /* {int, double} x 2 is not a prefix of {int, double, int} x 1 (the receive is too short):
     * that is a truncation, tested in truncate_derived; here {int, double} into {double, int} */
    exchange("struct {int; double} -> struct {double; int}", 34, sbuf, 1, id, buf, 1, di, 0, NULL, NULL);
    MPI_Type_free(&v);
    MPI_Type_free(&dii);
    MPI_Type_free(&di);
    MPI_Type_free(&id);
    MPI_Type_free(&idi);
}

/* A pair type's signature is its two members. */
static void pairs(void)
{
    int two[6] = { 1, 2, 3, 4, 5, 6 }, six[6];
    exchange("MPI_2INT -> MPI_INT", 40, two, 3, MPI_2INT, six, 6, MPI_INT, 1, NULL, NULL);
    CHECK(six[0] == 1 && six[5] == 6, "MPI_2INT -> MPI_INT: wrong data");
    struct { float f; int i; } fi[2] = { { 1.5f, 2 }, { 3.5f, 4 } };
    int got[4];
    exchange("MPI_FLOAT_INT -> MPI_2INT", 42, fi, 2, MPI_FLOAT_INT, got, 2, MPI_2INT, 0, NULL, NULL);
    MPI_Datatype fi_struct;
    MPI_Type_create_struct(2, (int[]) { 1, 1 }, (MPI_Aint[]) { 4, 0 }, (MPI_Datatype[]) { MPI_FLOAT, MPI_INT }, &fi_struct);
    MPI_Type_commit(&fi_struct);
    exchange("MPI_FLOAT_INT -> struct {float at 4; int at 0}", 44, fi, 2, MPI_FLOAT_INT, got, 2, fi_struct, 1, NULL, NULL);
    CHECK(got[0] == 2 && got[2] == 4, "MPI_FLOAT_INT -> struct: wrong data");
    MPI_Type_free(&fi_struct);
}

/* A pipelined message that mismatches: the sender still completes, the receiver reports it. */
static void large(void)
{
    enum { N = 1 << 18 };   /* 1 MB */
    int *ints = malloc(N * sizeof *ints);
    float *floats = malloc(N * sizeof *floats);
    if (!ints || !floats) {
        MTEST_FAIL("out of memory");
        exit(1);
    }
    for (int i = 0; i < N; i++)
        ints[i] = i;
    exchange("1 MB of MPI_INT -> MPI_FLOAT", 50, ints, N, MPI_INT, floats, N, MPI_FLOAT, 0, "MPI_INT", "MPI_FLOAT");
    if (!checking)
        same_bytes("1 MB of MPI_INT -> MPI_FLOAT", ints, floats, N * sizeof(int));
    free(ints);
    free(floats);
}

/* Through MPI_Waitall: MPI_ERR_IN_STATUS, and the mismatch in the request's status. */
static void waitall(void)
{
    int ints[2] = { 7, 8 }, a[2], b[2];
    MPI_Request req[4];
    MPI_Status st[4];
    CHECK_MPI(MPI_Irecv(a, 2, MPI_INT, prev, 60, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Irecv(b, 2, MPI_FLOAT, prev, 61, MPI_COMM_WORLD, &req[1]));
    CHECK_MPI(MPI_Isend(ints, 2, MPI_INT, next, 60, MPI_COMM_WORLD, &req[2]));
    CHECK_MPI(MPI_Isend(ints, 2, MPI_INT, next, 61, MPI_COMM_WORLD, &req[3]));
    int rc = MPI_Waitall(4, req, st), cls = -1;
    MPI_Error_class(rc, &cls);
    if (!checking) {
        CHECK(rc == MPI_SUCCESS, "MPI_Waitall failed (class %d), expected success", cls);
    } else {
        CHECK(cls == MPI_ERR_IN_STATUS, "MPI_Waitall gave class %d, expected MPI_ERR_IN_STATUS", cls);
        int c[4];
        for (int k = 0; k < 4; k++)
            MPI_Error_class(st[k].MPI_ERROR, &c[k]);
        CHECK(c[1] == MPI_ERR_TYPE, "the mismatched receive's status has class %d, expected MPI_ERR_TYPE", c[1]);
        /* the others completed (MPI_SUCCESS) or are still pending (MPI_ERR_PENDING, MPI 4.1
         * 3.7.5): then they are still active and are waited for here */
        for (int k = 0; k < 4; k++) {
            if (k == 1)
                continue;
            CHECK(c[k] == MPI_SUCCESS || c[k] == MPI_ERR_PENDING, "status %d has class %d, expected "
                  "MPI_SUCCESS or MPI_ERR_PENDING", k, c[k]);
            if (c[k] == MPI_ERR_PENDING)
                CHECK_MPI(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
        }
    }
    CHECK(a[0] == 7 && a[1] == 8, "Waitall: the well-typed receive got %d %d", a[0], a[1]);
    follow_up(62);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    prev = (rank + size - 1) % size;
    next = (rank + 1) % size;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *env = getenv("LOOM_TYPE_CHECK");
    checking = !(env && env[0] == '0');
#if defined(MPICH_VERSION)
    checking = 0;
#endif
#if defined(TYPE_MISMATCH_NOCHECK)
    CHECK(!checking, "type_mismatch_nocheck runs without LOOM_TYPE_CHECK=0: see the testlist");
#endif
    basic();
    packed();
    derived();
    pairs();
    large();
    waitall();
    return MTest_Finalize();
}
