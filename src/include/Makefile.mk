noinst_HEADERS += src/include/mpiimpl.h src/include/mpir_object.h src/include/mpir_err.h \
                  src/include/mpir_process.h src/include/mpir_attr.h \
                  src/include/mpir_status.h src/include/mpir_pack_fast.h
