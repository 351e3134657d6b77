/*
 * random.c — pgbench's random numbers: the xoroshiro128** generator with
 * splitmix64 seeding, the run-wide seed and its base sequence, the
 * distributions behind random(), random_exponential(), random_gaussian(),
 * random_zipfian() and --rate, the two hash functions and random_permute().
 *
 * Every formula here must give the very same bits as PostgreSQL 15/16's
 * pgbench so that a fixed --random-seed replays the same draws; that is
 * why the floating-point expressions keep pgbench's order of operations
 * (do not "simplify" them).  See doc/random.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include "pgbench/script/random.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* splitmix64 increment (the golden ratio) and output mixers. */
#define SPLITMIX_GAMMA UINT64_C(0x9E3779B97F4A7C15)
#define SPLITMIX_MIX1 UINT64_C(0xBF58476D1CE4E5B9)
#define SPLITMIX_MIX2 UINT64_C(0x94D049BB133111EB)

/* Replacement for an all-zero state, which xoroshiro can never leave. */
#define PRNG_NONZERO_S0 UINT64_C(0x5851F42D4C957F2D)
#define PRNG_NONZERO_S1 UINT64_C(0x14057B7EF767814F)

/* FNV-1a, 64-bit. */
#define FNV1A_PRIME UINT64_C(0x100000001b3)
#define FNV1A_OFFSET UINT64_C(0xcbf29ce484222325)

/* MurmurHash64A: multiplier, multiplier times the key length 8, shift. */
#define MURMUR_MUL UINT64_C(0xc6a4a7935bd1e995)
#define MURMUR_MUL_LEN8 UINT64_C(0x35253c9ade8f4ca8)
#define MURMUR_SHIFT 47

/* random_permute() applies this many rounds, as pgbench does. */
#define PERMUTE_ROUNDS 6

/* ---- the generator ------------------------------------------------------ */

static inline uint64_t
prng_rotl(uint64_t x, int bits)
{
	return (x << bits) | (x >> (64 - bits));
}

static inline uint64_t
prng_splitmix_next(uint64_t *sm_state)
{
	uint64_t	z = (*sm_state += SPLITMIX_GAMMA);

	z = (z ^ (z >> 30)) * SPLITMIX_MIX1;
	z = (z ^ (z >> 27)) * SPLITMIX_MIX2;
	return z ^ (z >> 31);
}

/* Position of the highest set bit (x != 0), 0 for bit 0. */
static inline int
prng_top_bit(uint64_t x)
{
	return 63 - __builtin_clzll(x);
}

void
prng_seed(prng_state *state, uint64_t seed)
{
	uint64_t	sm = seed;

	state->s0 = prng_splitmix_next(&sm);
	state->s1 = prng_splitmix_next(&sm);
	if (PGB_UNLIKELY(state->s0 == 0 && state->s1 == 0))
	{
		state->s0 = PRNG_NONZERO_S0;
		state->s1 = PRNG_NONZERO_S1;
	}
}

uint64_t
prng_uint64(prng_state *state)
{
	uint64_t	s0 = state->s0;
	uint64_t	sx = state->s1 ^ s0;
	uint64_t	result = prng_rotl(s0 * 5, 7) * 9;

	state->s0 = prng_rotl(s0, 24) ^ sx ^ (sx << 16);
	state->s1 = prng_rotl(sx, 37);
	return result;
}

uint64_t
prng_uint64_range(prng_state *state, uint64_t rmin, uint64_t rmax)
{
	uint64_t	span;
	int			shift;
	uint64_t	offset;

	if (PGB_UNLIKELY(rmax <= rmin))
		return rmin;

	/*
	 * Keep just enough high bits to cover the span and retry when above it:
	 * fewer than two tries on average, and no modulo bias.  The high bits
	 * (not a mask of the low ones) are what pgbench uses; same draws matter.
	 */
	span = rmax - rmin;
	shift = 63 - prng_top_bit(span);
	do
		offset = prng_uint64(state) >> shift;
	while (offset > span);

	return rmin + offset;
}

double
prng_double(prng_state *state)
{
	/* 52 bits: every result is exactly representable and below 1.0. */
	return ldexp((double) (prng_uint64(state) >> 12), -52);
}

/* ---- the run-wide seed --------------------------------------------------- */

/* pgbench 15 reads its "time" seed from the monotonic clock (instr_time). */
static uint64_t
random_time_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

static bool
random_read_urandom(void *buf, size_t len)
{
	int			fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	size_t		done = 0;

	if (fd < 0)
		return false;
	while (done < len)
	{
		ssize_t		n = read(fd, (char *) buf + done, len - done);

		if (n <= 0 && !(n < 0 && errno == EINTR))
			break;
		if (n > 0)
			done += (size_t) n;
	}
	close(fd);
	return done == len;
}

bool
random_os_bytes(void *buf, size_t len)
{
	size_t		done = 0;

	while (done < len)
	{
		ssize_t		n = getrandom((char *) buf + done, len - done, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return random_read_urandom(buf, len);
		done += (size_t) n;
	}
	return true;
}

bool
random_run_id(char out[RANDOM_RUN_ID_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char bytes[RANDOM_RUN_ID_LEN / 2];

	out[0] = '\0';
	if (!random_os_bytes(bytes, sizeof(bytes)))
		return false;
	for (size_t i = 0; i < sizeof(bytes); i++)
	{
		out[2 * i] = hex[bytes[i] >> 4];
		out[2 * i + 1] = hex[bytes[i] & 0xf];
	}
	out[RANDOM_RUN_ID_LEN] = '\0';
	return true;
}

/*
 * pgbench reads the number with sscanf("%lu%c"): leading white space and
 * a sign are accepted, "-1" wraps to 2^64-1, overflow saturates at
 * 2^64-1, and anything after the digits (even a space) is refused.
 * Using the same call keeps every corner of that behaviour.
 */
static bool
random_parse_seed(const char *text, uint64_t *seed)
{
	char		trailing;

	return sscanf(text, "%" SCNu64 "%c", seed, &trailing) == 1;
}

bool
random_seed_set(random_seed *rs, const char *text, char *errbuf, size_t errlen)
{
	uint64_t	seed;

	if (text == NULL || strcmp(text, "time") == 0)
		seed = random_time_seed();
	else if (strcmp(text, "rand") == 0)
	{
		if (!random_os_bytes(&seed, sizeof(seed)))
		{
			snprintf(errbuf, errlen, "could not generate random seed");
			return false;
		}
	}
	else if (!random_parse_seed(text, &seed))
	{
		snprintf(errbuf, errlen,
				 "unrecognized random seed option \"%s\"\n"
				 "Expecting an unsigned integer, \"time\" or \"rand\".",
				 text);
		return false;
	}

	rs->seed = seed;
	prng_seed(&rs->base, seed);
	return true;
}

void
random_state_init(random_seed *rs, prng_state *state)
{
	prng_seed(state, prng_uint64(&rs->base));
}

/* ---- distributions ------------------------------------------------------- */

int64_t
random_uniform(prng_state *state, int64_t min, int64_t max)
{
	/* Unsigned arithmetic: the span may exceed INT64_MAX without UB. */
	uint64_t	span = (uint64_t) max - (uint64_t) min;

	return (int64_t) ((uint64_t) min + prng_uint64_range(state, 0, span));
}

int64_t
random_exponential(prng_state *state, int64_t min, int64_t max,
				   double parameter)
{
	double		cut = exp(-parameter);
	/* (0, 1]: log() below must never see 0 */
	double		uniform = 1.0 - prng_double(state);
	double		unit = -log(cut + (1.0 - cut) * uniform) / parameter;

	return min + (int64_t) ((max - min + 1) * unit);
}

/* One standard normal value by the basic Box-Muller transform. */
static double
random_normal(prng_state *state)
{
	double		u1 = 1.0 - prng_double(state);
	double		u2 = 1.0 - prng_double(state);

	return sqrt(-2.0 * log(u1)) * sin(2.0 * M_PI * u2);
}

int64_t
random_gaussian(prng_state *state, int64_t min, int64_t max,
				double parameter)
{
	double		stdev;
	double		unit;

	/* Truncate to [-parameter, parameter) by drawing again. */
	do
		stdev = random_normal(state);
	while (stdev < -parameter || stdev >= parameter);

	unit = (stdev + parameter) / (parameter * 2.0);
	return min + (int64_t) ((max - min + 1) * unit);
}

/*
 * Zipf on [1, n] by rejection (Devroye, "Non-Uniform Random Variate
 * Generation", 1986, pp. 550-551): two uniform draws per attempt.
 */
static int64_t
random_zipf_rank(prng_state *state, int64_t n, double s)
{
	double		b = pow(2.0, s - 1.0);

	if (n <= 1)
		return 1;

	for (;;)
	{
		double		u = prng_double(state);
		double		v = prng_double(state);
		double		x = floor(pow(u, -1.0 / (s - 1.0)));
		double		t = pow(1.0 + 1.0 / x, s - 1.0);

		if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n)
			return (int64_t) x;
	}
}

int64_t
random_zipfian(prng_state *state, int64_t min, int64_t max, double parameter)
{
	return min - 1 + random_zipf_rank(state, max - min + 1, parameter);
}

int64_t
random_poisson(prng_state *state, double center)
{
	/* 1 - [0,1) is in (0,1]: log() stays finite */
	double		uniform = 1.0 - prng_double(state);

	return (int64_t) (-log(uniform) * center + 0.5);
}

/* ---- hashes and permutation ---------------------------------------------- */

int64_t
random_hash_fnv1a(int64_t value, uint64_t seed)
{
	uint64_t	bytes = (uint64_t) value;
	uint64_t	h = FNV1A_OFFSET ^ seed;

	/* the eight bytes of the value, least significant first */
	for (int i = 0; i < 8; i++)
	{
		h ^= bytes & 0xff;
		h *= FNV1A_PRIME;
		bytes >>= 8;
	}
	return (int64_t) h;
}

int64_t
random_hash_murmur2(int64_t value, uint64_t seed)
{
	uint64_t	k = (uint64_t) value;
	uint64_t	h = seed ^ MURMUR_MUL_LEN8;

	k *= MURMUR_MUL;
	k ^= k >> MURMUR_SHIFT;
	k *= MURMUR_MUL;

	h ^= k;
	h *= MURMUR_MUL;

	h ^= h >> MURMUR_SHIFT;
	h *= MURMUR_MUL;
	h ^= h >> MURMUR_SHIFT;
	return (int64_t) h;
}

/*
 * One bijective scramble of v within [0, mask]: multiply by an odd number,
 * xor, then rotate left by one bit inside masklen bits (the multiply leaves
 * low bits poorly mixed; the rotation moves the well-mixed top bit down).
 */
static inline uint64_t
permute_scramble(uint64_t v, uint64_t mult, uint64_t xr, uint64_t mask,
				 int masklen)
{
	v = ((v * mult) ^ xr) & mask;
	return ((v << 1) & mask) | (v >> (masklen - 1));
}

int64_t
random_permute(int64_t value, int64_t size, int64_t seed)
{
	prng_state	state;
	uint64_t	usize;
	uint64_t	v;
	uint64_t	mask;
	int			masklen;

	if (size < 2)
		return 0;

	prng_seed(&state, (uint64_t) seed);
	usize = (uint64_t) size;
	v = (uint64_t) value % usize;

	/* scramble modulo the largest power of two not above size */
	masklen = prng_top_bit(usize);
	mask = (UINT64_C(1) << masklen) - 1;

	/*
	 * Each round scrambles the low part [0, mask] and then, mirrored, the
	 * high part [size-1-mask, size-1]; these overlap, so together they
	 * cover every value.  A random rotation of the whole range follows.
	 * Random numbers are drawn whether or not v falls in a part, so the
	 * sequence (and the permutation) does not depend on v.
	 */
	for (int round = 0; round < PERMUTE_ROUNDS; round++)
	{
		uint64_t	mult = (prng_uint64(&state) & mask) | 1;
		uint64_t	xr = prng_uint64(&state) & mask;
		uint64_t	mirrored;

		if (v <= mask)
			v = permute_scramble(v, mult, xr, mask, masklen);

		mult = (prng_uint64(&state) & mask) | 1;
		xr = prng_uint64(&state) & mask;
		mirrored = usize - 1 - v;
		if (mirrored <= mask)
			v = usize - 1 - permute_scramble(mirrored, mult, xr, mask, masklen);

		v = (v + prng_uint64_range(&state, 0, usize - 1)) % usize;
	}
	return (int64_t) v;
}
