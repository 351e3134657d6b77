/*
 * sha256.h — SHA-256 (FIPS 180-4) of a byte string, for the hash of each
 * script's text in the report files: a stable identity that tells two
 * runs of the same script from runs of different ones.  Computed by
 * OpenSSL's libcrypto (EVP_Digest), which libpq already links: no runtime
 * library of its own.  Thread-safe; no state kept between calls.
 */
#ifndef PGBENCH_SHA256_H
#define PGBENCH_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 64

/*
 * The digest of data[0 .. len - 1] as 64 lowercase hexadecimal digits and
 * a NUL, into hex (the caller's buffer).  Should libcrypto fail (out of
 * memory, no provider offers SHA-256) hex is "": the hash is unknown, as
 * a merged report's is; nothing is printed.
 */
void		sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);

#endif
