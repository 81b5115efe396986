/* Info hints of communicators: MPI_Comm_set_info, MPI_Comm_get_info, MPI_Comm_dup_with_info,
 * MPI_Comm_idup_with_info.
 *
 * Every hint is accepted and returned as set (none changes behaviour here). A new communicator has
 * no hints; set_info replaces the values of the keys it names and keeps the others; the
 * communicator keeps its own copy (later changes to the info object or freeing it do not matter);
 * get_info returns a new object each time; MPI_Comm_dup copies the hints, MPI_Comm_dup_with_info
 * takes only those of its argument (none for MPI_INFO_NULL). Then the argument errors. Run with 3
 * processes: the dups are collective. */
#include "mtest.h"

/* The value of key in info, or "" if it is not set. */
static const char *value_of(MPI_Info info, const char *key)
{
    static char value[MPI_MAX_INFO_VAL];
    int flag = 0;
    if (MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, value, &flag) != MPI_SUCCESS || !flag)
        value[0] = '\0';
    return value;
}

/* Checks that comm's hints are exactly the nkeys (key, value) pairs given. */
static void expect_hints(MPI_Comm comm, int nkeys, const char *const kv[], const char *what)
{
    MPI_Info used = MPI_INFO_NULL;
    CHECK_MPI(MPI_Comm_get_info(comm, &used));
    int n = -1;
    CHECK_MPI(MPI_Info_get_nkeys(used, &n));
    CHECK(n == nkeys, "%s: %d hints, expected %d", what, n, nkeys);
    for (int i = 0; i < nkeys; i++)
        CHECK(strcmp(value_of(used, kv[2 * i]), kv[2 * i + 1]) == 0, "%s: %s = \"%s\", expected \"%s\"", what,
              kv[2 * i], value_of(used, kv[2 * i]), kv[2 * i + 1]);
    CHECK_MPI(MPI_Info_free(&used));
    CHECK(used == MPI_INFO_NULL, "MPI_Info_free left the handle");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    MPI_Comm a;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
    expect_hints(a, 0, NULL, "a new communicator");

    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Info_set(info, "loom_test_hint", "one"));
    CHECK_MPI(MPI_Comm_set_info(a, info));
    /* the communicator keeps a copy: changing or freeing the object afterwards changes nothing */
    CHECK_MPI(MPI_Info_set(info, "loom_test_hint", "changed"));
    const char *first[] = { "mpi_assert_no_any_tag", "true", "loom_test_hint", "one" };
    expect_hints(a, 2, first, "after set_info");
    CHECK_MPI(MPI_Info_free(&info));
    expect_hints(a, 2, first, "after freeing the info set");

    /* a second set updates one key, adds one, keeps the third */
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "loom_test_hint", "two"));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_allow_overtaking", "false"));
    CHECK_MPI(MPI_Comm_set_info(a, info));
    CHECK_MPI(MPI_Info_free(&info));
    const char *second[] = { "mpi_assert_no_any_tag", "true", "loom_test_hint", "two",
                             "mpi_assert_allow_overtaking", "false" };
    expect_hints(a, 3, second, "after a second set_info");
    CHECK_MPI(MPI_Comm_set_info(a, MPI_INFO_NULL));
    expect_hints(a, 3, second, "after set_info(MPI_INFO_NULL)");

    /* dup copies the hints; dup_with_info takes only its argument's */
    MPI_Comm b, c, d, e;
    CHECK_MPI(MPI_Comm_dup(a, &b));
    expect_hints(b, 3, second, "MPI_Comm_dup");
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_exact_length", "true"));
    CHECK_MPI(MPI_Comm_dup_with_info(a, info, &c));
    const char *third[] = { "mpi_assert_exact_length", "true" };
    expect_hints(c, 1, third, "MPI_Comm_dup_with_info");
    expect_hints(a, 3, second, "the original after dup_with_info");
    CHECK_MPI(MPI_Comm_dup_with_info(a, MPI_INFO_NULL, &d));
    expect_hints(d, 0, NULL, "MPI_Comm_dup_with_info(MPI_INFO_NULL)");
    MPI_Request req;
    CHECK_MPI(MPI_Comm_idup_with_info(b, info, &e, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    expect_hints(e, 1, third, "MPI_Comm_idup_with_info");
    CHECK_MPI(MPI_Info_free(&info));
    /* the dup works as a communicator */
    int sum = 0, one = 1, size;
    MPI_Comm_size(e, &size);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, e));
    CHECK_EQ(sum, size);

    /* hints on the predefined communicators too (dropped at MPI_Finalize) */
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "loom_world_hint", "w"));
    CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, info));
    const char *world[] = { "loom_world_hint", "w" };
    expect_hints(MPI_COMM_WORLD, 1, world, "MPI_COMM_WORLD");
    expect_hints(MPI_COMM_SELF, 0, NULL, "MPI_COMM_SELF");

    /* errors */
    MPI_Info freed = info;
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_ERR(MPI_Comm_set_info(a, freed), MPI_ERR_INFO);
    CHECK_ERR(MPI_Comm_dup_with_info(a, freed, &b), MPI_ERR_INFO);
    CHECK_ERR(MPI_Comm_get_info(a, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Comm_get_info(MPI_COMM_NULL, &info), MPI_ERR_COMM);
    CHECK_ERR(MPI_Comm_set_info(MPI_COMM_NULL, MPI_INFO_NULL), MPI_ERR_COMM);
    expect_hints(a, 3, second, "after the failed calls");

    MPI_Comm *all[] = { &a, &b, &c, &d, &e };
    for (int i = 0; i < 5; i++)
        CHECK_MPI(MPI_Comm_free(all[i]));
    return MTest_Finalize();
}
