/*
 * fuzz_common.c — output silencing shared by the fuzz targets.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_common.h"

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
