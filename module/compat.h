/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference seg6x has to care about.
 *
 * Force-included by Kbuild into each object, so that no other file tests
 * kernel versions. Prefer probing for a feature (a header, a macro) to
 * comparing version numbers: distributions backport APIs without bumping
 * LINUX_VERSION_CODE. The SEG6X_HAVE_* macros come from header probes in
 * Kbuild.
 */
#ifndef _SEG6X_COMPAT_H
#define _SEG6X_COMPAT_H

/* Every log line names the module. */
#ifndef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#endif

#include <linux/version.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/ip6_route.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "seg6x supports Linux 6.1 and later"
#endif

/*
 * Input route lookup that sets skb_dst(). ip6_route_input() is exported
 * only from 7.x on; before that ipv6_stub reaches it (ipv6_stubs.h is gone
 * in 7.x).
 */
#ifdef SEG6X_HAVE_IPV6_STUBS
#include <net/ipv6_stubs.h>
static inline void seg6x_route_input(struct sk_buff *skb)
{
	ipv6_stub->ipv6_route_input(skb);
}
#else
static inline void seg6x_route_input(struct sk_buff *skb)
{
	ip6_route_input(skb);
}
#endif

/* crypto_memneq() moved from crypto/algapi.h to crypto/utils.h (6.x). */
#ifdef SEG6X_HAVE_CRYPTO_UTILS_H
#include <crypto/utils.h>
#else
#include <crypto/algapi.h>
#endif

/* asm/unaligned.h became linux/unaligned.h in 6.12. */
#ifdef SEG6X_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * HMAC-SHA256 from lib/crypto, with the key prepared once: the SHA-256
 * states after the key's inner and outer pad blocks (RFC 2104), so that a
 * packet's text of up to two segments costs two compressions (one per
 * hash: seg6x_hmac_sha256_block()), none of them re-keying. 6.17 and
 * later provide it (hmac_sha256_*); before, it is built here on the
 * exported sha256_update()/sha256_final().
 */
#include <crypto/sha2.h>
#ifdef SEG6X_HAVE_LIB_HMAC_SHA256
struct seg6x_hmac_sha256_key {
	struct hmac_sha256_key k;
};

struct seg6x_hmac_sha256_ctx {
	struct hmac_sha256_ctx c;
};

static inline void
seg6x_hmac_sha256_preparekey(struct seg6x_hmac_sha256_key *key,
			     const u8 *raw, unsigned int len)
{
	hmac_sha256_preparekey(&key->k, raw, len);
}

static inline void seg6x_hmac_sha256_init(struct seg6x_hmac_sha256_ctx *ctx,
					  const struct seg6x_hmac_sha256_key *key)
{
	hmac_sha256_init(&ctx->c, &key->k);
}

static inline void seg6x_hmac_sha256_update(struct seg6x_hmac_sha256_ctx *ctx,
					    const void *data, unsigned int len)
{
	hmac_sha256_update(&ctx->c, data, len);
}

static inline void seg6x_hmac_sha256_final(struct seg6x_hmac_sha256_ctx *ctx,
					   u8 out[SHA256_DIGEST_SIZE])
{
	hmac_sha256_final(&ctx->c, out);
}

/* As the other definition, below; the library pads its own blocks. */
static inline void seg6x_hmac_sha256_block(const struct seg6x_hmac_sha256_key *key,
					   u8 block[SHA256_BLOCK_SIZE],
					   unsigned int len,
					   u8 out[SHA256_DIGEST_SIZE])
{
	struct seg6x_hmac_sha256_ctx ctx;

	seg6x_hmac_sha256_init(&ctx, key);
	seg6x_hmac_sha256_update(&ctx, block, len);
	seg6x_hmac_sha256_final(&ctx, out);
}
#else
struct seg6x_hmac_sha256_key {
	struct sha256_state istate;	/* after (key ^ ipad) */
	struct sha256_state ostate;	/* after (key ^ opad) */
};

struct seg6x_hmac_sha256_ctx {
	struct sha256_state s;
	const struct seg6x_hmac_sha256_key *key;
};

static inline void
seg6x_hmac_sha256_preparekey(struct seg6x_hmac_sha256_key *key,
			     const u8 *raw, unsigned int len)
{
	u8 block[SHA256_BLOCK_SIZE] = {};
	unsigned int i;

	/* Keys longer than a block (hashed first) are refused by hmac.c. */
	memcpy(block, raw, min_t(unsigned int, len, SHA256_BLOCK_SIZE));
	for (i = 0; i < SHA256_BLOCK_SIZE; i++)
		block[i] ^= 0x36;
	sha256_init(&key->istate);
	sha256_update(&key->istate, block, SHA256_BLOCK_SIZE);
	for (i = 0; i < SHA256_BLOCK_SIZE; i++)
		block[i] ^= 0x36 ^ 0x5c;
	sha256_init(&key->ostate);
	sha256_update(&key->ostate, block, SHA256_BLOCK_SIZE);
	memzero_explicit(block, sizeof(block));
}

static inline void seg6x_hmac_sha256_init(struct seg6x_hmac_sha256_ctx *ctx,
					  const struct seg6x_hmac_sha256_key *key)
{
	ctx->s = key->istate;
	ctx->key = key;
}

static inline void seg6x_hmac_sha256_update(struct seg6x_hmac_sha256_ctx *ctx,
					    const void *data, unsigned int len)
{
	sha256_update(&ctx->s, data, len);
}

/* sha256_final() zeroes the state it is given. */
static inline void seg6x_hmac_sha256_final(struct seg6x_hmac_sha256_ctx *ctx,
					   u8 out[SHA256_DIGEST_SIZE])
{
	u8 inner[SHA256_DIGEST_SIZE];

	sha256_final(&ctx->s, inner);
	ctx->s = ctx->key->ostate;
	sha256_update(&ctx->s, inner, sizeof(inner));
	sha256_final(&ctx->s, out);
	memzero_explicit(inner, sizeof(inner));
}

/*
 * Hash the last block of @s, which has taken whole blocks only (a pad
 * block): @len bytes of text at the start of @block, then zeroes up to
 * the length field, are padded in place (FIPS 180-4 5.1.1) and the block
 * is compressed from there, as sha256_update() does with whole blocks;
 * the digest is read off the chaining value. sha256_final() would copy
 * the text to the state's buffer, pad it there and zero the state.
 */
static inline void seg6x_sha256_last(struct sha256_state *s,
				     u8 block[SHA256_BLOCK_SIZE],
				     unsigned int len,
				     u8 out[SHA256_DIGEST_SIZE])
{
	block[len] = 0x80;
	put_unaligned_be64((s->count + len) << 3,
			   block + SHA256_BLOCK_SIZE - 8);
	sha256_update(s, block, SHA256_BLOCK_SIZE);
	/* Eight stores, not a loop of eight: this runs twice a packet. */
	put_unaligned_be32(s->state[0], out);
	put_unaligned_be32(s->state[1], out + 4);
	put_unaligned_be32(s->state[2], out + 8);
	put_unaligned_be32(s->state[3], out + 12);
	put_unaligned_be32(s->state[4], out + 16);
	put_unaligned_be32(s->state[5], out + 20);
	put_unaligned_be32(s->state[6], out + 24);
	put_unaligned_be32(s->state[7], out + 28);
}

/*
 * HMAC-SHA256 of a text of at most SEG6X_HMAC_SHA256_BLOCK_MAX bytes at
 * the start of @block, zeroes after it (@block is overwritten): one
 * compression per hash. Only the pad states' chaining values and counts
 * are copied (the buffer of a state that has taken whole blocks is
 * unused). What is left on the stack, the inner digest, is a function of
 * the key as the HMAC itself is, not a key equivalent as the pad states
 * are: it is not zeroed. Nor is the state zeroed first (the kernel's
 * automatic stack initialisation would, 13 stores a packet): every field
 * sha256_update() reads of it is written here, and a state that has taken
 * whole blocks only never reads its buffer.
 */
static inline void seg6x_hmac_sha256_block(const struct seg6x_hmac_sha256_key *key,
					   u8 block[SHA256_BLOCK_SIZE],
					   unsigned int len,
					   u8 out[SHA256_DIGEST_SIZE])
{
	struct sha256_state s __uninitialized;

	memcpy(s.state, key->istate.state, sizeof(s.state));
	s.count = key->istate.count;
	seg6x_sha256_last(&s, block, len, block);
	memset(block + SHA256_DIGEST_SIZE + 1, 0,
	       SHA256_BLOCK_SIZE - 8 - SHA256_DIGEST_SIZE - 1);
	memcpy(s.state, key->ostate.state, sizeof(s.state));
	s.count = key->ostate.count;
	seg6x_sha256_last(&s, block, SHA256_DIGEST_SIZE, out);
}
#endif

/* seg6x_hmac_sha256_block()'s most text: a block less 0x80 and the length. */
#define SEG6X_HMAC_SHA256_BLOCK_MAX	(SHA256_BLOCK_SIZE - 1 - 8)

/* GSO helpers (skb_gso_validate_network_len) moved to net/gso.h in 6.4. */
#ifdef SEG6X_HAVE_NET_GSO_H
#include <net/gso.h>
#endif

/*
 * The first device of @net whose ifindex is >= *@ifindex (updated), under
 * RCU; NULL when there is none. Dumps resume by ifindex, which stays
 * right when devices come and go (a list position does not). 6.6 and
 * later index devices in an xarray (for_each_netdev_dump); before, probe
 * each ifindex up to the namespace's last allocated one.
 */
#ifdef for_each_netdev_dump
static inline struct net_device *seg6x_netdev_from(struct net *net,
						   unsigned long *ifindex)
{
	return xa_find(&net->dev_by_index, ifindex, ULONG_MAX, XA_PRESENT);
}
#else
static inline struct net_device *seg6x_netdev_from(struct net *net,
						   unsigned long *ifindex)
{
	struct net_device *dev;

	for (; *ifindex <= (unsigned long)READ_ONCE(net->ifindex); (*ifindex)++) {
		dev = dev_get_by_index_rcu(net, *ifindex);
		if (dev)
			return dev;
	}
	return NULL;
}
#endif

/*
 * br_netfilter runs the IPv6 PRE_ROUTING hooks on bridged frames with the
 * bridge as their device, and marks a frame for another host's MAC
 * PACKET_HOST while they run (pkt_otherhost remembers the truth). Without
 * br_netfilter in the kernel, no bridged frame reaches these hooks.
 */
#if IS_ENABLED(CONFIG_BRIDGE_NETFILTER)
#include <linux/netfilter_bridge.h>
static inline bool seg6x_skb_bridged_otherhost(const struct sk_buff *skb)
{
	const struct nf_bridge_info *nb = nf_bridge_info_get(skb);

	return nb && nb->pkt_otherhost;
}
#else
static inline bool seg6x_skb_bridged_otherhost(const struct sk_buff *skb)
{
	return false;
}
#endif

#endif /* _SEG6X_COMPAT_H */
