/*
 * fuzz_common.c — what the fuzz targets share: their start-up
 * (LLVMFuzzerInitialize) and the silencing of the program's output.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "pgbench/base/diag.h"

void
fuzz_quiet(void)
{
	FILE	   *devnull = fopen("/dev/null", "w");
	int			in = open("/dev/null", O_RDONLY);

	if (devnull == NULL || in < 0 || dup2(in, STDIN_FILENO) < 0)
	{
		perror("fuzz: /dev/null");
		exit(1);
	}
	close(in);

	/*
	 * Assigning the streams (glibc allows it) rather than freopen: freopen
	 * would change the very FILE libFuzzer prints its progress through.
	 */
	stdout = devnull;
	stderr = devnull;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* the environment must not decide what an input means */
	static const char *const vars[] = {"PGBENCH_COMPAT", "PGBENCH_RANDOM_SEED", "PGDATABASE",
	"PGUSER", "PGHOST", "PGPORT", "PG_COLOR"};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
	fuzz_quiet();
	diag_init("pgbench");
	return 0;
}
