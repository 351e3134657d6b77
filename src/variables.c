/* variables.c — see include/pgbench/variables.h */
