/*
 * MPI_Type_create_f90_* from many threads at once (MPI_THREAD_MULTIPLE): every thread asking for
 * the same (p, r) gets the same handle, made exactly once, while names are set and read on a
 * shared type at the same time (a reader never sees a torn name).
 */
#include <pthread.h>
#include "mtest.h"

#define NTHREADS 8
#define ROUNDS 200

static MPI_Datatype got[NTHREADS][3];
static int errs[NTHREADS];
static MPI_Datatype shared;

static void *work(void *arg)
{
    int me = (int) (size_t) arg;
    static const char *names[2] = { "first name", "the second, longer name" };
    for (int i = 0; i < ROUNDS; i++) {
        /* each round asks for a new (p, r) too, so creation races with lookup */
        MPI_Datatype r, c, n, fresh;
        if (MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r) != MPI_SUCCESS ||
            MPI_Type_create_f90_complex(MPI_UNDEFINED, 300, &c) != MPI_SUCCESS ||
            MPI_Type_create_f90_integer(9, &n) != MPI_SUCCESS ||
            MPI_Type_create_f90_integer(-1 - i, &fresh) != MPI_SUCCESS) {
            errs[me]++;
            continue;
        }
        if (i == 0) {
            got[me][0] = r;
            got[me][1] = c;
            got[me][2] = n;
        } else if (got[me][0] != r || got[me][1] != c || got[me][2] != n) {
            errs[me]++;
        }

        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_set_name(shared, names[(me + i) % 2]);
        MPI_Type_get_name(shared, name, &len);
        if ((int) strlen(name) != len || (strcmp(name, names[0]) != 0 && strcmp(name, names[1]) != 0))
            errs[me]++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE not provided");
    CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &shared));

    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&th[i], NULL, work, (void *) (size_t) i);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);

    for (int i = 0; i < NTHREADS; i++) {
        if (errs[i])
            MTEST_FAIL("thread %d: %d failed rounds", i, errs[i]);
        for (int k = 0; k < 3; k++)
            if (got[i][k] != got[0][k])
                MTEST_FAIL("thread %d got handle 0x%x for type %d, thread 0 got 0x%x", i,
                           (unsigned) got[i][k], k, (unsigned) got[0][k]);
    }
    /* one call more from the main thread: still the same handles */
    MPI_Datatype r;
    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r));
    CHECK(r == got[0][0], "handle changed after the threads");
    int size;
    CHECK_MPI(MPI_Type_size(got[0][1], &size));
    CHECK_EQ(size, 16);                     /* complex, range 300: two doubles */

    CHECK_MPI(MPI_Type_free(&shared));
    return MTest_Finalize();
}
