/*
 * MPI_Status_c2f, _f2c, _c2f08, _f082c, _f2f08, _f082f: a received status keeps its source, tag and
 * error in the Fortran forms (at MPI_F_SOURCE, MPI_F_TAG, MPI_F_ERROR of the array; in the fields of
 * MPI_F08_status), and every chain of conversions back to C answers MPI_Get_count, MPI_Get_elements
 * and MPI_Test_cancelled as the original did, a byte count beyond 32 bits included. The conversions
 * work before MPI_Init. NULL and each language's MPI_STATUS_IGNORE give MPI_ERR_ARG, and so do the
 * status accessors given MPI_STATUS_IGNORE.
 */
#include "mtest.h"

#define N 5

/* Every question a program may ask a status, answered for a and b alike. */
static void check_same(const MPI_Status *a, const MPI_Status *b, const char *how)
{
    CHECK(a->MPI_SOURCE == b->MPI_SOURCE && a->MPI_TAG == b->MPI_TAG && a->MPI_ERROR == b->MPI_ERROR,
          "%s: source/tag/error %d %d %d, want %d %d %d", how, b->MPI_SOURCE, b->MPI_TAG, b->MPI_ERROR,
          a->MPI_SOURCE, a->MPI_TAG, a->MPI_ERROR);
    MPI_Count ca = -1, cb = -2;
    CHECK_MPI(MPI_Get_elements_c(a, MPI_DOUBLE, &ca));
    CHECK_MPI(MPI_Get_elements_c(b, MPI_DOUBLE, &cb));
    CHECK(ca == cb, "%s: %lld elements, want %lld", how, (long long) cb, (long long) ca);
    CHECK_MPI(MPI_Get_count_c(a, MPI_DOUBLE, &ca));
    CHECK_MPI(MPI_Get_count_c(b, MPI_DOUBLE, &cb));
    CHECK(ca == cb, "%s: count %lld, want %lld", how, (long long) cb, (long long) ca);
    int fa = -1, fb = -2;
    CHECK_MPI(MPI_Test_cancelled(a, &fa));
    CHECK_MPI(MPI_Test_cancelled(b, &fb));
    CHECK(fa == fb, "%s: cancelled %d, want %d", how, fb, fa);
}

/* c -> f -> c, c -> f08 -> c, c -> f -> f08 -> c and c -> f08 -> f -> c. */
static void check_round_trips(const MPI_Status *st)
{
    MPI_Fint f[MPI_F_STATUS_SIZE];
    MPI_F08_status f08, f08b;
    MPI_Status back;

    CHECK_MPI(MPI_Status_c2f(st, f));
    CHECK(f[MPI_F_SOURCE] == st->MPI_SOURCE && f[MPI_F_TAG] == st->MPI_TAG && f[MPI_F_ERROR] == st->MPI_ERROR,
          "c2f: source/tag/error %d %d %d", f[MPI_F_SOURCE], f[MPI_F_TAG], f[MPI_F_ERROR]);
    memset(&back, 0xa5, sizeof back);
    CHECK_MPI(MPI_Status_f2c(f, &back));
    check_same(st, &back, "c2f, f2c");

    CHECK_MPI(MPI_Status_c2f08(st, &f08));
    CHECK(f08.MPI_SOURCE == st->MPI_SOURCE && f08.MPI_TAG == st->MPI_TAG && f08.MPI_ERROR == st->MPI_ERROR,
          "c2f08: source/tag/error %d %d %d", f08.MPI_SOURCE, f08.MPI_TAG, f08.MPI_ERROR);
    memset(&back, 0xa5, sizeof back);
    CHECK_MPI(MPI_Status_f082c(&f08, &back));
    check_same(st, &back, "c2f08, f082c");

    CHECK_MPI(MPI_Status_f2f08(f, &f08b));
    memset(&back, 0xa5, sizeof back);
    CHECK_MPI(MPI_Status_f082c(&f08b, &back));
    check_same(st, &back, "c2f, f2f08, f082c");

    MPI_Fint g[MPI_F_STATUS_SIZE];
    CHECK_MPI(MPI_Status_f082f(&f08, g));
    memset(&back, 0xa5, sizeof back);
    CHECK_MPI(MPI_Status_f2c(g, &back));
    check_same(st, &back, "c2f08, f082f, f2c");
}

int main(int argc, char **argv)
{
    /* before MPI_Init: a status set by hand converts */
    MPI_Status pre = {.MPI_SOURCE = 4, .MPI_TAG = 5, .MPI_ERROR = 6};
    MPI_Fint fpre[MPI_F_STATUS_SIZE] = {0};
    int pre_err = MPI_Status_c2f(&pre, fpre);

    MTest_Init(&argc, &argv);
    CHECK_EQ(pre_err, MPI_SUCCESS);
    CHECK(fpre[MPI_F_SOURCE] == 4 && fpre[MPI_F_TAG] == 5 && fpre[MPI_F_ERROR] == 6,
          "c2f before MPI_Init: %d %d %d", fpre[MPI_F_SOURCE], fpre[MPI_F_TAG], fpre[MPI_F_ERROR]);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    double data[N] = {1, 2, 3, 4, 5};
    if (rank == 0) {
        CHECK_MPI(MPI_Send(data, N, MPI_DOUBLE, 1, 77, MPI_COMM_WORLD));
    } else if (rank == 1) {
        MPI_Status st;
        st.MPI_ERROR = MPI_ERR_PENDING;   /* a receive leaves the error field alone */
        CHECK_MPI(MPI_Recv(data, N, MPI_DOUBLE, 0, 77, MPI_COMM_WORLD, &st));
        MPI_Count count = -1;
        CHECK_MPI(MPI_Get_count_c(&st, MPI_DOUBLE, &count));
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 77 && count == N, "received: source %d tag %d count %lld",
              st.MPI_SOURCE, st.MPI_TAG, (long long) count);
        check_round_trips(&st);

        /* a partial element: MPI_Get_count is MPI_UNDEFINED on every side */
        CHECK_MPI(MPI_Status_set_elements(&st, MPI_BYTE, 13));
        check_round_trips(&st);

        /* cancelled, and a byte count beyond 32 bits (3e9 doubles) */
        CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
        CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_DOUBLE, (MPI_Count) 3000000000LL));
        check_round_trips(&st);
        MPI_Fint f[MPI_F_STATUS_SIZE];
        MPI_Status back;
        CHECK_MPI(MPI_Status_c2f(&st, f));
        CHECK_MPI(MPI_Status_f2c(f, &back));
        CHECK_MPI(MPI_Get_elements_c(&back, MPI_DOUBLE, &count));
        CHECK(count == 3000000000LL, "3e9 doubles come back as %lld", (long long) count);
    }

    /* each language's MPI_STATUS_IGNORE, and NULL, are no status */
    MPI_Status c;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    MPI_F08_status f08;
    CHECK_MPI(MPI_Status_set_source(&c, 1));
    CHECK_MPI(MPI_Status_c2f(&c, f));
    CHECK_MPI(MPI_Status_c2f08(&c, &f08));
    CHECK_ERR(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_c2f(MPI_STATUSES_IGNORE, f), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_c2f(&c, MPI_F_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_c2f(&c, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f2c(MPI_F_STATUSES_IGNORE, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f2c(f, MPI_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f2c(NULL, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_c2f08(NULL, &f08), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_c2f08(&c, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f082c(MPI_F08_STATUSES_IGNORE, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f082c(&f08, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f2f08(MPI_F_STATUS_IGNORE, &f08), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f2f08(f, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f082f(MPI_F08_STATUS_IGNORE, f), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_f082f(&f08, MPI_F_STATUSES_IGNORE), MPI_ERR_ARG);
    int v, flag;
    MPI_Count n;
    CHECK_ERR(MPI_Status_get_error(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_tag(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG);
    CHECK_ERR(MPI_Test_cancelled(MPI_STATUS_IGNORE, &flag), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_cancelled(MPI_STATUS_IGNORE, 1), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_count_c(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG);
    CHECK_ERR(MPI_Get_elements_x(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG);
    CHECK_ERR(MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG);

    return MTest_Finalize();
}
