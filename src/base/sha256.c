/*
 * sha256.c — SHA-256 of a byte string in hexadecimal (sha256.h), computed
 * by OpenSSL's libcrypto, which libpq already brings into the process.
 */
#include <openssl/evp.h>

#include "pgbench/base/sha256.h"

void
sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;

	/* a libcrypto that cannot digest (out of memory, no provider): unknown */
	if (EVP_Digest(data, len, md, &md_len, EVP_sha256(), NULL) != 1 ||
		md_len != SHA256_HEX_LEN / 2)
	{
		hex[0] = '\0';
		return;
	}
	for (unsigned int i = 0; i < md_len; i++)
	{
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 0xf];
	}
	hex[SHA256_HEX_LEN] = '\0';
}
