/*
 * test_random.c — unit tests of the random unit: the generator, seeding
 * and seed parsing, the four distributions, the hashes and random_permute().
 *
 * Golden values come from the real pgbench 15 (debug() of the function in
 * a one-client run with --random-seed=S, whose client 0 draws from the
 * first state of the base sequence; see doc/random.md), so a pass means
 * the same draws as pgbench for the same seed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgbench/script/random.h"
#include "tap.h"

#define NDRAWS 8

typedef enum dist_kind
{
	DIST_UNIFORM,
	DIST_EXPONENTIAL,
	DIST_GAUSSIAN,
	DIST_ZIPFIAN,
} dist_kind;

static const char *const dist_names[] = {
	"random", "random_exponential", "random_gaussian", "random_zipfian",
};

/* First NDRAWS draws of client 0 for "\set x debug(<dist>(min, max[, p]))". */
typedef struct dist_case
{
	const char *seed;
	dist_kind	kind;
	int64_t		min;
	int64_t		max;
	double		parameter;
	int64_t		expected[NDRAWS];
} dist_case;

static const dist_case dist_cases[] = {
	{"0", DIST_UNIFORM, 1, 1000, 0.0, {234, 530, 946, 890, 536, 242, 584, 34}},
	{"0", DIST_UNIFORM, INT64_C(-1000000000000), INT64_C(1000000000000), 0.0,
		{INT64_C(-499366777165), INT64_C(136656081141), INT64_C(909188181787),
		 INT64_C(151027790233), INT64_C(-480313238360), INT64_C(252179143028),
		 INT64_C(-928346918574), INT64_C(-270355116006)}},
	{"0", DIST_UNIFORM, 0, INT64_C(9223372036854775806), 0.0,
		{INT64_C(2099807929071356926), INT64_C(4767481147755423319),
		 INT64_C(8518981081702569272), INT64_C(8007715627622959249),
		 INT64_C(4827760464689074989), INT64_C(2179724263096569494),
		 INT64_C(5252019988320520840), INT64_C(300534806037885486)}},
	{"0", DIST_EXPONENTIAL, 1, 1000, 2.5, {94, 258, 754, 638, 262, 98, 296, 13}},
	{"0", DIST_EXPONENTIAL, -5, 5, 0.1, {-3, 0, 5, 4, 0, -3, 1, -5}},
	{"0", DIST_GAUSSIAN, 1, 1000, 2.5, {516, 835, 258, 448, 363, 446, 406, 692}},
	{"0", DIST_GAUSSIAN, -10, 10, 5.0, {0, 4, -3, -1, -1, -1, -1, 2}},
	{"0", DIST_ZIPFIAN, 1, 1000, 1.5, {19, 1, 3, 3, 9, 231, 7, 2}},
	{"0", DIST_ZIPFIAN, 1, 100, 1.001, {1, 2, 6, 3, 1, 2, 4, 26}},
	{"0", DIST_ZIPFIAN, 1, 1000000, 3.0, {2, 1, 1, 1, 1, 3, 1, 1}},
	{"1", DIST_UNIFORM, 1, 1000, 0.0, {806, 656, 15, 603, 810, 529, 679, 43}},
	{"1", DIST_UNIFORM, INT64_C(-1000000000000), INT64_C(1000000000000), 0.0,
		{INT64_C(729278306589), INT64_C(407197144335), INT64_C(-969495783461),
		 INT64_C(293320652954), INT64_C(737336769069), INT64_C(136013111876),
		 INT64_C(456873620391), INT64_C(-909147665640)}},
	{"1", DIST_UNIFORM, 0, INT64_C(9223372036854775806), 0.0,
		{INT64_C(7253118918443224035), INT64_C(5902212611275317052),
		 INT64_C(127943957446718623), INT64_C(5424579987969767954),
		 INT64_C(7286918559857281797), INT64_C(4764784339196602992),
		 INT64_C(6110570853500602243), INT64_C(381062309416595783)}},
	{"1", DIST_EXPONENTIAL, 1, 1000, 2.5, {512, 355, 6, 311, 517, 258, 375, 16}},
	{"1", DIST_EXPONENTIAL, -5, 5, 0.1, {3, 1, -5, 1, 3, 0, 2, -5}},
	{"1", DIST_GAUSSIAN, 1, 1000, 2.5, {771, 518, 537, 425, 567, 441, 405, 735}},
	{"1", DIST_GAUSSIAN, -10, 10, 5.0, {3, 0, 0, -1, 1, -1, -1, 2}},
	{"1", DIST_ZIPFIAN, 1, 1000, 1.5, {1, 1, 2, 482, 27, 1, 7, 4}},
	{"1", DIST_ZIPFIAN, 1, 100, 1.001, {2, 8, 25, 1, 22, 31, 11, 2}},
	{"1", DIST_ZIPFIAN, 1, 1000000, 3.0, {1, 1, 1, 4, 2, 1, 1, 1}},
	{"424242", DIST_UNIFORM, 1, 1000, 0.0, {299, 372, 341, 553, 190, 170, 678, 131}},
	{"424242", DIST_UNIFORM, INT64_C(-1000000000000), INT64_C(1000000000000), 0.0,
		{INT64_C(-359657716966), INT64_C(-201237435837), INT64_C(-267923863783),
		 INT64_C(186732435784), INT64_C(-592754246316), INT64_C(-635200404892),
		 INT64_C(455451762022), INT64_C(-720257785691)}},
	{"424242", DIST_UNIFORM, 0, INT64_C(9223372036854775806), 0.0,
		{INT64_C(2685790199099274213), INT64_C(3350253017920279225),
		 INT64_C(3070549866440633550), INT64_C(4977516602339802690),
		 INT64_C(1708112493662230051), INT64_C(1530080400961239844),
		 INT64_C(6104607147259511815), INT64_C(1173323888448728184)}},
	{"424242", DIST_EXPONENTIAL, 1, 1000, 2.5, {125, 163, 146, 274, 75, 67, 375, 50}},
	{"424242", DIST_EXPONENTIAL, -5, 5, 0.1, {-2, -2, -2, 0, -4, -4, 2, -4}},
	{"424242", DIST_GAUSSIAN, 1, 1000, 2.5, {375, 545, 390, 289, 393, 291, 468, 348}},
	{"424242", DIST_GAUSSIAN, -10, 10, 5.0, {-1, 0, -1, -2, -1, -2, 0, -2}},
	{"424242", DIST_ZIPFIAN, 1, 1000, 1.5, {11, 9, 29, 2, 2, 4, 368, 10}},
	{"424242", DIST_ZIPFIAN, 1, 100, 1.001, {2, 82, 1, 15, 2, 3, 3, 9}},
	{"424242", DIST_ZIPFIAN, 1, 1000000, 3.0, {1, 1, 2, 1, 1, 1, 4, 1}},
	{"18446744073709551615", DIST_UNIFORM, 1, 1000, 0.0,
		{949, 702, 753, 459, 841, 682, 559, 953}},
	{"18446744073709551615", DIST_UNIFORM, INT64_C(-1000000000000), INT64_C(1000000000000), 0.0,
		{INT64_C(507507216196), INT64_C(616849778100), INT64_C(-16013937929),
		 INT64_C(805311285571), INT64_C(463949762420), INT64_C(200141628539),
		 INT64_C(231468826505), INT64_C(637398351455)}},
	{"18446744073709551615", DIST_UNIFORM, 0, INT64_C(9223372036854775806), 0.0,
		{INT64_C(8540394450957527446), INT64_C(6322943546923496477),
		 INT64_C(6781559491685244138), INT64_C(4127136676089406265),
		 INT64_C(7572024346318156005), INT64_C(6140250344318957654),
		 INT64_C(5033758833148289102), INT64_C(8581319758237698651)}},
	{"18446744073709551615", DIST_EXPONENTIAL, 1, 1000, 2.5,
		{759, 397, 450, 212, 561, 378, 279, 770}},
	{"18446744073709551615", DIST_EXPONENTIAL, -5, 5, 0.1, {5, 2, 2, -1, 3, 2, 0, 5}},
	{"18446744073709551615", DIST_GAUSSIAN, 1, 1000, 2.5,
		{920, 395, 821, 607, 664, 172, 294, 559}},
	{"18446744073709551615", DIST_GAUSSIAN, -10, 10, 5.0, {4, -1, 3, 1, 2, -3, -2, 1}},
	{"18446744073709551615", DIST_ZIPFIAN, 1, 1000, 1.5, {1, 1, 1, 1, 1, 4, 5, 10}},
	{"18446744073709551615", DIST_ZIPFIAN, 1, 100, 1.001, {1, 1, 1, 1, 1, 1, 1, 23}},
	{"18446744073709551615", DIST_ZIPFIAN, 1, 1000000, 3.0, {1, 1, 1, 1, 1, 1, 1, 1}},
};

/* :default_seed is the base draw that follows the clients' states. */
typedef struct default_seed_case
{
	const char *seed;
	int			nclients;
	int64_t		expected;
} default_seed_case;

static const default_seed_case default_seed_cases[] = {
	{"0", 1, INT64_C(7868822567099391496)},
	{"1", 1, INT64_C(-4077769369618924625)},
	{"1", 2, INT64_C(-1564547434871682003)},
	{"1", 3, INT64_C(-3060036491186211434)},
	{"424242", 1, INT64_C(-708156403963825001)},
	{"18446744073709551615", 1, INT64_C(5218942343062937440)},
	{"5", 1, INT64_C(-1240385398947155067)},
	{"7", 1, INT64_C(-2715325821952477995)},
};

/* First random(1, 1000) of each client of "-c 3 --random-seed=1". */
static const int64_t three_clients_first_draw[] = {806, 215, 562};

typedef struct seed_text_case
{
	const char *text;
	bool		ok;
	uint64_t	seed;
} seed_text_case;

/* Accepted and refused --random-seed values, as pgbench 15 behaves. */
static const seed_text_case seed_text_cases[] = {
	{"0", true, 0},
	{"1", true, 1},
	{"007", true, 7},
	{" 5", true, 5},
	{"\t5", true, 5},
	{"+5", true, 5},
	{"  -0", true, 0},
	{"-1", true, UINT64_MAX},
	{"-18446744073709551615", true, 1},
	{"18446744073709551615", true, UINT64_MAX},
	{"18446744073709551616", true, UINT64_MAX},
	{"99999999999999999999999", true, UINT64_MAX},
	{"12abc", false, 0},
	{"5 ", false, 0},
	{"", false, 0},
	{"abc", false, 0},
	{"0x10", false, 0},
	{"-", false, 0},
	{"1.5", false, 0},
	{"Time", false, 0},
	{"RAND", false, 0},
};

typedef struct hash_case
{
	int64_t		value;
	uint64_t	seed;
	int64_t		murmur2;
	int64_t		fnv1a;
} hash_case;

static const hash_case hash_cases[] = {
	{10, 5432, INT64_C(-5817877081768721676), INT64_C(-7793829335365542153)},
	{0, 0, INT64_C(8217090173679840641), INT64_C(-6284781860667377211)},
	{-1, 0, INT64_C(4219408603045787357), INT64_C(-8289690350564177859)},
	{INT64_MAX, 1, INT64_C(-422191570849047500), INT64_C(-280712867721224292)},
	{INT64_MIN, UINT64_MAX, INT64_C(5949093009533562506),
	 INT64_C(4052607191188198810)},
	{123456789, 987654321, INT64_C(-3046098614147007385),
	 INT64_C(-6616195411920759204)},
};

typedef struct permute_case
{
	int64_t		value;
	int64_t		size;
	int64_t		seed;
	int64_t		expected;
} permute_case;

static const permute_case permute_cases[] = {
	{0, 10, 42, 1},
	{5, 10, 42, 8},
	{9, 10, 42, 2},
	{-1, 100, 1, 59},
	{3, 2, 7, 1},
	{2, 3, 7, 1},
	{12345, 1000000, 0, 793059},
	{123456789, 1000000007, -5, 658300209},
	{1, INT64_MAX, 5432, INT64_C(4401802522294066805)},
	{INT64_MIN, INT64_MAX, -1, INT64_C(253286445164279399)},
	{77, 128, 99, 24},
	{77, 129, 99, 114},
	{3, 1, 7, 0},
	{3, 0, 7, 0},
	{3, -5, 7, 0},
};

/* random_permute(i, size, 12345) for i in [0, size). */
typedef struct permutation_case
{
	int64_t		size;
	int64_t		image[13];
} permutation_case;

static const permutation_case permutation_cases[] = {
	{2, {0, 1}},
	{3, {0, 2, 1}},
	{5, {0, 1, 3, 4, 2}},
	{8, {5, 1, 4, 6, 0, 3, 2, 7}},
	{13, {5, 3, 9, 10, 2, 12, 1, 11, 4, 7, 6, 8, 0}},
};

/* ---- helpers ------------------------------------------------------------- */

static void
client_state(const char *seed_text, int client, prng_state *state)
{
	random_seed rs;
	char		err[256];

	if (!random_seed_set(&rs, seed_text, err, sizeof(err)))
	{
		tap_diag("cannot set seed %s: %s", seed_text, err);
		exit(1);
	}
	for (int i = 0; i <= client; i++)
		random_state_init(&rs, state);
}

static int64_t
draw(const dist_case *c, prng_state *state)
{
	switch (c->kind)
	{
		case DIST_UNIFORM:
			return random_uniform(state, c->min, c->max);
		case DIST_EXPONENTIAL:
			return random_exponential(state, c->min, c->max, c->parameter);
		case DIST_GAUSSIAN:
			return random_gaussian(state, c->min, c->max, c->parameter);
		case DIST_ZIPFIAN:
			return random_zipfian(state, c->min, c->max, c->parameter);
	}
	return 0;
}

/* ---- tests --------------------------------------------------------------- */

static void
test_distribution_goldens(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(dist_cases); i++)
	{
		const dist_case *c = &dist_cases[i];
		prng_state	state;
		int64_t		got[NDRAWS];
		bool		same = true;

		client_state(c->seed, 0, &state);
		for (int d = 0; d < NDRAWS; d++)
		{
			got[d] = draw(c, &state);
			same = same && got[d] == c->expected[d];
		}
		if (!tap_ok(same, "seed %s: first %d draws of %s(%" PRId64 ", %" PRId64
					", %g)", c->seed, NDRAWS, dist_names[c->kind], c->min,
					c->max, c->parameter))
		{
			for (int d = 0; d < NDRAWS; d++)
				tap_diag("draw %d: got %" PRId64 " expected %" PRId64,
						 d + 1, got[d], c->expected[d]);
		}
	}
}

static void
test_seeding_order(void)
{
	char		name[128];

	for (size_t i = 0; i < PGB_LENGTHOF(default_seed_cases); i++)
	{
		const default_seed_case *c = &default_seed_cases[i];
		random_seed rs;
		prng_state	client;
		char		err[256];

		random_seed_set(&rs, c->seed, err, sizeof(err));
		for (int k = 0; k < c->nclients; k++)
			random_state_init(&rs, &client);
		snprintf(name, sizeof(name), "seed %s, -c %d: default_seed", c->seed,
				 c->nclients);
		tap_is_int((int64_t) prng_uint64(&rs.base), c->expected, name);
	}

	for (int k = 0; k < (int) PGB_LENGTHOF(three_clients_first_draw); k++)
	{
		prng_state	state;

		client_state("1", k, &state);
		snprintf(name, sizeof(name), "seed 1: client %d's first random(1, 1000)", k);
		tap_is_int(random_uniform(&state, 1, 1000), three_clients_first_draw[k], name);
	}
}

static void
test_generator(void)
{
	prng_state	a;
	prng_state	b;
	bool		same = true;
	bool		in_range = true;
	bool		exact = true;

	/* a state is two splitmix64 outputs of the seed */
	prng_seed(&a, 0);
	tap_ok(a.s0 == UINT64_C(0xE220A8397B1DCDAF) &&
		   a.s1 == UINT64_C(0x6E789E6AA1B965F4),
		   "prng_seed(0) holds the first two splitmix64 outputs");

	/* a uniform 63-bit random() is the raw draw shifted right once */
	prng_seed(&a, 99);
	b = a;
	for (int i = 0; i < 100; i++)
		same = same && random_uniform(&a, 0, INT64_C(9223372036854775806)) ==
			(int64_t) (prng_uint64(&b) >> 1);
	tap_ok(same, "random(0, 2^63-2) is the raw draw >> 1 (no rejection here)");

	prng_seed(&a, 7);
	b = a;
	same = true;
	for (int i = 0; i < 100; i++)
		same = same && prng_uint64_range(&a, 0, UINT64_MAX) == prng_uint64(&b);
	tap_ok(same, "prng_uint64_range over everything is the raw draw");

	prng_seed(&a, 7);
	b = a;
	tap_is_int((int64_t) prng_uint64_range(&a, 42, 42), 42, "empty range gives rmin");
	tap_is_int((int64_t) prng_uint64_range(&a, 50, 10), 50, "reversed range gives rmin");
	tap_ok(a.s0 == b.s0 && a.s1 == b.s1, "an empty range draws nothing");

	prng_seed(&a, 11);
	for (int i = 0; i < 100000; i++)
	{
		uint64_t	v = prng_uint64_range(&a, 1000, 1006);

		in_range = in_range && v >= 1000 && v <= 1006;
	}
	tap_ok(in_range, "prng_uint64_range stays within [rmin, rmax]");

	prng_seed(&a, 13);
	b = a;
	in_range = true;
	for (int i = 0; i < 100000; i++)
	{
		double		d = prng_double(&a);
		uint64_t	raw = prng_uint64(&b);

		in_range = in_range && d >= 0.0 && d < 1.0;
		exact = exact && d == (double) (raw >> 12) / 4503599627370496.0;
	}
	tap_ok(in_range, "prng_double stays within [0, 1)");
	tap_ok(exact, "prng_double takes the top 52 bits");
}

static void
test_bounds_and_means(void)
{
	/* loose statistical sanity: each draw inside its range, plausible mean */
	static const struct
	{
		dist_kind	kind;
		int64_t		min;
		int64_t		max;
		double		parameter;
		double		mean_low;
		double		mean_high;
	}			cases[] = {
		{DIST_UNIFORM, -50, 49, 0.0, -1.5, 0.5},
		{DIST_EXPONENTIAL, 1, 100, 5.0, 18.0, 22.0},
		{DIST_GAUSSIAN, 1, 100, 3.0, 49.5, 51.5},
		{DIST_ZIPFIAN, 1, 100, 2.0, 2.5, 3.5},
	};
	prng_state	state;

	prng_seed(&state, 2024);
	for (size_t i = 0; i < PGB_LENGTHOF(cases); i++)
	{
		dist_case	c = {"", cases[i].kind, cases[i].min, cases[i].max,
		cases[i].parameter, {0}};
		bool		inside = true;
		double		sum = 0;
		int			n = 200000;

		for (int k = 0; k < n; k++)
		{
			int64_t		v = draw(&c, &state);

			inside = inside && v >= c.min && v <= c.max;
			sum += (double) v;
		}
		tap_ok(inside, "%s draws stay within [%" PRId64 ", %" PRId64 "]",
			   dist_names[c.kind], c.min, c.max);
		tap_ok(sum / n >= cases[i].mean_low && sum / n <= cases[i].mean_high,
			   "%s mean %.3f is plausible", dist_names[c.kind], sum / n);
	}
}

static void
test_poisson(void)
{
	prng_state	a;
	prng_state	b;
	bool		same = true;
	double		sum = 0;

	prng_seed(&a, 5);
	b = a;
	for (int i = 0; i < 200000; i++)
	{
		int64_t		v = random_poisson(&a, 1000.0);

		same = same &&
			v == (int64_t) (-log(1.0 - prng_double(&b)) * 1000.0 + 0.5);
		sum += (double) v;
	}
	tap_ok(same, "random_poisson is -log(1 - u) * center rounded");
	tap_ok(fabs(sum / 200000 - 1000.0) < 15.0, "random_poisson mean is near center");
}

static void
test_seed_texts(void)
{
	for (size_t i = 0; i < PGB_LENGTHOF(seed_text_cases); i++)
	{
		const seed_text_case *c = &seed_text_cases[i];
		random_seed rs;
		char		err[256] = "";
		bool		ok = random_seed_set(&rs, c->text, err, sizeof(err));

		if (c->ok)
			tap_ok(ok && rs.seed == c->seed,
				   "seed text \"%s\" gives %" PRIu64, c->text, c->seed);
		else
		{
			char		expected[256];

			snprintf(expected, sizeof(expected),
					 "unrecognized random seed option \"%s\"\n"
					 "Expecting an unsigned integer, \"time\" or \"rand\".",
					 c->text);
			tap_ok(!ok, "seed text \"%s\" is refused", c->text);
			tap_is_str(err, expected, "  with pgbench's error and detail");
		}
	}
}

static void
test_seed_sources(void)
{
	random_seed rs;
	random_seed other;
	char		err[256];
	struct timespec ts;
	uint64_t	now;
	prng_state	expect;

	/* "time" is pgbench 15's pg_time_now(): monotonic microseconds */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
	tap_ok(random_seed_set(&rs, "time", err, sizeof(err)) &&
		   rs.seed >= now && rs.seed - now < 5000000,
		   "\"time\" seeds from the monotonic clock in microseconds");
	tap_ok(random_seed_set(&rs, NULL, err, sizeof(err)) &&
		   rs.seed >= now && rs.seed - now < 5000000,
		   "no seed means \"time\"");

	tap_ok(random_seed_set(&rs, "rand", err, sizeof(err)) &&
		   random_seed_set(&other, "rand", err, sizeof(err)) &&
		   rs.seed != other.seed,
		   "\"rand\" gives a fresh strong seed each time");

	random_seed_set(&rs, "424242", err, sizeof(err));
	prng_seed(&expect, 424242);
	tap_ok(rs.base.s0 == expect.s0 && rs.base.s1 == expect.s1,
		   "the base sequence is seeded with the seed itself");
}

static void
test_hashes(void)
{
	char		name[128];

	for (size_t i = 0; i < PGB_LENGTHOF(hash_cases); i++)
	{
		const hash_case *c = &hash_cases[i];

		snprintf(name, sizeof(name), "hash_murmur2(%" PRId64 ", %" PRIu64 ")",
				 c->value, c->seed);
		tap_is_int(random_hash_murmur2(c->value, c->seed), c->murmur2, name);
		snprintf(name, sizeof(name), "hash_fnv1a(%" PRId64 ", %" PRIu64 ")",
				 c->value, c->seed);
		tap_is_int(random_hash_fnv1a(c->value, c->seed), c->fnv1a, name);
	}
}

static void
test_permute(void)
{
	char		name[128];

	for (size_t i = 0; i < PGB_LENGTHOF(permute_cases); i++)
	{
		const permute_case *c = &permute_cases[i];

		snprintf(name, sizeof(name), "permute(%" PRId64 ", %" PRId64 ", %" PRId64 ")",
				 c->value, c->size, c->seed);
		tap_is_int(random_permute(c->value, c->size, c->seed), c->expected, name);
	}

	for (size_t i = 0; i < PGB_LENGTHOF(permutation_cases); i++)
	{
		const permutation_case *c = &permutation_cases[i];
		bool		same = true;

		for (int64_t v = 0; v < c->size; v++)
			same = same && random_permute(v, c->size, 12345) == c->image[v];
		tap_ok(same, "permute(i, %" PRId64 ", 12345) is pgbench's permutation", c->size);
	}
}

static void
test_permute_bijection(void)
{
	static const int64_t seeds[] = {0, 1, -1, 5432, INT64_MAX};
	static const int64_t big_sizes[] = {1000, 1024, 1025, 4099};
	bool		hits[4099];
	bool		small_ok = true;

	for (size_t s = 0; s < PGB_LENGTHOF(seeds); s++)
	{
		for (int64_t size = 1; size <= 70; size++)
		{
			bool		ok = true;

			memset(hits, 0, sizeof(hits));
			for (int64_t v = 0; v < size; v++)
			{
				int64_t		p = random_permute(v, size, seeds[s]);

				ok = ok && p >= 0 && p < size && !hits[p];
				if (p >= 0 && p < size)
					hits[p] = true;
			}
			if (!ok)
				tap_diag("not a bijection: size %" PRId64 " seed %" PRId64,
						 size, seeds[s]);
			small_ok = small_ok && ok;
		}
	}
	tap_ok(small_ok, "permute is a bijection of [0, size) for sizes 1..70, 5 seeds");

	for (size_t i = 0; i < PGB_LENGTHOF(big_sizes); i++)
	{
		int64_t		size = big_sizes[i];
		bool		ok = true;

		memset(hits, 0, sizeof(hits));
		for (int64_t v = 0; v < size; v++)
		{
			int64_t		p = random_permute(v, size, 777);

			ok = ok && p >= 0 && p < size && !hits[p];
			if (p >= 0 && p < size)
				hits[p] = true;
		}
		tap_ok(ok, "permute is a bijection of [0, %" PRId64 ")", size);
	}

	tap_is_int(random_permute(-3, 10, 99), random_permute(((uint64_t) -3) % 10, 10, 99),
			   "a negative value is taken modulo size as unsigned");
}

int
main(void)
{
	test_generator();
	test_distribution_goldens();
	test_seeding_order();
	test_bounds_and_means();
	test_poisson();
	test_seed_texts();
	test_seed_sources();
	test_hashes();
	test_permute();
	test_permute_bijection();
	return tap_done();
}
