/* script.c — see include/pgbench/script.h */
