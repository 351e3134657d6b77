/* init.c — see include/pgbench/init.h */
