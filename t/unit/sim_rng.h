/*
 * sim_rng.h — the seeded generator of the simulations that calibrate
 * --compare (test_compare_calib.c, test_compare_evidence.c): splitmix64,
 * uniform on (0, 1) and standard normal (Box-Muller).  Each test has its
 * own state: the header defines it static.
 */
#ifndef PGBENCH_SIM_RNG_H
#define PGBENCH_SIM_RNG_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state;

static inline double
uniform(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return ((double) (z >> 11) + 0.5) / 9007199254740992.0;
}

static inline double
normal(void)
{
	return sqrt(-2.0 * log(uniform())) * cos(2.0 * M_PI * uniform());
}

#endif
