// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl argument parsers. Strict on purpose: seg6ctl(8) says that a
 * bad address, an out-of-range number or an unknown word is a usage
 * error, never something silently accepted or clamped.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <linux/seg6x.h>

#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const hmac_algo_names[] = {
	[SEG6X_HMAC_ALGO_SHA1]		= "sha1",
	[SEG6X_HMAC_ALGO_SHA256]	= "sha256",
};

static const char *const mode_names[] = {
	[SEG6X_IPTUN_MODE_ENCAP]	= "encap",
	[SEG6X_IPTUN_MODE_INLINE]	= "inline",
};

/*
 * Magnitude of a run of decimal digits. Saturates just above UINT32_MAX
 * so that huge inputs read as out of range rather than wrapping.
 */
static int parse_digits(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v <= UINT32_MAX)
			v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int err;

	if (!s)
		return -EINVAL;
	err = parse_digits(s, &v);
	if (err)
		return err;
	if (v < min || v > max)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

int parse_s32(const char *s, int32_t min, int32_t max, int32_t *out)
{
	bool negative;
	int64_t v;
	uint64_t mag;
	int err;

	if (!s)
		return -EINVAL;
	negative = *s == '-';
	err = parse_digits(s + negative, &mag);
	if (err)
		return err;
	v = negative ? -(int64_t)mag : (int64_t)mag;
	if (v < min || v > max)
		return -ERANGE;
	*out = (int32_t)v;
	return 0;
}

int parse_in6(const char *s, struct in6_addr *out)
{
	if (!s || inet_pton(AF_INET6, s, out) != 1)
		return -EINVAL;
	return 0;
}

int parse_inet_addr(const char *s, struct inet_addr *out)
{
	int family;

	if (!s)
		return -EINVAL;
	family = strchr(s, ':') ? AF_INET6 : AF_INET;
	memset(out, 0, sizeof(*out));
	if (inet_pton(family, s, out->bytes) != 1)
		return -EINVAL;
	out->family = family;
	return 0;
}

/* True if @p has a bit set past its first p->len bits. */
static bool has_host_bits(const struct inet_prefix *p)
{
	size_t bytes = inet_addr_len(p->addr.family);
	unsigned int i;

	for (i = p->len; i < bytes * 8; i++)
		if (p->addr.bytes[i / 8] & (0x80 >> (i % 8)))
			return true;
	return false;
}

int parse_inet_prefix(const char *s, struct inet_prefix *out)
{
	char addr[INET6_ADDRSTRLEN];
	const char *slash;
	size_t addr_len;
	uint32_t len;
	int err;

	if (!s)
		return -EINVAL;
	slash = strchr(s, '/');
	addr_len = slash ? (size_t)(slash - s) : strlen(s);
	if (addr_len >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, addr_len);
	addr[addr_len] = '\0';

	err = parse_inet_addr(addr, &out->addr);
	if (err)
		return err;

	len = inet_addr_len(out->addr.family) * 8;
	if (slash) {
		err = parse_u32(slash + 1, 0, len, &len);
		if (err)
			return err;
	}
	out->len = len;
	return has_host_bits(out) ? -EDOM : 0;
}

int parse_route_prefix(const char *s, struct inet_prefix *out)
{
	/* ip's "default" is IPv6 here; the IPv4 one is 0.0.0.0/0. */
	if (s && !strcmp(s, "default")) {
		memset(out, 0, sizeof(*out));
		out->addr.family = AF_INET6;
		return 0;
	}
	return parse_inet_prefix(s, out);
}

int parse_segs(const char *s, struct in6_addr *segs, size_t max, size_t *n)
{
	char one[INET6_ADDRSTRLEN];
	size_t count = 0;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		/* An empty element means ",," or a leading/trailing comma. */
		if (len == 0 || len >= sizeof(one))
			return -EINVAL;
		if (count == max)
			return -E2BIG;
		memcpy(one, s, len);
		one[len] = '\0';
		if (inet_pton(AF_INET6, one, &segs[count]) != 1)
			return -EINVAL;
		count++;
		if (!comma)
			break;
		s = comma + 1;
	}
	*n = count;
	return 0;
}

unsigned int in6_kind(const struct in6_addr *a, unsigned int refuse)
{
	unsigned int kind = 0;

	if (IN6_IS_ADDR_UNSPECIFIED(a))
		kind = IN6_KIND_ANY;
	else if (IN6_IS_ADDR_MULTICAST(a))
		kind = IN6_KIND_MULTICAST;
	else if (IN6_IS_ADDR_LOOPBACK(a))
		kind = IN6_KIND_LOOPBACK;
	else if (IN6_IS_ADDR_V4MAPPED(a))
		kind = IN6_KIND_MAPPED;
	return kind & refuse;
}

int in6_first_of_kind(const struct in6_addr *a, size_t n, unsigned int refuse)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (in6_kind(&a[i], refuse))
			return (int)i;
	return -1;
}

bool in4_unicast(const struct in_addr *a)
{
	uint32_t h = ntohl(a->s_addr);

	return (h >> 24) != 0 && (h >> 28) != 0xe && h != 0xffffffffu;
}

int parse_keyword(const char *s, const char *const *words, size_t n)
{
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (words[i] && !strcmp(s, words[i]))
			return (int)i;
	return -EINVAL;
}

int parse_hmac_algo(const char *s)
{
	return parse_keyword(s, hmac_algo_names, ARRAY_SIZE(hmac_algo_names));
}

const char *hmac_algo_name(unsigned int algo)
{
	return algo < ARRAY_SIZE(hmac_algo_names) ? hmac_algo_names[algo] : NULL;
}

int parse_mode(const char *s)
{
	return parse_keyword(s, mode_names, ARRAY_SIZE(mode_names));
}

const char *mode_name(unsigned int mode)
{
	return mode < ARRAY_SIZE(mode_names) ? mode_names[mode] : NULL;
}

int parse_table(const char *s, uint32_t *out)
{
	static const char *const names[] = {
		[RT_TABLE_DEFAULT]	= "default",
		[RT_TABLE_MAIN]		= "main",
		[RT_TABLE_LOCAL]	= "local",
	};
	int id = parse_keyword(s, names, ARRAY_SIZE(names));

	if (id >= 0) {
		*out = (uint32_t)id;
		return 0;
	}
	/* 0 is RT_TABLE_UNSPEC, which no route lives in. */
	return parse_u32(s, 1, UINT32_MAX, out);
}

int split_line(char *line, char **argv, int max)
{
	char *r = line;
	int argc = 0;

	for (;;) {
		bool quoted = false;
		char *w;

		while (isspace((unsigned char)*r))
			r++;
		if (!*r || *r == '#')
			return argc;
		if (argc == max)
			return -E2BIG;

		/* Copy the word onto itself, dropping the quotes. */
		argv[argc++] = w = r;
		while (*r && (quoted || !isspace((unsigned char)*r))) {
			if (*r == '"')
				quoted = !quoted;
			else
				*w++ = *r;
			r++;
		}
		if (quoted)
			return -EINVAL;
		if (*r)
			r++;
		*w = '\0';
	}
}

size_t trim_newline(const char *buf, size_t len)
{
	return len && buf[len - 1] == '\n' ? len - 1 : len;
}
