/*
 * compare_diag.h — the diagnosis beside --compare's figures (doc/compare.md,
 * "Why"): what differs between the runs, what breaks the comparison, the
 * evidence that changed beyond its own noise (ranked), the latency taken
 * apart per transaction, the host's CPU split, and one sentence.
 *
 * Filled once per comparison (compare_diagnose), then printed as text
 * (compare_diag_print), written in the compare JSON (compare_json.c) and
 * drawn on the compare page (compare_html.c, compare_html.js).
 *
 * Who fills what:
 *   compare_differs.c   the differences (cmp_diag_differences);
 *   compare_evidence.c  the warnings and the host split (cmp_diag_warnings,
 *                       cmp_diag_host), and prints them with the differences;
 *   compare_diag.c      the evidence and the breakdown (cmp_diag_evidence),
 *                       each change told by compare_ratio.c;
 *   compare_rules.c     the rule table, the ranking, the sentence, and the
 *                       text of the rest (cmp_diag_print).
 */
#ifndef PGBENCH_COMPARE_DIAG_H
#define PGBENCH_COMPARE_DIAG_H

#include "compare_int.h"

#define CMP_DIAG_MAX_DIFFS 64
#define CMP_DIAG_MAX_WARNINGS 8
#define CMP_DIAG_MAX_EVIDENCE 256
#define CMP_DIAG_MAX_PARTS 16
#define CMP_DIAG_TEXT 160

/* What a difference is of. */
typedef enum cmp_diff_kind
{
	DK_OPTION,					/* a run setting (settings.*: -c, -j, -M, ...) */
	DK_VARIABLE,				/* a -D variable, from the command line */
	DK_SCRIPT,					/* a script: its name or text (hash) */
	DK_SCRIPT_LINE,				/* a line of a script that differs */
	DK_SETTING,					/* a server setting (server.settings, non_default) */
	DK_SERVER,					/* the server: version, data checksums */
	DK_HOST,					/* the client host: CPUs, memory */
	DK_LABEL,					/* --label */
	DK_CONNECTION				/* where the set-up connection went */
} cmp_diff_kind;

/* One thing that differs between base and new. */
typedef struct cmp_difference
{
	cmp_diff_kind kind;
	char		what[96];		/* "shared_buffers", "-D aid", "clients", "server version" */
	char		base[CMP_DIAG_TEXT];	/* as shown, with its unit ("128MB"); "(none)" */
	char		new[CMP_DIAG_TEXT];
	double		base_num;		/* a number in the setting's base unit (bytes,
								 * ms, a count) when it is one, else NAN */
	double		new_num;
} cmp_difference;

/* A warning: what breaks or weakens the comparison. */
typedef struct cmp_warning
{
	char		code[32];		/* "different_scripts", "client_bound",
								 * "host_saturated", "checkpoints_one_side", ... */
	char		text[256];		/* as printed after "pgbench: warning: " */
} cmp_warning;

/* The unit of an evidence, per transaction. */
typedef enum cmp_ev_unit
{
	EU_COUNT,
	EU_BYTES,
	EU_MS,						/* time: a wait, CPU, time outside the server */
	EU_PERCENT					/* a share of a CPU (not per transaction) */
} cmp_ev_unit;

/* Where an evidence comes from. */
typedef enum cmp_ev_source
{
	ES_COUNTER,					/* a server counter (group.name) */
	ES_WAIT,					/* a wait event's time (the run's backends' samples) */
	ES_OUTSIDE,					/* time outside the server: sessions waiting for
								 * their client (idle, ClientRead) */
	ES_PROCESS,					/* the local server's processes */
	ES_CLIENT,					/* this process (pgbench) */
	ES_HOST						/* the rest of the client host */
} cmp_ev_source;

/* One evidence, per transaction on both sides. */
typedef struct cmp_evidence
{
	char		name[96];		/* "database.blks_read", "IO:DataFileRead",
								 * "time outside the server", "server CPU" */
	cmp_ev_source source;
	cmp_ev_unit unit;
	bool		has_base;		/* the side's reports hold it (else "not */
	bool		has_new;		/* available on base/new", never 0) */
	double		base;			/* per transaction over the run */
	double		new;
	cmp_change	change;			/* the change in the unit per transaction, its
								 * verdict and 95% interval (CV_CANNOT_TELL:
								 * reason; compare_ratio.c) */
	double		noise;			/* the interval's midpoint in its half-widths
								 * (cmp_ratio_noise: above 1, beyond the
								 * noise); 0 when not told */
	double		share;			/* EU_MS: the share of the latency average's
								 * change it accounts for; NAN otherwise */
	int			rank;			/* 1, 2, ...: ranked (changed beyond its
								 * noise); 0: not ranked */
} cmp_evidence;

/* One part of the latency per transaction (ms), both sides. */
typedef struct cmp_part
{
	char		name[64];		/* "server CPU", "IO:DataFileRead", "other waits",
								 * "outside the server (network and client)" */
	double		base_ms;
	double		new_ms;
	cmp_change	change;			/* of the difference new - base (absolute, ms) */
} cmp_part;

/* The latency average per transaction taken apart. */
typedef struct cmp_breakdown
{
	bool		has_base;		/* the side's backends were sampled in every */
	bool		has_new;		/* state (idle included) */
	double		latency_base_ms;	/* the latency average, for reference */
	double		latency_new_ms;
	int			nparts;
	cmp_part	part[CMP_DIAG_MAX_PARTS];	/* largest first; "outside the
											 * server" last */
} cmp_breakdown;

/* The client host's CPU, split, per side (each a share of the host's CPUs, 0..1). */
typedef struct cmp_host_split
{
	bool		has;			/* the host was read */
	bool		has_server;		/* the server's processes were read (local server) */
	double		client;			/* this process */
	double		server;			/* the local server's processes */
	double		rest;			/* the rest of the host (other tenants) */
	double		idle;			/* idle and iowait */
	double		busiest_thread_cpu_pct;	/* the median interval's busiest worker thread */
	int			cpus;
} cmp_host_split;

typedef struct cmp_diagnosis
{
	int			ndiffs;
	cmp_difference diff[CMP_DIAG_MAX_DIFFS];
	int			ndiffs_more;	/* differences beyond CMP_DIAG_MAX_DIFFS */
	int			nwarnings;
	cmp_warning warning[CMP_DIAG_MAX_WARNINGS];
	int			nevidence;		/* ranked first (rank order), then the rest */
	cmp_evidence evidence[CMP_DIAG_MAX_EVIDENCE];
	cmp_breakdown breakdown;
	cmp_host_split host[2];		/* base, new */
	char		rule[32];		/* the rule that fits ("synchronous_commit",
								 * ...), "" when none */
	char		sentence[512];	/* the one sentence */
} cmp_diagnosis;

/*
 * An evidence's amounts per interval on one run: num[i] (blocks read,
 * milliseconds in a wait) over den[i] transactions; quantum: the smallest
 * step of an interval's amount (one count, one sample, a clock tick).
 */
typedef struct cmp_ratio_series
{
	double	   *num;
	double	   *den;
	int			n;
	double		quantum;
} cmp_ratio_series;

/* An evidence on one side: one run's series, or repeated runs' levels. */
typedef struct cmp_ratio_side
{
	cmp_ratio_series series;	/* nruns == 1 */
	int			nruns;
	double	   *run_level;		/* nruns > 1: each run's amount per transaction */
	double		level;			/* the side's amount per transaction */
} cmp_ratio_side;

/*
 * The change of an evidence from a to b (compare_ratio.c): absolute, in
 * its unit per transaction, with its verdict (less is better) and 95%
 * interval, or why it cannot be told.
 */
void		cmp_ratio_change(const cmp_ratio_side *a, const cmp_ratio_side *b, cmp_change *out);

/* The bound's spreads for an evidence (doc/diagnosis.md, calibrated). */
#define CMP_EVIDENCE_BOUND_SDS 3.0
extern double cmp_evidence_bound_sds;

/*
 * How far a told change is beyond its noise: its 95% interval's midpoint
 * in half-widths of the interval (above 1: the interval holds no 0); 0
 * when not told.
 */
double		cmp_ratio_noise(const cmp_change *c);

/* The whole diagnosis of other against base (heap: it is large). */
cmp_diagnosis *compare_diagnose(const cmp_side *base, const cmp_side *other,
								const cmp_change *figures);

/* The differences (compare_differs.c) and the warnings (compare_evidence.c). */
void		cmp_diag_differences(const cmp_side *base, const cmp_side *other, cmp_diagnosis *d);
void		cmp_diag_warnings(const cmp_side *base, const cmp_side *other, cmp_diagnosis *d);

/*
 * The client host's CPU split of side into *h (compare_evidence.c): over
 * its first run's used intervals, this process, the local server's
 * processes, the rest and idle as shares of the host's CPU time; h->has
 * false when its points hold no host.  compare_diagnose fills d->host[0]
 * (base) and d->host[1] (other) with it.
 */
void		cmp_diag_host(const cmp_side *side, cmp_host_split *h);

/* The evidence and the breakdown (compare_diag.c). */
void		cmp_diag_evidence(const cmp_side *base, const cmp_side *other,
							  const cmp_change *figures, cmp_diagnosis *d);

/* The ranking, the rule that fits, and the sentence (compare_rules.c). */
void		cmp_diag_sentence(const cmp_change *figures, cmp_diagnosis *d);

/* Text: differences and warnings (compare_evidence.c), the rest (compare_rules.c). */
void		cmp_diag_print_differences(FILE *out, const cmp_diagnosis *d);
void		cmp_diag_print(FILE *out, const cmp_diagnosis *d);

/* Names as the JSON document has them. */
const char *cmp_diff_kind_name(cmp_diff_kind k);
const char *cmp_ev_unit_name(cmp_ev_unit u);
const char *cmp_ev_source_name(cmp_ev_source s);

#endif
