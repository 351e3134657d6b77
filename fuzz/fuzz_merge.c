/*
 * fuzz_merge.c — libFuzzer target for --merge-reports: the JSON reader,
 * the checks of every member and the merge.  The input is one or more
 * JSON reports separated by NUL bytes (at most MAX_REPORTS; a NUL cannot
 * occur in JSON text); each is parsed and added into the accumulator as
 * merge_run does with the files it reads, and when all are accepted the
 * rendezvous groups are checked (as without --merge-partial, then as with
 * it, so that an incomplete group goes on too) and the merged report is
 * computed and printed (to /dev/null) and written as JSON to
 * "merged.json" in the working directory (scripts/fuzz.sh runs the
 * targets in a scratch directory).  The errors are kept in a merge_error,
 * never printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "merge_int.h"

#define MAX_REPORTS 4

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const names[MAX_REPORTS] = {"a.json", "b.json", "c.json", "d.json"};
	const char *text = (const char *) data;
	merge_acc	acc;
	merge_error err;
	int			n = 0;
	bool		ok = true;

	memset(&acc, 0, sizeof(acc));
	memset(&err, 0, sizeof(err));
	while (ok && n < MAX_REPORTS)
	{
		const char *nul = memchr(text, '\0', size);
		size_t		len = nul != NULL ? (size_t) (nul - text) : size;

		/* a copy of exactly len bytes: ASan sees any read past the end */
		char	   *doc = malloc(len > 0 ? len : 1);

		if (doc == NULL)
			break;
		memcpy(doc, text, len);
		ok = merge_text(&acc, doc, len, names[n], &err);
		free(doc);
		n++;
		if (nul == NULL)
			break;
		size -= len + 1;
		text = nul + 1;
	}
	if (ok && n > 0)
	{
		/* the groups checked as without --merge-partial, then merged as with it */
		(void) merge_check_groups(&acc, &err);
		acc.partial = true;
		if (merge_check_groups(&acc, &err))
			merge_report(&acc, n, names, "merged.json", NULL);
	}
	merge_error_free(&err);
	merge_acc_free(&acc);
	return 0;
}
