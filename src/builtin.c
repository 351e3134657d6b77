/* builtin.c — see include/pgbench/builtin.h */
