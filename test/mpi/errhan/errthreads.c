/* Reasons are kept per thread: threads failing at the same time, each in its own way, each get
 * their own call and reason in the message. */
#include "mtest.h"
#include <pthread.h>

#define ROUNDS 20000

static pthread_barrier_t start;     /* all threads fail at the same time */

struct failure {
    int count;
    MPI_Datatype type;
    int null_out;           /* pass NULL for newtype */
    int errclass;
    const char *call, *reason;
    int wrong, matched;
};

static struct failure failures[] = {
    { -1, MPI_INT, 0, MPI_ERR_COUNT, "MPI_Type_contiguous(count=-1, oldtype=MPI_INT", "invalid count" },
    { 2, MPI_DATATYPE_NULL, 0, MPI_ERR_TYPE, "MPI_Type_contiguous(count=2, oldtype=MPI_DATATYPE_NULL",
      "): oldtype" },
    { 3, MPI_INT, 1, MPI_ERR_ARG, "MPI_Type_contiguous(count=3, oldtype=MPI_INT, newtype=(nil)",
      "newtype is NULL" },
};
#define NTHREADS ((int) (sizeof failures / sizeof failures[0]))

static void *fail_repeatedly(void *arg)
{
    struct failure *f = arg;
    char msg[MPI_MAX_ERROR_STRING];
    pthread_barrier_wait(&start);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Datatype t;
        int len, cls = -1;
        int rc = MPI_Type_contiguous(f->count, f->type, f->null_out ? NULL : &t);
        MPI_Error_class(rc, &cls);
        MPI_Error_string(rc, msg, &len);
        /* Under heavy preemption the ring may have dropped the message (then it is the class
         * text); what must never happen is a message that mixes in another thread's failure. */
        if (cls != f->errclass)
            f->wrong++;
        else if (strstr(msg, "MPI_Type_contiguous("))
            (strstr(msg, f->call) && strstr(msg, f->reason)) ? f->matched++ : f->wrong++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    pthread_t th[NTHREADS];
    pthread_barrier_init(&start, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(pthread_create(&th[i], NULL, fail_repeatedly, &failures[i]), 0);
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK(failures[i].wrong == 0, "thread %d saw %d wrong errors", i, failures[i].wrong);
        CHECK(failures[i].matched > 0, "thread %d never saw its own message", i);
    }
    return MTest_Finalize();
}
