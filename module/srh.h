/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srh.h - Segment Routing Header helpers: find, validate, build.
 * Pure packet-format code: nothing here knows about netfilter or netlink.
 */
#ifndef _SEG6X_SRH_H
#define _SEG6X_SRH_H

#include <linux/in6.h>
#include <linux/seg6.h>
#include <linux/seg6_hmac.h>
#include <linux/skbuff.h>
#include <net/ipv6.h>

#define SEG6X_SRH_TYPE		4	/* IPV6_SRCRT_TYPE_4 */
#define SEG6X_HMAC_TLV_LEN	sizeof(struct sr6_tlv_hmac)	/* 40 */
#define SEG6X_TLV_PAD1		0	/* RFC 8754: a single byte, no length */
/* The cleanup flag of the 2016 Linux SRv6 series (draft SRH; RFC 8754
 * later dropped it).
 */
#define SEG6X_SRH_FLAG_CLEANUP	0x80

/* Extension headers seg6x walks past, before or after the SRH. */
#define SEG6X_MAX_EXTHDRS	8

static inline unsigned int seg6x_srh_len(const struct ipv6_sr_hdr *srh)
{
	return (srh->hdrlen + 1) << 3;
}

/* The SRH at @srh_off from the network header (linear data). */
static inline struct ipv6_sr_hdr *seg6x_srh_at(struct sk_buff *skb,
					       unsigned int srh_off)
{
	return (struct ipv6_sr_hdr *)(skb_network_header(skb) + srh_off);
}

/*
 * Locate a type-4 routing header behind the IPv6 header and any
 * Hop-by-Hop / Destination Options headers. On success returns 0 with
 * *srh_off = offset of the SRH from the network header and *nh_off = offset
 * of the Next Header byte that names it. -ENOENT if the header chain
 * reaches a Fragment or upper-layer header without a routing header;
 * -EPROTO if it cannot tell: the first routing header is of another type
 * (RFC 8200 allows one), Hop-by-Hop is out of place, the chain is
 * truncated or longer than seg6x walks. A policy that requires an HMAC
 * must not mistake the last case for "no SRH" (RFC 8754 5).
 * Always sets *stop to the Next Header value the walk ended on: on success
 * the SRH's own Next Header (see seg6x_srh_frag_beyond()).
 */
int seg6x_srh_find(const struct sk_buff *skb, unsigned int *srh_off,
		   unsigned int *nh_off, u8 *stop);

/*
 * Does the header chain reach a Fragment header, behind Hop-by-Hop,
 * Destination Options, Routing and AH headers as nf_defrag_ipv6 looks for
 * it (at most SEG6X_MAX_FRAG_WALK of them)?
 */
#define SEG6X_MAX_FRAG_WALK	16
bool seg6x_srh_fragmented(const struct sk_buff *skb);

/*
 * Can seg6x_srh_fragmented() find a Fragment header, given where
 * seg6x_srh_find() stopped (@stop)? Up to there find() went only through
 * headers the fragment walk also steps over; a Fragment header can be
 * further only if @stop is one of those (or AH), or is itself one. Most SR
 * packets carry their payload right behind the SRH and skip the walk.
 */
static inline bool seg6x_srh_frag_beyond(u8 stop)
{
	switch (stop) {
	case NEXTHDR_HOP:
	case NEXTHDR_DEST:
	case NEXTHDR_ROUTING:
	case NEXTHDR_AUTH:
	case NEXTHDR_FRAGMENT:
		return true;
	default:
		return false;
	}
}

/* Result of seg6x_srh_validate(). */
enum seg6x_srh_verdict {
	SEG6X_SRH_OK,
	SEG6X_SRH_BAD_SL,	/* Segments Left beyond the list */
	SEG6X_SRH_BAD_LEN,	/* Hdr Ext Len inconsistent with LE / TLVs */
};

/* @srh must be entirely readable (seg6x_srh_len() bytes). */
enum seg6x_srh_verdict seg6x_srh_validate(const struct ipv6_sr_hdr *srh);

/* The HMAC TLV, located exactly as the in-tree seg6 does; or NULL. */
struct sr6_tlv_hmac *seg6x_srh_hmac_tlv(struct ipv6_sr_hdr *srh);

/*
 * Build an SRH for @nsegs route segments @segs (path order). @inline_mode
 * reserves Segment List[0] for the packet's original destination. With
 * @hmac a zeroed HMAC TLV for @keyid is appended and the H flag set.
 * seg6x_srh_build_size() tells how many bytes seg6x_srh_build() writes.
 */
unsigned int seg6x_srh_build_size(unsigned int nsegs, bool inline_mode,
				  bool hmac);
void seg6x_srh_build(struct ipv6_sr_hdr *srh, const struct in6_addr *segs,
		     unsigned int nsegs, bool inline_mode, bool hmac,
		     u32 keyid);

#endif /* _SEG6X_SRH_H */
