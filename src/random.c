/* random.c — see include/pgbench/random.h */
