// SPDX-License-Identifier: GPL-2.0
/*
 * srh.c - Segment Routing Header parsing, validation and construction.
 */
#include <linux/ipv6.h>
#include <net/ipv6.h>

#include "srh.h"

/*
 * The first four bytes of the extension header at @off from the network
 * header: its Next Header, its length and, in a routing header, its type
 * (every extension header has at least eight). Read in place when they
 * are in the linear data, as they nearly always are; the copy out of
 * paged data is out of line, so that the walks below keep no buffer on
 * the stack (nor the stack protector one brings) for every packet.
 */
union seg6x_exthdr_head {
	struct {
		u8 nexthdr;
		u8 hdrlen;
		u8 type;
		u8 pad;
	};
	u32 word;
};

/* The copy: the four bytes as a value, or -1 if the packet is shorter. */
static noinline s64 seg6x_exthdr_copy(const struct sk_buff *skb, int off)
{
	u32 word;

	if (skb_copy_bits(skb, off, &word, sizeof(word)))
		return -1;
	return word;
}

static __always_inline bool seg6x_exthdr_peek(const struct sk_buff *skb,
					      unsigned int off,
					      union seg6x_exthdr_head *h)
{
	int at = skb_network_offset(skb) + off;
	s64 word;

	if (likely(at >= 0 && at + sizeof(*h) <= skb_headlen(skb))) {
		memcpy(&h->word, skb->data + at, sizeof(h->word));
		return true;
	}
	word = seg6x_exthdr_copy(skb, at);
	h->word = word;
	return word >= 0;
}

int seg6x_srh_find(const struct sk_buff *skb, unsigned int *srh_off,
		   unsigned int *nh_off, u8 *stop)
{
	unsigned int off = sizeof(struct ipv6hdr);
	unsigned int nhoff = offsetof(struct ipv6hdr, nexthdr);
	u8 nexthdr = ipv6_hdr(skb)->nexthdr;
	int i;

	for (i = 0; i < SEG6X_MAX_EXTHDRS; i++) {
		union seg6x_exthdr_head h;

		*stop = nexthdr;
		if (nexthdr == NEXTHDR_FRAGMENT)
			/* RFC 8200 4.1: a routing header comes first. One
			 * behind it is not one this node may act on.
			 */
			return -ENOENT;
		if (nexthdr != NEXTHDR_HOP && nexthdr != NEXTHDR_DEST &&
		    nexthdr != NEXTHDR_ROUTING)
			return -ENOENT;
		/* Hop-by-Hop is only valid right after the IPv6 header. */
		if (nexthdr == NEXTHDR_HOP && i > 0)
			return -EPROTO;

		if (!seg6x_exthdr_peek(skb, off, &h))
			return -EPROTO;
		if (nexthdr == NEXTHDR_ROUTING) {
			/* Only the first routing header counts (RFC 8200
			 * 4.4): an SRH behind another type is hidden.
			 */
			if (h.type != SEG6X_SRH_TYPE)
				return -EPROTO;
			*srh_off = off;
			*nh_off = nhoff;
			*stop = h.nexthdr;
			return 0;
		}
		nhoff = off;		/* Next Header is the first byte */
		nexthdr = h.nexthdr;
		off += (h.hdrlen + 1) << 3;
	}
	/* Too many option headers to look behind: unknown. */
	*stop = nexthdr;
	return nexthdr == NEXTHDR_ROUTING || nexthdr == NEXTHDR_HOP ||
	       nexthdr == NEXTHDR_DEST ? -EPROTO : -ENOENT;
}

bool seg6x_srh_fragmented(const struct sk_buff *skb)
{
	unsigned int off = sizeof(struct ipv6hdr);
	u8 nexthdr = ipv6_hdr(skb)->nexthdr;
	int i;

	for (i = 0; i < SEG6X_MAX_FRAG_WALK; i++) {
		union seg6x_exthdr_head h;

		if (nexthdr == NEXTHDR_FRAGMENT)
			return true;
		if (nexthdr != NEXTHDR_HOP && nexthdr != NEXTHDR_DEST &&
		    nexthdr != NEXTHDR_ROUTING && nexthdr != NEXTHDR_AUTH)
			return false;
		if (!seg6x_exthdr_peek(skb, off, &h))
			return false;
		/* AH counts 4-octet units, less two (RFC 4302 2.2). */
		off += nexthdr == NEXTHDR_AUTH ? (h.hdrlen + 2) << 2
					       : (h.hdrlen + 1) << 3;
		nexthdr = h.nexthdr;
	}
	return false;
}

/* TLVs after the segment list must tile the rest of the header exactly. */
static bool seg6x_srh_tlvs_ok(const struct ipv6_sr_hdr *srh)
{
	const u8 *p = (const u8 *)&srh->segments[srh->first_segment + 1];
	const u8 *end = (const u8 *)srh + seg6x_srh_len(srh);

	while (p < end) {
		if (*p == SEG6X_TLV_PAD1) {
			p++;
			continue;
		}
		if (end - p < 2 || end - p < 2 + p[1])
			return false;
		p += 2 + p[1];
	}
	return true;
}

enum seg6x_srh_verdict seg6x_srh_validate(const struct ipv6_sr_hdr *srh)
{
	/* Hdr Ext Len counts 8-octet units; each segment takes two. */
	if (srh->hdrlen < 2 * (srh->first_segment + 1)) {
		/* The list does not even fit: if SL points outside the
		 * header that is what RFC 8754 reports, else the length.
		 */
		if (srh->segments_left >= srh->hdrlen / 2)
			return SEG6X_SRH_BAD_SL;
		return SEG6X_SRH_BAD_LEN;
	}
	/* RFC 8754 4.3.1.1: SL = Last Entry + 1 is a reduced SRH, whose
	 * first segment is only in the destination address (H.Encaps.Red).
	 */
	if (srh->segments_left > srh->first_segment + 1)
		return SEG6X_SRH_BAD_SL;
	if (!seg6x_srh_tlvs_ok(srh))
		return SEG6X_SRH_BAD_LEN;
	return SEG6X_SRH_OK;
}

struct sr6_tlv_hmac *seg6x_srh_hmac_tlv(struct ipv6_sr_hdr *srh)
{
	struct sr6_tlv_hmac *tlv;

	if (!(srh->flags & SR6_FLAG1_HMAC))
		return NULL;
	if (srh->hdrlen < (srh->first_segment + 1) * 2 + 5)
		return NULL;
	tlv = (struct sr6_tlv_hmac *)((u8 *)srh + seg6x_srh_len(srh) -
				      SEG6X_HMAC_TLV_LEN);
	if (tlv->tlvhdr.type != SR6_TLV_HMAC ||
	    tlv->tlvhdr.len != SEG6X_HMAC_TLV_LEN - 2)
		return NULL;
	return tlv;
}

unsigned int seg6x_srh_build_size(unsigned int nsegs, bool inline_mode,
				  bool hmac)
{
	unsigned int n = nsegs + (inline_mode ? 1 : 0);

	return sizeof(struct ipv6_sr_hdr) + n * sizeof(struct in6_addr) +
	       (hmac ? SEG6X_HMAC_TLV_LEN : 0);
}

void seg6x_srh_build(struct ipv6_sr_hdr *srh, const struct in6_addr *segs,
		     unsigned int nsegs, bool inline_mode, bool hmac,
		     u32 keyid)
{
	unsigned int len = seg6x_srh_build_size(nsegs, inline_mode, hmac);
	unsigned int n = nsegs + (inline_mode ? 1 : 0);
	unsigned int i;

	memset(srh, 0, len);
	srh->hdrlen = (len >> 3) - 1;
	srh->type = SEG6X_SRH_TYPE;
	srh->first_segment = n - 1;
	srh->segments_left = n - 1;
	/* The list is stored last segment first (RFC 8754). */
	for (i = 0; i < nsegs; i++)
		srh->segments[n - 1 - i] = segs[i];

	if (hmac) {
		struct sr6_tlv_hmac *tlv;

		srh->flags |= SR6_FLAG1_HMAC;
		tlv = (struct sr6_tlv_hmac *)((u8 *)srh + len -
					      SEG6X_HMAC_TLV_LEN);
		tlv->tlvhdr.type = SR6_TLV_HMAC;
		tlv->tlvhdr.len = SEG6X_HMAC_TLV_LEN - 2;
		tlv->hmackeyid = cpu_to_be32(keyid);
	}
}
