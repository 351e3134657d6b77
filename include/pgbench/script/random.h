/*
 * random.h — pgbench's pseudo-random numbers: the xoroshiro128** generator
 * seeded through splitmix64 (PostgreSQL's pg_prng), the global seed
 * (--random-seed / PGBENCH_RANDOM_SEED: "time", "rand" or an unsigned
 * integer), the four distributions of the random* functions, the hash
 * functions and permute(), here random_hash_*() and random_permute().
 * Same algorithms, same draws as PostgreSQL's pgbench for the same seed.
 *
 * A prng_state belongs to one thread or one client; nothing here locks.
 */
#ifndef PGBENCH_RANDOM_H
#define PGBENCH_RANDOM_H

#include "pgbench/base/common.h"

typedef struct prng_state
{
	uint64_t	s0;
	uint64_t	s1;
} prng_state;

/* Seed a state from a 64-bit seed (splitmix64, as pg_prng_seed). */
void		prng_seed(prng_state *state, uint64_t seed);

/* Uniform 64-bit value. */
uint64_t	prng_uint64(prng_state *state);

/* Uniform in [rmin, rmax] (rmin when rmax <= rmin), unbiased. */
uint64_t	prng_uint64_range(prng_state *state, uint64_t rmin, uint64_t rmax);

/* Uniform double in [0, 1) with 52 random bits. */
double		prng_double(prng_state *state);

/*
 * The seed of a whole run.  random_seed_set parses "time", "rand" or an
 * unsigned integer (NULL means "time") and seeds the base sequence from
 * which every thread and client state is drawn.  Returns false with a
 * message in errbuf ("unrecognized random seed option ..." and its detail
 * on a second line) on bad input.  When text is not NULL pgbench then
 * prints "setting random seed to %" PRIu64 at its default (info) level.
 * "time" is the monotonic clock in microseconds, as pgbench 15.  Draw order
 * from the base sequence: see doc/random.md.
 */
typedef struct random_seed
{
	uint64_t	seed;			/* value of :random_seed */
	prng_state	base;			/* base sequence: seeds every other state */
} random_seed;

bool		random_seed_set(random_seed *rs, const char *text,
							char *errbuf, size_t errlen);

/*
 * len bytes from the operating system's random source (getrandom, else
 * /dev/urandom) into buf; false when neither gives them.
 */
bool		random_os_bytes(void *buf, size_t len);

/* The length of a run id: 128 bits in hexadecimal. */
#define RANDOM_RUN_ID_LEN 32

/*
 * A new run id (doc/report-json.md, "run_id"): 128 random bits from
 * random_os_bytes as 32 lowercase hexadecimal digits and a NUL in out.
 * false, out empty, when the system gives no random bytes.
 */
bool		random_run_id(char out[RANDOM_RUN_ID_LEN + 1]);

/* Seed a fresh state from the next draw of the base sequence. */
void		random_state_init(random_seed *rs, prng_state *state);

/*
 * Distributions, as pgbench's random functions: a value in [min, max],
 * drawn from state.  The caller checks min <= max, that max - min + 1
 * fits in an int64, and the parameter's range (the RANDOM_*_PARAMETER
 * limits below; exponential: > 0), and prints the messages.
 */
int64_t		random_uniform(prng_state *state, int64_t min, int64_t max);
int64_t		random_exponential(prng_state *state, int64_t min, int64_t max,
							   double parameter);
int64_t		random_gaussian(prng_state *state, int64_t min, int64_t max,
							double parameter);
int64_t		random_zipfian(prng_state *state, int64_t min, int64_t max,
						   double parameter);

/*
 * Throttling delay for --rate: a value whose mean is center (usec), drawn
 * by inverse transform, rounded to the nearest integer (as pgbench).
 */
int64_t		random_poisson(prng_state *state, double center);

/* Parameter limits, with pgbench's messages in the evaluator. */
#define RANDOM_GAUSSIAN_MIN_PARAMETER 2.0
#define RANDOM_ZIPFIAN_MIN_PARAMETER 1.001
#define RANDOM_ZIPFIAN_MAX_PARAMETER 1000.0

/* Hashes and permutation, bit for bit as PostgreSQL's pgbench. */
int64_t		random_hash_fnv1a(int64_t value, uint64_t seed);
int64_t		random_hash_murmur2(int64_t value, uint64_t seed);
int64_t		random_permute(int64_t value, int64_t size, int64_t seed);

#endif
