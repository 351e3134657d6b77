/*
 * value.h — the typed values of pgbench expressions and variables:
 * NULL, boolean, 64-bit integer and double.
 */
#ifndef PGBENCH_VALUE_H
#define PGBENCH_VALUE_H

#include "pgbench/base/common.h"

typedef enum pgb_value_type
{
	PGBT_NO_VALUE,				/* not set (variable holds only a string) */
	PGBT_NULL,
	PGBT_INT,
	PGBT_DOUBLE,
	PGBT_BOOLEAN,
} pgb_value_type;

typedef struct pgb_value
{
	pgb_value_type type;
	union
	{
		int64_t		ival;
		double		dval;
		bool		bval;
	}			u;
} pgb_value;

/* Constructors: a value of each type, by value (nothing to free). */
static inline pgb_value
pgb_value_int(int64_t v)
{
	pgb_value	r = {.type = PGBT_INT, .u.ival = v};

	return r;
}

static inline pgb_value
pgb_value_double(double v)
{
	pgb_value	r = {.type = PGBT_DOUBLE, .u.dval = v};

	return r;
}

static inline pgb_value
pgb_value_bool(bool v)
{
	pgb_value	r = {.type = PGBT_BOOLEAN, .u.bval = v};

	return r;
}

static inline pgb_value
pgb_value_null(void)
{
	pgb_value	r = {.type = PGBT_NULL};

	return r;
}

#endif
