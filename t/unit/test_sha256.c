/*
 * test_sha256.c — sha256_hex against the digests FIPS 180-4's examples
 * and sha256sum give: the empty string, "abc", the two-block message of
 * 448 bits, a million 'a's, and lengths around the block's padding edge
 * (55, 56, 63, 64 bytes), whose digests sha256sum printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgbench/base/sha256.h"
#include "tap.h"

static void
check(const char *data, size_t len, const char *want, const char *name)
{
	char		hex[SHA256_HEX_LEN + 1];

	sha256_hex(data, len, hex);
	tap_is_str(hex, want, name);
}

int
main(void)
{
	static const struct
	{
		size_t		len;
		const char *digest;
	}			edges[] = {
		{55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
		{56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
		{63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
		{64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
	};
	char	   *million = malloc(1000000);

	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "the empty string");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448 bits, two blocks");
	memset(million, 'a', 1000000);
	check(million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  "a million 'a's");
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
	{
		char		name[64];

		snprintf(name, sizeof(name), "%zu 'a's (the padding's edge)", edges[i].len);
		check(million, edges[i].len, edges[i].digest, name);
	}
	free(million);
	return tap_done();
}
