/*
 * utf8.h — well-formed UTF-8 (the Unicode Standard, table 3-7) and the
 * replacement of what is not: the report files (JSON and HTML) carry
 * text the user gave (file names, SQL, variable values) or the server
 * sent (error messages), in whatever bytes it came, and must be valid
 * UTF-8 all the same.
 *
 * Each maximal subpart of an ill-formed sequence becomes one U+FFFD
 * (the Standard's "substitution of maximal subparts", which the WHATWG
 * decoder and Python's errors="replace" also follow): a byte that can
 * never start a sequence (80..BF, C0, C1, F5..FF) is one subpart; a lead
 * byte and the continuation bytes that fit it, up to the first that does
 * not (or the end), is another.  So an overlong form (C0 80, E0 80 80), a
 * surrogate (ED A0 80 = U+D800) or a code point past U+10FFFF (F4 90 ..)
 * gives one U+FFFD per byte, a truncated sequence (E2 82 at the end) one
 * for the whole.
 */
#ifndef PGBENCH_UTF8_H
#define PGBENCH_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER in UTF-8. */
#define UTF8_REPLACEMENT "\xEF\xBF\xBD"

/*
 * At s, n > 0 bytes: the length (1 to 4) of the well-formed sequence
 * that starts there, or minus the length (1 to 3) of the maximal subpart
 * of the ill-formed one that does, to replace with one U+FFFD.
 */
int			utf8_next(const unsigned char *s, size_t n);

/* s[0..n) is well-formed UTF-8 (a NUL byte counts as U+0000). */
bool		utf8_valid(const char *s, size_t n);

/* Room utf8_sanitize needs for n bytes, its NUL included. */
#define UTF8_SANITIZED_SIZE(n) (3 * (n) + 1)

/*
 * s[0..n) with each maximal ill-formed subpart replaced by U+FFFD, into
 * out (UTF8_SANITIZED_SIZE(n) bytes), NUL-terminated; returns its length.
 */
size_t		utf8_sanitize(char *out, const char *s, size_t n);

/*
 * Each C0 control character and DEL of s (NUL-terminated) replaced by
 * '?' in place, so that a text read from a file prints on one line and
 * moves no terminal cursor.
 */
void		utf8_mask_controls(char *s);

#endif
