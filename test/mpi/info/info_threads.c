/*
 * Info objects from several threads at once (MPI_THREAD_MULTIPLE): each thread builds, copies,
 * queries and frees objects of its own, while all read MPI_INFO_ENV, whose first use (which fills
 * it) they race for. Every thread must see its own values and the same environment.
 */
#include "mtest.h"
#include <pthread.h>

#define NTHREADS 4
#define ROUNDS 200

static int thread_errs[NTHREADS];
static char env_command[NTHREADS][MPI_MAX_INFO_VAL];

static void *work(void *arg)
{
    int id = (int) (size_t) arg, errs = 0, flag, n;
    char key[32], value[32], got[32];
    int buflen = MPI_MAX_INFO_VAL;
    if (MPI_Info_get_string(MPI_INFO_ENV, "command", &buflen, env_command[id], &flag) != MPI_SUCCESS || !flag)
        errs++;
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Info info, copy;
        MPI_Info_create(&info);
        for (int k = 0; k < 8; k++) {
            snprintf(key, sizeof key, "k%d", k);
            snprintf(value, sizeof value, "%d.%d.%d", id, r, k);
            MPI_Info_set(info, key, value);
        }
        MPI_Info_dup(info, &copy);
        MPI_Info_free(&info);
        MPI_Info_get_nkeys(copy, &n);
        errs += n != 8;
        MPI_Info_get(copy, "k5", sizeof got - 1, got, &flag);
        snprintf(value, sizeof value, "%d.%d.5", id, r);
        errs += !flag || strcmp(got, value) != 0;
        MPI_Info_get_nkeys(MPI_INFO_ENV, &n);
        errs += n < 1;
        MPI_Info_free(&copy);
    }
    thread_errs[id] = errs;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, work, (void *) (size_t) i);
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK(thread_errs[i] == 0, "thread %d saw %d wrong results", i, thread_errs[i]);
        CHECK(strcmp(env_command[i], env_command[0]) == 0, "thread %d saw command \"%s\", thread 0 \"%s\"", i,
              env_command[i], env_command[0]);
    }
    return MTest_Finalize();
}
