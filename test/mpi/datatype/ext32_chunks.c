/*
 * external32 of long scattered types of one basic type (the library converts these a chunk at a
 * time) against a model: the same elements packed one by one as single predefined elements and
 * concatenated. Vectors with blocks of 1 to 3 elements, positive and negative strides, thousands
 * of elements (many chunks), for integer, narrowed (MPI_LONG), real, long double and complex
 * types; then unpacking restores the elements and leaves the gaps alone. A value that does not fit
 * MPI_LONG's 4 bytes deep inside such a vector is still reported.
 */
#include <stdint.h>
#include <stdlib.h>
#include "mtest.h"

typedef struct {
    MPI_Datatype type;
    const char *name;
    int size;          /* native bytes of one element */
    int value_bytes;   /* bytes of each part that hold the value (long double: 10 of 16) */
    int parts;
} Basic;

#define LD_VALUE_BYTES (sizeof(long double) == 16 ? 10 : (int) sizeof(long double))

static const Basic basics[] = {
    { MPI_SHORT, "MPI_SHORT", sizeof(short), sizeof(short), 1 },
    { MPI_INT, "MPI_INT", sizeof(int), sizeof(int), 1 },
    { MPI_LONG, "MPI_LONG", sizeof(long), sizeof(long), 1 },
    { MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(long), sizeof(long), 1 },
    { MPI_FLOAT, "MPI_FLOAT", sizeof(float), sizeof(float), 1 },
    { MPI_DOUBLE, "MPI_DOUBLE", sizeof(double), sizeof(double), 1 },
    { MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double), LD_VALUE_BYTES, 1 },
    { MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 2 * sizeof(double), sizeof(double), 2 },
    { MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double), LD_VALUE_BYTES, 2 },
    { MPI_INT8_T, "MPI_INT8_T", 1, 1, 1 },
    { MPI_INTEGER16, "MPI_INTEGER16", 16, 16, 1 },
};

/* Element i of the buffer: a value every type can carry (longs within 32 bits). */
static void fill(const Basic *b, unsigned char *buf, long n)
{
    memset(buf, 0, (size_t) (n * b->size));
    for (long i = 0; i < n; i++) {
        unsigned char *p = buf + i * b->size;
        long v = (i * 2654435761L) % 100003 - 50000;
        if (b->type == MPI_LONG_DOUBLE || b->type == MPI_C_LONG_DOUBLE_COMPLEX) {
            long double x = v / 7.0L;
            memcpy(p, &x, sizeof x);
            if (b->parts == 2) {
                x = -x / 3;
                memcpy(p + sizeof x, &x, sizeof x);
            }
        } else if (b->type == MPI_LONG || b->type == MPI_UNSIGNED_LONG) {
            long x = b->type == MPI_LONG ? v : labs(v) * 40000;
            memcpy(p, &x, sizeof x);
        } else {
            for (int k = 0; k < b->size; k++)
                p[k] = (unsigned char) (v >> (k % 4 * 8)) ^ (unsigned char) (i * 31 + k);
        }
    }
}

static int same_value(const Basic *b, const unsigned char *x, const unsigned char *y)
{
    int part = b->size / b->parts;
    for (int k = 0; k < b->parts; k++)
        if (memcmp(x + k * part, y + k * part, (size_t) b->value_bytes) != 0)
            return 0;
    return 1;
}

/* count blocks of blocklen elements, stride elements apart (negative: backwards from the end). */
static void check_vector(const Basic *b, int count, int blocklen, int stride)
{
    long span = (long) (count - 1) * labs(stride) + blocklen, n = span;
    unsigned char *typed = malloc((size_t) (n * b->size)), *back = malloc((size_t) (n * b->size));
    unsigned char *got = malloc((size_t) (count * blocklen * 32)), *want = malloc((size_t) (count * blocklen * 32));
    MPI_Datatype t;
    MPI_Aint pos = 0, size = 0, wpos = 0, start = stride < 0 ? (long) (count - 1) * -stride : 0;
    fill(b, typed, n);
    CHECK_MPI(MPI_Type_vector(count, blocklen, stride, b->type, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Pack_external_size("external32", 1, t, &size));
    CHECK_MPI(MPI_Pack_external("external32", typed + start * b->size, 1, t, got, size, &pos));
    CHECK(pos == size, "%s vector(%d, %d, %d): packed %ld of %ld bytes", b->name, count, blocklen, stride,
          (long) pos, (long) size);
    /* the model: element by element, in type-map order */
    for (int k = 0; k < count; k++)
        for (int j = 0; j < blocklen; j++) {
            long e = start + (long) k * stride + j;
            CHECK_MPI(MPI_Pack_external("external32", typed + e * b->size, 1, b->type, want,
                                        (MPI_Aint) count * blocklen * 32, &wpos));
        }
    CHECK(wpos == size, "%s: model has %ld bytes, size says %ld", b->name, (long) wpos, (long) size);
    int bad = 0;
    for (MPI_Aint i = 0; i < size && bad < 5; i++)
        if (got[i] != want[i]) {
            bad++;
            MTEST_FAIL("%s vector(%d, %d, %d): byte %ld is %02x, the model says %02x", b->name, count, blocklen,
                       stride, (long) i, got[i], want[i]);
        }

    /* unpack into a buffer of 0x5a: elements restored, gaps untouched */
    memset(back, 0x5a, (size_t) (n * b->size));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", got, size, &pos, back + start * b->size, 1, t));
    CHECK_EQ(pos, size);
    for (long e = 0; e < n && bad < 5; e++) {
        /* element e is selected iff e = start + k*stride + j for some k in [0,count), j in [0,blocklen) */
        int sel = 0;
        for (int k = 0; k < count && !sel; k++) {
            long d = e - (start + (long) k * stride);
            sel = d >= 0 && d < blocklen;
        }
        const unsigned char *x = back + e * b->size;
        if (sel ? !same_value(b, x, typed + e * b->size) : (x[0] != 0x5a || x[b->size - 1] != 0x5a)) {
            bad++;
            MTEST_FAIL("%s vector(%d, %d, %d): element %ld %s after unpacking", b->name, count, blocklen, stride,
                       e, sel ? "differs" : "was overwritten");
        }
    }
    MPI_Type_free(&t);
    free(typed);
    free(back);
    free(got);
    free(want);
}

/* The element that does not fit is element 2500 of a vector of 3000 longs. */
static void test_conversion_in_vector(void)
{
    if (sizeof(long) <= 4)
        return;
    long *a = calloc(6000, sizeof(long));
    unsigned char *buf = malloc(3000 * 4);
    MPI_Datatype t;
    MPI_Aint pos = 0;
    a[2 * 2500] = (long) 1 << 35;
    CHECK_MPI(MPI_Type_vector(3000, 1, 2, MPI_LONG, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_ERR(MPI_Pack_external("external32", a, 1, t, buf, 3000 * 4, &pos), MPI_ERR_CONVERSION);
    CHECK_EQ(pos, 0);
    MPI_Type_free(&t);
    free(a);
    free(buf);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    for (size_t k = 0; k < sizeof basics / sizeof basics[0]; k++) {
        check_vector(&basics[k], 3000, 1, 2);
        check_vector(&basics[k], 1500, 3, 5);
        check_vector(&basics[k], 2000, 2, -3);
        check_vector(&basics[k], 7, 1, 3);
    }
    test_conversion_in_vector();
    return MTest_Finalize();
}
