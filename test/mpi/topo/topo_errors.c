/*
 * Errors of the topology functions (MPI 4.1, chapter 8), all on MPI_ERRORS_RETURN communicators:
 * bad arguments of MPI_Cart_create, MPI_Graph_create, MPI_Dist_graph_create_adjacent and
 * MPI_Dims_create; topology queries on a communicator without a topology or with another kind
 * (MPI_ERR_TOPOLOGY); ranks, coordinates, directions and maxdims out of range on a cartesian
 * communicator; neighbourhood collectives without a topology; NULL out-arguments. Collective
 * calls get the same bad arguments on every process, so every process must see the error.
 * Afterwards the communicators still work. Run with 4 processes.
 */
#include "mtest.h"

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "run with 4 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm c = MPI_COMM_NULL;

    /* a 2 x 2 grid, periodic in dimension 1 only; a ring graph; a ring dist graph */
    int dims[2] = {2, 2}, periods[2] = {0, 1};
    MPI_Comm cart, graph, dist;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    int index[4] = {2, 4, 6, 8}, edges[8] = {3, 1, 0, 2, 1, 3, 2, 0};
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 4, index, edges, 0, &graph));
    MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);
    int prev = (rank + 3) % 4, next = (rank + 1) % 4;
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, MPI_UNWEIGHTED, 1, &next,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist));
    MPI_Comm_set_errhandler(dist, MPI_ERRORS_RETURN);

    /* an intercommunicator between the even and the odd ranks */
    MPI_Comm half, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 77, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);

    /* 1. MPI_Cart_create arguments */
    int d0[2] = {2, 0}, dneg[2] = {-1, 2}, dbig[2] = {3, 2}, d1[1] = {2}, p1[1] = {0};
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &c), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 2, d0, periods, 0, &c), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 2, dneg, periods, 1, &c), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 2, dbig, periods, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_create(inter, 1, d1, p1, 0, &c), MPI_ERR_COMM);
    CHECK_ERR(MPI_Cart_create(MPI_COMM_NULL, 1, d1, p1, 0, &c), MPI_ERR_COMM);

    /* 2. queries without a topology, or of the wrong kind */
    int co[2] = {0, 0}, r, s, dd, nd, ne, in, out, w, nb[8], ix[8], ed[16];
    int per[2], remain[2] = {1, 0};
    CHECK_ERR(MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, co), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_rank(MPI_COMM_WORLD, co, &r), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &s, &dd), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_get(MPI_COMM_WORLD, 2, dbig, per, co), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cartdim_get(MPI_COMM_WORLD, &nd), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_sub(MPI_COMM_WORLD, remain, &c), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &nd), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graph_neighbors(MPI_COMM_WORLD, 0, 8, nb), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graphdims_get(MPI_COMM_WORLD, &nd, &ne), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graph_get(MPI_COMM_WORLD, 8, 16, ix, ed), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &out, &w), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Dist_graph_neighbors(MPI_COMM_WORLD, 1, nb, ix, 1, ed, ix), MPI_ERR_TOPOLOGY);

    CHECK_ERR(MPI_Cart_coords(graph, 0, 2, co), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_rank(graph, co, &r), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_shift(graph, 0, 1, &s, &dd), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_get(graph, 2, dbig, per, co), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cartdim_get(graph, &nd), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cart_sub(graph, remain, &c), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Cartdim_get(dist, &nd), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graph_neighbors_count(cart, 0, &nd), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graph_neighbors(cart, 0, 8, nb), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graphdims_get(cart, &nd, &ne), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graph_get(cart, 8, 16, ix, ed), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Graphdims_get(dist, &nd, &ne), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Dist_graph_neighbors_count(cart, &in, &out, &w), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Dist_graph_neighbors_count(graph, &in, &out, &w), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Topo_test(MPI_COMM_NULL, &s), MPI_ERR_COMM);

    /* 3. out of range on the grid (dimension 0 is not periodic) */
    CHECK_ERR(MPI_Cart_coords(cart, -1, 2, co), MPI_ERR_RANK);
    CHECK_ERR(MPI_Cart_coords(cart, size, 2, co), MPI_ERR_RANK);
    int past[2] = {2, 0}, before[2] = {-1, 1};
    CHECK_ERR(MPI_Cart_rank(cart, past, &r), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_rank(cart, before, &r), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_shift(cart, -1, 1, &s, &dd), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_shift(cart, 2, 1, &s, &dd), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_get(cart, -1, dbig, per, co), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_coords(cart, 0, -1, co), MPI_ERR_ARG);

    /* 4. MPI_Graph_create arguments, and neighbours of a rank that does not exist */
    int gi[3] = {1, 2, 3}, ge[3] = {1, 2, 0}, gbad[3] = {1, 3, 0}, gneg[3] = {1, -1, 0};
    int gdec[3] = {2, 1, 3}, i5[5] = {1, 2, 3, 4, 5}, e5[5] = {1, 2, 3, 4, 0};
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, -1, gi, ge, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, size + 1, i5, e5, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, 3, gi, gbad, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, 3, gi, gneg, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_create(MPI_COMM_WORLD, 3, gdec, ge, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_neighbors(graph, -1, 8, nb), MPI_ERR_RANK);
    CHECK_ERR(MPI_Graph_neighbors(graph, size, 8, nb), MPI_ERR_RANK);
    CHECK_ERR(MPI_Graph_neighbors_count(graph, size, &nd), MPI_ERR_RANK);

    /* 5. MPI_Dist_graph_create_adjacent arguments */
    int outside = size, negative = -2;
    CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, &prev, MPI_UNWEIGHTED, 0, &next,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, &prev, MPI_UNWEIGHTED, -3, &next,
                                             MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &outside, MPI_UNWEIGHTED, 0,
                                             &next, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
              MPI_ERR_RANK);
    CHECK_ERR(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, &prev, MPI_UNWEIGHTED, 1,
                                             &negative, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
              MPI_ERR_RANK);

    /* 6. MPI_Dims_create arguments */
    int dc[3] = {0, 0, 0}, dcneg[2] = {0, -3}, dcfix[2] = {3, 0};
    CHECK_ERR(MPI_Dims_create(4, -1, dc), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Dims_create(4, 2, dcneg), MPI_ERR_DIMS);
    CHECK_ERR(MPI_Dims_create(4, 2, dcfix), MPI_ERR_DIMS);

    /* 7. neighbourhood collectives need a topology */
    int sb[8] = {0}, rb[8], cnt[4] = {1, 1, 1, 1}, dsp[4] = {0, 1, 2, 3};
    MPI_Aint bd[4] = {0, 4, 8, 12};
    MPI_Datatype ty[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK_ERR(MPI_Neighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD),
              MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Neighbor_allgatherv(sb, 1, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
              MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD),
              MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Neighbor_alltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT,
                                     MPI_COMM_WORLD), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Neighbor_alltoallw(sb, cnt, bd, ty, rb, cnt, bd, ty, MPI_COMM_WORLD),
              MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Ineighbor_allgather(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD, &req),
              MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Ineighbor_allgatherv(sb, 1, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD,
                                       &req), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, MPI_COMM_WORLD, &req),
              MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Ineighbor_alltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT,
                                      MPI_COMM_WORLD, &req), MPI_ERR_TOPOLOGY);
    CHECK_ERR(MPI_Ineighbor_alltoallw(sb, cnt, bd, ty, rb, cnt, bd, ty, MPI_COMM_WORLD, &req),
              MPI_ERR_TOPOLOGY);
    CHECK(req == MPI_REQUEST_NULL, "a failed nonblocking neighbour collective gave a request");

    /* 8. NULL out-arguments */
    CHECK_ERR(MPI_Cartdim_get(cart, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Topo_test(cart, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_rank(cart, co, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_shift(cart, 0, 1, NULL, &dd), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graphdims_get(graph, NULL, &ne), MPI_ERR_ARG);
    CHECK_ERR(MPI_Graph_neighbors_count(graph, 0, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Dist_graph_neighbors_count(dist, NULL, &out, &w), MPI_ERR_ARG);
    /* a weighted graph's weights cannot go to MPI_WEIGHTS_EMPTY (nor NULL) */
    {
        MPI_Comm wd;
        int next = (rank + 1) % 4, prev = (rank + 3) % 4, wt = 7, src, dst, sw;
        CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, &wt, 1, &next, &wt, MPI_INFO_NULL, 0,
                                                 &wd));
        MPI_Comm_set_errhandler(wd, MPI_ERRORS_RETURN);
        CHECK_ERR(MPI_Dist_graph_neighbors(wd, 1, &src, MPI_WEIGHTS_EMPTY, 1, &dst, &sw), MPI_ERR_ARG);
        CHECK_ERR(MPI_Dist_graph_neighbors(wd, 1, &src, &sw, 1, &dst, NULL), MPI_ERR_ARG);
        CHECK_MPI(MPI_Dist_graph_neighbors(wd, 1, &src, MPI_UNWEIGHTED, 1, &dst, &sw));
        CHECK(src == prev && dst == next && sw == 7, "neighbours %d, %d, weight %d", src, dst, sw);
        MPI_Comm_free(&wd);
    }
    CHECK_ERR(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, NULL), MPI_ERR_ARG);
    CHECK_ERR(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, NULL), MPI_ERR_ARG);

    /* the communicators still work after all that */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Barrier(cart));
    CHECK_MPI(MPI_Barrier(graph));
    CHECK_MPI(MPI_Barrier(dist));
    /* (collectives on intercommunicators are not supported: a message to the partner instead, the
     * remote process of the same local rank: even rank 2k and odd rank 2k+1) */
    int partner = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, rank / 2, 0, &partner, 1, MPI_INT, rank / 2, 0, inter,
                           MPI_STATUS_IGNORE));
    CHECK_EQ(partner, rank ^ 1);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, cart));
    CHECK_EQ(sum, 6);
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, d1, p1, 0, &c));
    CHECK((c != MPI_COMM_NULL) == (rank < 2), "after the errors: a grid of 2 gave %s at %d",
          c == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator", rank);
    if (c != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Cart_shift(c, 0, 1, &s, &dd));
        CHECK_EQ(s, rank == 0 ? MPI_PROC_NULL : 0);
        CHECK_EQ(dd, rank == 0 ? 1 : MPI_PROC_NULL);
        CHECK_MPI(MPI_Comm_free(&c));
    }

    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&dist));
    CHECK_MPI(MPI_Comm_free(&graph));
    CHECK_MPI(MPI_Comm_free(&cart));
    return MTest_Finalize();
}
