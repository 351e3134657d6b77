/* eval.c — see include/pgbench/eval.h */
