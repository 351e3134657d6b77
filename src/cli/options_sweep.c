/*
 * options_sweep.c — the values of --sweep=NAME:LIST and --sweep-slo
 * (options.h, doc/sweep.md), and of --stages (doc/stages.md).  A sweep's
 * list is values and ranges separated by commas: "1,2,4,8",
 * "100..500/100", "1..4" (a step of 1); at most PGB_SWEEP_MAX_STEPS
 * values in all.  Stages are DURATION:TARGET separated by commas.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/cli/options.h"

/* A whole number, finite, nothing after it. */
static bool
parse_number(const char *text, size_t len, double *v)
{
	char		buf[64];
	char	   *end;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, text, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	return errno == 0 && *end == '\0' && isfinite(*v) && !isspace((unsigned char) buf[0]);
}

/* Add one value to sw; false when there are too many. */
static bool
add_value(pgb_sweep *sw, double v, const char *text, size_t len)
{
	if (sw->nsteps >= PGB_SWEEP_MAX_STEPS)
		return false;
	sw->values[sw->nsteps] = v;
	if (text != NULL)
		snprintf(sw->texts[sw->nsteps], PGB_SWEEP_VALUE_LEN, "%.*s", (int) len, text);
	else
		snprintf(sw->texts[sw->nsteps], PGB_SWEEP_VALUE_LEN, "%.10g", v);
	sw->nsteps++;
	return true;
}

/* START..END[/STEP] into sw. */
static bool
add_range(pgb_sweep *sw, const char *item, size_t len, const char *dots, char *why, size_t whylen)
{
	const char *slash = memchr(dots, '/', (size_t) (item + len - dots));
	const char *end_text = dots + 2;
	size_t		end_len = (size_t) ((slash != NULL ? slash : item + len) - end_text);
	double		start,
				end,
				step = 1;

	if (!parse_number(item, (size_t) (dots - item), &start) ||
		!parse_number(end_text, end_len, &end) ||
		(slash != NULL && !parse_number(slash + 1, (size_t) (item + len - slash - 1), &step)))
	{
		snprintf(why, whylen, "\"%.*s\" is not a range START..END[/STEP] of numbers", (int) len, item);
		return false;
	}
	if (!(step > 0) || end < start)
	{
		snprintf(why, whylen, "the range \"%.*s\" needs END >= START and STEP > 0", (int) len, item);
		return false;
	}
	for (int i = 0; start + i * step <= end + 1e-9 * step; i++)
		if (!add_value(sw, start + i * step, NULL, 0))
		{
			snprintf(why, whylen, "more than %d steps", PGB_SWEEP_MAX_STEPS);
			return false;
		}
	return true;
}

/* Each value of a parameter of ours: a whole number >= 1, or for rate > 0. */
static bool
check_values(const pgb_sweep *sw, char *why, size_t whylen)
{
	for (int i = 0; i < sw->nsteps; i++)
	{
		double		v = sw->values[i];

		if (sw->param == SWEEP_RATE ? !(v > 0) : sw->param != SWEEP_VAR &&
			(!(v >= 1) || v > 1000000 || v != floor(v)))
		{
			snprintf(why, whylen, "%s must be %s, not \"%s\"", sw->name,
					 sw->param == SWEEP_RATE ? "greater than 0" : "a whole number from 1 to 1000000",
					 sw->texts[i]);
			return false;
		}
	}
	return true;
}

bool
sweep_parse(const char *spec, pgb_sweep *sw, char *why, size_t whylen)
{
	const char *colon = strchr(spec, ':');
	const char *p;
	size_t		nlen = colon != NULL ? (size_t) (colon - spec) : 0;

	memset(sw, 0, sizeof(*sw));
	if (colon == NULL || nlen == 0 || nlen >= sizeof(sw->name) || colon[1] == '\0')
	{
		snprintf(why, whylen, "expected NAME:LIST");
		return false;
	}
	memcpy(sw->name, spec, nlen);
	sw->param = strcmp(sw->name, "clients") == 0 ? SWEEP_CLIENTS
		: strcmp(sw->name, "jobs") == 0 ? SWEEP_JOBS
		: strcmp(sw->name, "rate") == 0 ? SWEEP_RATE : SWEEP_VAR;
	for (p = colon + 1;; p++)
	{
		size_t		len = strcspn(p, ",");
		const char *dots = len > 0 ? strstr(p, "..") : NULL;
		double		v;

		if (dots != NULL && dots < p + len)
		{
			if (!add_range(sw, p, len, dots, why, whylen))
				return false;
		}
		else if (len == 0 || len >= PGB_SWEEP_VALUE_LEN ||
				 (!parse_number(p, len, &v) && sw->param != SWEEP_VAR))
		{
			snprintf(why, whylen, "\"%.*s\" is not a value", (int) len, p);
			return false;
		}
		else if (!add_value(sw, parse_number(p, len, &v) ? v : NAN, p, len))
		{
			snprintf(why, whylen, "more than %d steps", PGB_SWEEP_MAX_STEPS);
			return false;
		}
		p += len;
		if (*p == '\0')
			break;
	}
	return check_values(sw, why, whylen);
}

bool
sweep_parse_slo(const char *text, double *ms)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || !isfinite(v) || !(v > 0))
		return false;
	if (strcmp(end, "") == 0 || strcmp(end, "ms") == 0)
		*ms = v;
	else if (strcmp(end, "us") == 0)
		*ms = v / 1000;
	else if (strcmp(end, "s") == 0)
		*ms = v * 1000;
	else
		return false;
	return true;
}

/* One stage's DURATION: whole seconds with s (the default), m or h. */
static bool
parse_duration(const char *text, size_t len, int *seconds)
{
	size_t		digits = 0;
	long long	v = 0;
	int			unit = 1;

	while (digits < len && isdigit((unsigned char) text[digits]) && v < INT_MAX)
		v = v * 10 + (text[digits++] - '0');
	if (digits == 0 || digits + 1 < len)
		return false;
	if (digits < len)
	{
		if (text[digits] == 'm')
			unit = 60;
		else if (text[digits] == 'h')
			unit = 3600;
		else if (text[digits] != 's')
			return false;
	}
	if (v > INT_MAX / unit)
		return false;
	*seconds = (int) v * unit;
	return true;
}

/* One stage's TARGET: clients, or a rate with "tps" (*rate says which). */
static bool
parse_target(const char *text, size_t len, double *target, bool *rate)
{
	*rate = len > 3 && memcmp(text + len - 3, "tps", 3) == 0;
	if (*rate)
		return parse_number(text, len - 3, target) && *target > 0;
	return parse_number(text, len, target) && *target >= 0 && *target <= 1000000 &&
		*target == floor(*target);
}

bool
stages_parse(const char *text, pgb_stage *stages, int *nstages, bool *rate, char *why,
			 size_t whylen)
{
	long long	total = 0;

	*nstages = 0;
	for (const char *p = text;; p++)
	{
		size_t		len = strcspn(p, ",");
		const char *colon = memchr(p, ':', len);
		pgb_stage  *s = &stages[*nstages];
		bool		is_rate;

		if (*nstages == PGB_MAX_STAGES)
		{
			snprintf(why, whylen, "more than %d stages", PGB_MAX_STAGES);
			return false;
		}
		if (colon == NULL || !parse_duration(p, (size_t) (colon - p), &s->seconds) ||
			!parse_target(colon + 1, (size_t) (p + len - colon - 1), &s->target, &is_rate))
		{
			snprintf(why, whylen, "\"%.*s\" is not DURATION:CLIENTS or DURATION:RATEtps", (int) len, p);
			return false;
		}
		if (*nstages > 0 && is_rate != *rate)
		{
			snprintf(why, whylen, "the stages mix clients and rates");
			return false;
		}
		*rate = is_rate;
		total += s->seconds;
		(*nstages)++;
		p += len;
		if (*p == '\0')
			break;
	}
	if (total < 1 || total > INT_MAX)
	{
		snprintf(why, whylen, "the stages last %lld s: from 1 s to %d s", total, INT_MAX);
		return false;
	}
	return true;
}
