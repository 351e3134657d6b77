/* options.c — see include/pgbench/options.h */
