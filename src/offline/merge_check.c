/*
 * merge_check.c — typed, checked access to the members of a report that
 * --merge-reports reads, each named by its declaration (report_schema.h)
 * and read as declared: each value's kind and range, the histogram
 * blocks' layout and counts, and sums that must not overflow; every
 * failure one message naming the file and the member's path, kept in the
 * caller's merge_error (and the record's helpers: none of them prints).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/xalloc.h"
#include "merge_int.h"

void
merge_error_free(merge_error *err)
{
	for (int i = 0; i < err->nwarnings; i++)
		free(err->warnings[i]);
	free(err->warnings);
	err->warnings = NULL;
	err->nwarnings = 0;
}

bool
merge_fail(merge_error *err, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	err->detail = NULL;
	err->hint = NULL;
	return false;
}

void
merge_warn(merge_error *err, const char *fmt,...)
{
	char		line[MERGE_MSG_LEN];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	err->warnings = pgb_realloc(err->warnings, (size_t) (err->nwarnings + 1) * sizeof(char *));
	err->warnings[err->nwarnings++] = pgb_strdup(line);
}

bool
merge_bad(const merge_reading *rd, const json_ref *at, const char *fmt,...)
{
	char		path[256];
	char		what[512];
	va_list		ap;

	json_ref_path(at, path, sizeof(path));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (path[0] != '\0')
		return merge_fail(rd->err, "%s: %s: %s", rd->file, path, what);
	return merge_fail(rd->err, "%s: %s", rd->file, what);
}

/* A number as the messages show it: exactly when it is an integer. */
static const char *
show_number(const json_value *v, char *buf, size_t len)
{
	if (v->number == JSON_INT64)
		snprintf(buf, len, "%" PRId64, v->u.integer);
	else if (v->number == JSON_UINT64)
		snprintf(buf, len, "%" PRIu64, v->u.uinteger);
	else if (v->number == JSON_BIGINT)
		snprintf(buf, len, "%s", v->u.string);
	else
		snprintf(buf, len, "%.17g", v->u.real);
	return buf;
}

/*
 * The member, there and of kind; what names the kind for the message.
 * present NULL: null is refused; else null is taken too, and *present
 * says whether a value (not null) was found.  Every getter below follows
 * this rule: its _null form is the one function, the other passes NULL.
 */
static bool
get_member(const merge_reading *rd, const json_ref *obj, const char *key, json_kind kind,
		   const char *what, json_ref *out, bool *present)
{
	*out = json_ref_member(obj, key);
	if (present != NULL)
		*present = false;
	if (out->v == NULL)
		return merge_bad(rd, out, "missing");
	if (present != NULL && out->v->kind == JSON_NULL)
		return true;
	if (out->v->kind == kind &&
		(kind != JSON_NUMBER || strcmp(what, "an integer") != 0 || out->v->number != JSON_REAL))
	{
		if (present != NULL)
			*present = true;
		return true;
	}
	return merge_bad(rd, out, "expected %s%s, found %s", what, present != NULL ? " or null" : "",
					 json_kind_name(out->v));
}

/*
 * Member m of obj is declared of type, and nullable when the accessor
 * takes null: else the reader asks for what the report does not declare,
 * and the read fails before the value is looked at, whatever the input.
 */
static bool
declared(const merge_reading *rd, const json_ref *obj, report_member m, report_type type,
		 bool nullable)
{
	const report_member_def *d;
	json_ref	r;

	if (m < 0 || m >= RM_COUNT)
		return merge_bad(rd, obj, "member %d is not declared (report_schema.h): a bug in the merge",
						 (int) m);
	d = &report_members[m];
	if (d->type == type && (d->nullable || !nullable))
		return true;
	r = merge_at(obj, m);
	return merge_bad(rd, &r, "this member is declared %s, read as %s (report_schema.h): a bug in the merge",
					 report_type_text(d->type, d->nullable), report_type_text(type, nullable));
}

bool
merge_int_null_key(const merge_reading *rd, const json_ref *obj, const char *key, int64_t lo,
				   int64_t hi, int64_t *out, bool *present)
{
	json_ref	r;
	char		buf[64];

	if (!get_member(rd, obj, key, JSON_NUMBER, "an integer", &r, present))
		return false;
	if (present != NULL && !*present)
		return true;
	if (r.v->number == JSON_INT64 && r.v->u.integer >= lo && r.v->u.integer <= hi)
	{
		*out = r.v->u.integer;
		return true;
	}
	if (present != NULL)
		*present = false;
	if (lo == 0 && json_num(r.v) < 0)
		return merge_bad(rd, &r, "%s is negative", show_number(r.v, buf, sizeof(buf)));
	return merge_bad(rd, &r, "%s is out of range (%" PRId64 " to %" PRId64 ")",
					 show_number(r.v, buf, sizeof(buf)), lo, hi);
}

bool
merge_int_key(const merge_reading *rd, const json_ref *obj, const char *key, int64_t lo,
			  int64_t hi, int64_t *out)
{
	return merge_int_null_key(rd, obj, key, lo, hi, out, NULL);
}

bool
merge_int_null(const merge_reading *rd, const json_ref *obj, report_member m, int64_t lo,
			   int64_t hi, int64_t *out, bool *present)
{
	return declared(rd, obj, m, RT_INT, present != NULL) &&
		merge_int_null_key(rd, obj, report_key(m), lo, hi, out, present);
}

bool
merge_int(const merge_reading *rd, const json_ref *obj, report_member m, int64_t lo, int64_t hi,
		  int64_t *out)
{
	return merge_int_null(rd, obj, m, lo, hi, out, NULL);
}

bool
merge_uint64_key(const merge_reading *rd, const json_ref *obj, const char *key, uint64_t *out)
{
	json_ref	r;
	char		buf[64];

	if (!get_member(rd, obj, key, JSON_NUMBER, "an integer", &r, NULL))
		return false;
	if (r.v->number == JSON_INT64 && r.v->u.integer >= 0)
		*out = (uint64_t) r.v->u.integer;
	else if (r.v->number == JSON_UINT64)
		*out = r.v->u.uinteger;
	else if (json_num(r.v) < 0)
		return merge_bad(rd, &r, "%s is negative", show_number(r.v, buf, sizeof(buf)));
	else
		return merge_bad(rd, &r, "%s is out of range (0 to %" PRIu64 ")",
						 show_number(r.v, buf, sizeof(buf)), UINT64_MAX);
	return true;
}

bool
merge_num_null_key(const merge_reading *rd, const json_ref *obj, const char *key, double lo,
				   double hi, double *out, bool *present)
{
	json_ref	r;
	char		buf[64];
	double		v;

	if (!get_member(rd, obj, key, JSON_NUMBER, "a number", &r, present))
		return false;
	if (present != NULL && !*present)
		return true;
	v = json_num(r.v);
	if (v >= lo && v <= hi)
	{
		*out = v;
		return true;
	}
	if (present != NULL)
		*present = false;
	if (lo == 0 && v < 0)
		return merge_bad(rd, &r, "%s is negative", show_number(r.v, buf, sizeof(buf)));
	return merge_bad(rd, &r, "%s is out of range (%.15g to %.15g)",
					 show_number(r.v, buf, sizeof(buf)), lo, hi);
}

bool
merge_num_key(const merge_reading *rd, const json_ref *obj, const char *key, double lo, double hi,
			  double *out)
{
	return merge_num_null_key(rd, obj, key, lo, hi, out, NULL);
}

bool
merge_num_null(const merge_reading *rd, const json_ref *obj, report_member m, double lo,
			   double hi, double *out, bool *present)
{
	return declared(rd, obj, m, RT_NUMBER, present != NULL) &&
		merge_num_null_key(rd, obj, report_key(m), lo, hi, out, present);
}

bool
merge_num(const merge_reading *rd, const json_ref *obj, report_member m, double lo, double hi,
		  double *out)
{
	return merge_num_null(rd, obj, m, lo, hi, out, NULL);
}

bool
merge_str_null_key(const merge_reading *rd, const json_ref *obj, const char *key,
				   const char **out)
{
	json_ref	r;
	bool		present;

	if (!get_member(rd, obj, key, JSON_STRING, "a string", &r, &present))
		return false;
	*out = present ? r.v->u.string : NULL;
	return true;
}

bool
merge_str_key(const merge_reading *rd, const json_ref *obj, const char *key, const char **out)
{
	json_ref	r;

	if (!get_member(rd, obj, key, JSON_STRING, "a string", &r, NULL))
		return false;
	*out = r.v->u.string;
	return true;
}

bool
merge_str_null(const merge_reading *rd, const json_ref *obj, report_member m, const char **out)
{
	return declared(rd, obj, m, RT_STRING, true) &&
		merge_str_null_key(rd, obj, report_key(m), out);
}

bool
merge_str(const merge_reading *rd, const json_ref *obj, report_member m, const char **out)
{
	return declared(rd, obj, m, RT_STRING, false) && merge_str_key(rd, obj, report_key(m), out);
}

bool
merge_bool_key(const merge_reading *rd, const json_ref *obj, const char *key, bool *out)
{
	json_ref	r;

	if (!get_member(rd, obj, key, JSON_BOOL, "a boolean", &r, NULL))
		return false;
	*out = r.v->boolean;
	return true;
}

bool
merge_bool(const merge_reading *rd, const json_ref *obj, report_member m, bool *out)
{
	return declared(rd, obj, m, RT_BOOL, false) && merge_bool_key(rd, obj, report_key(m), out);
}

/* The container key of obj, null taken when present is not NULL. */
static bool
container(const merge_reading *rd, const json_ref *obj, const char *key, json_kind kind,
		  json_ref *out, bool *present)
{
	return get_member(rd, obj, key, kind, kind == JSON_OBJECT ? "an object" : "an array", out,
					  present);
}

bool
merge_container_key(const merge_reading *rd, const json_ref *obj, const char *key, json_kind kind,
					json_ref *out)
{
	return container(rd, obj, key, kind, out, NULL);
}

bool
merge_container_null(const merge_reading *rd, const json_ref *obj, report_member m, json_kind kind,
					 json_ref *out, bool *present)
{
	return declared(rd, obj, m, kind == JSON_OBJECT ? RT_OBJECT : RT_ARRAY, present != NULL) &&
		container(rd, obj, report_key(m), kind, out, present);
}

bool
merge_container(const merge_reading *rd, const json_ref *obj, report_member m, json_kind kind,
				json_ref *out)
{
	return merge_container_null(rd, obj, m, kind, out, NULL);
}

bool
merge_sum(const merge_reading *rd, const json_ref *at, int64_t *acc, int64_t v)
{
	if (__builtin_add_overflow(*acc, v, acc))
		return merge_bad(rd, at, "the sum over the reports overflows (above %" PRId64 ")",
						 INT64_MAX);
	return true;
}

bool
merge_sum_real(const merge_reading *rd, const json_ref *at, double *acc, double v)
{
	if (!isfinite(*acc + v))
		return merge_bad(rd, at, "the sum over the reports overflows");
	*acc += v;
	return true;
}

/* ---- histograms --------------------------------------------------------- */

/*
 * The members the buckets of a histogram block are read from: a
 * "latency_histogram" and a series point's "histogram" use the same keys,
 * but are objects of their own in the declaration.
 */
typedef struct block_members
{
	report_member min_us;
	report_member max_us;
	report_member buckets;
} block_members;

static const block_members histogram_block = {
	RM_HISTOGRAM_MIN_US, RM_HISTOGRAM_MAX_US, RM_HISTOGRAM_BUCKETS,
};
static const block_members point_block = {
	RM_POINT_HIST_MIN_US, RM_POINT_HIST_MAX_US, RM_POINT_HIST_BUCKETS,
};

/* One [index, count] pair of buckets (item i) into *b; index after prev. */
static bool
read_bucket(const merge_reading *rd, const json_ref *buckets, int i, int32_t prev, int bits,
			hist_bucket *b)
{
	json_ref	pair = json_ref_item(buckets, i);
	json_ref	index = json_ref_item(&pair, 0);
	json_ref	count = json_ref_item(&pair, 1);
	int			last = hist_layout_index_of(HIST_ONE_HOUR_US, bits);

	if (pair.v->kind != JSON_ARRAY || pair.v->n != 2)
		return merge_bad(rd, &pair, "expected an [index, count] pair, found %s%s",
						 json_kind_name(pair.v), pair.v->kind == JSON_ARRAY ? " of another length" : "");
	if (index.v->kind != JSON_NUMBER || index.v->number != JSON_INT64 ||
		index.v->u.integer < 0 || index.v->u.integer > last)
		return merge_bad(rd, &index, "expected a bucket index (0 to %d)", last);
	if (index.v->u.integer <= prev)
		return merge_bad(rd, &index, "bucket %" PRId64 " is not above the one before (%d)",
						 index.v->u.integer, (int) prev);
	if (count.v->kind != JSON_NUMBER || count.v->number != JSON_INT64 || count.v->u.integer <= 0)
		return merge_bad(rd, &count, "expected a count (1 to %" PRId64 ")", INT64_MAX);
	b->index = (int32_t) index.v->u.integer;
	b->count = count.v->u.integer;
	return true;
}

/* min_us and max_us of a block with its buckets b (n > 0). */
static bool
check_extremes(const merge_reading *rd, const json_ref *block, const block_members *bm,
			   const merge_hist *mh, int bits)
{
	int			last = hist_layout_index_of(HIST_ONE_HOUR_US, bits);
	int			lo = mh->b[0].index;
	int			hi = mh->b[mh->n - 1].index;
	json_ref	r;

	/* read_bucket keeps every index in range: said again for the analyzer */
	if (lo < 0 || hi < lo)
		return merge_bad(rd, block, "bucket indexes out of order");
	/* the last bucket also holds the clamped values, above one hour */
	if (mh->min_us < hist_layout_lowest(lo, bits) ||
		(lo < last && mh->min_us > hist_layout_highest(lo, bits)))
	{
		r = merge_at(block, bm->min_us);
		return merge_bad(rd, &r, "%" PRId64 " is not in the first bucket (%d)", mh->min_us, lo);
	}
	if (mh->max_us < hist_layout_lowest(hi, bits) ||
		(hi < last && mh->max_us > hist_layout_highest(hi, bits)))
	{
		r = merge_at(block, bm->max_us);
		return merge_bad(rd, &r, "%" PRId64 " is not in the last bucket (%d)", mh->max_us, hi);
	}
	return true;
}

/* The buckets of block into out (out->b allocated), checked. */
static bool
read_buckets(const merge_reading *rd, const json_ref *block, const block_members *bm,
			 int64_t expect, int bits, merge_hist *out)
{
	json_ref	buckets;
	int64_t		sum = 0;
	int32_t		prev = -1;

	if (!merge_int(rd, block, bm->min_us, 0, INT64_MAX, &out->min_us) ||
		!merge_int(rd, block, bm->max_us, 0, INT64_MAX, &out->max_us) ||
		!merge_container(rd, block, bm->buckets, JSON_ARRAY, &buckets))
		return false;
	out->b = calloc((size_t) (buckets.v->n > 0 ? buckets.v->n : 1), sizeof(hist_bucket));
	if (out->b == NULL)
		return merge_bad(rd, &buckets, "out of memory");
	for (int i = 0; i < buckets.v->n; i++)
	{
		hist_bucket b = {.index = -1};

		if (!read_bucket(rd, &buckets, i, prev, bits, &b))
			return false;
		if (__builtin_add_overflow(sum, b.count, &sum))
			return merge_bad(rd, &buckets, "the counts add up to more than %" PRId64, INT64_MAX);
		out->b[i] = b;
		prev = b.index;
	}
	out->n = buckets.v->n;
	if (sum != expect)
		return merge_bad(rd, &buckets, "the counts add up to %" PRId64 ", not %" PRId64,
						 sum, expect);
	if (out->n > 0 && out->min_us > out->max_us)
		return merge_bad(rd, block, "min_us (%" PRId64 ") is above max_us (%" PRId64 ")",
						 out->min_us, out->max_us);
	return out->n <= 0 || check_extremes(rd, block, bm, out, bits);
}

/* read_buckets, out left empty when it fails. */
static bool
read_block(const merge_reading *rd, const json_ref *block, const block_members *bm,
		   int64_t expect, int bits, merge_hist *out)
{
	memset(out, 0, sizeof(*out));
	if (read_buckets(rd, block, bm, expect, bits, out))
		return true;
	free(out->b);
	memset(out, 0, sizeof(*out));
	return false;
}

bool
merge_read_buckets(const merge_reading *rd, const json_ref *block, int64_t expect, merge_hist *out)
{
	return read_block(rd, block, &histogram_block, expect, HIST_SUB_BITS, out);
}

bool
merge_read_point_buckets(const merge_reading *rd, const json_ref *block, int64_t expect, int bits,
						 merge_hist *out)
{
	return read_block(rd, block, &point_block, expect, bits, out);
}

bool
merge_import(const merge_reading *rd, const json_ref *block, hist *h, const merge_hist *mh,
			 double sum)
{
	double		total = h->sum;

	if (!merge_sum_real(rd, block, &total, sum))
		return false;
	if (!hist_import(h, mh->b, mh->n, mh->min_us, mh->max_us, sum))
	{
		json_ref	r = merge_at(block, RM_HISTOGRAM_BUCKETS);

		return merge_bad(rd, &r, "the sum over the reports overflows (above %" PRId64 ")",
						 INT64_MAX);
	}
	return true;
}
