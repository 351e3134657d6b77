/* expr.c — see include/pgbench/expr.h */
