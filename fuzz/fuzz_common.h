/*
 * fuzz_common.h — what the libFuzzer targets in fuzz/ share: silencing the
 * program's own output, so that libFuzzer's status lines and the
 * sanitizers' reports are what one reads.
 */
#ifndef PGBENCH_FUZZ_COMMON_H
#define PGBENCH_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/*
 * Point stdout and stderr (the FILE variables the code under test writes
 * through) at /dev/null and take standard input from /dev/null ("-f -").
 * libFuzzer keeps the stderr stream it captured at start-up, and the
 * sanitizers write to file descriptor 2, so their output still shows.
 * LLVMFuzzerInitialize calls it once.
 */
void		fuzz_quiet(void);

/*
 * The entry points libFuzzer calls (declared for -Wmissing-prototypes).
 * LLVMFuzzerInitialize, in fuzz_common.c for every target, unsets the
 * environment variables that would change what an input means
 * (PGBENCH_COMPAT, PGDATABASE, ...), calls fuzz_quiet and diag_init.
 */
int			LLVMFuzzerInitialize(int *argc, char ***argv);
int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
