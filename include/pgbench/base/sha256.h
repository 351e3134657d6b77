/*
 * sha256.h — SHA-256 (FIPS 180-4) of a byte string, for the hash of each
 * script's text in the report files: a stable identity that tells two
 * runs of the same script from runs of different ones.  Pure, no
 * allocation, thread-safe.
 */
#ifndef PGBENCH_SHA256_H
#define PGBENCH_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

/* The digest of data[0 .. len - 1] as 64 lowercase hexadecimal digits and a NUL, into hex. */
void		sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);

#endif
