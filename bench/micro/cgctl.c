/* Callgrind client requests for bench_micro.py, loaded with ctypes (the same .so serves
   vanilla and the fork).  Outside valgrind these are no-ops. */
#include <valgrind/callgrind.h>

void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
