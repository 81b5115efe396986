/* MPI_Init_thread grants MPI_THREAD_MULTIPLE; MPI_Query_thread and MPI_Is_thread_main agree. */
#include "mtest.h"
#include <pthread.h>

static void *other_thread(void *arg)
{
    int *flag = arg;
    MPI_Is_thread_main(flag);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK_EQ(provided, MPI_THREAD_MULTIPLE);

    int level = -1;
    CHECK_MPI(MPI_Query_thread(&level));
    CHECK_EQ(level, MPI_THREAD_MULTIPLE);

    int is_main = -1;
    CHECK_MPI(MPI_Is_thread_main(&is_main));
    CHECK_EQ(is_main, 1);

    int other = -1;
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, other_thread, &other), 0);
    pthread_join(t, NULL);
    CHECK_EQ(other, 0);

    return MTest_Finalize();
}
