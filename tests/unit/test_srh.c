// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the module's pure SRH code, module/srh.c, built in user
 * space against the few kernel definitions in kshim/: validation
 * verdicts (RFC 8754 §4.3.1.1, §2.1 TLVs), the HMAC TLV lookup, the SRH
 * template of encap and inline routes, and the walk to the SRH.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <net/ipv6.h>	/* kshim/: NEXTHDR_* */

#include "srh.h"

#define TLV_PADN	4

/* A buffer big enough for any SRH these tests build, 8-byte aligned. */
union srh_buf {
	struct ipv6_sr_hdr srh;
	uint8_t bytes[2048];
	uint64_t align;
};

/* fc00::N */
static struct in6_addr seg(uint8_t n)
{
	struct in6_addr a = { .s6_addr = { 0xfc, 0x00, [15] = n } };

	return a;
}

/*
 * An SRH of @nsegs segments (Last Entry @nsegs - 1) with Segments Left
 * @sl, then @tlv_len bytes of @tlv; Hdr Ext Len as they add up.
 */
static struct ipv6_sr_hdr *make_srh(union srh_buf *b, unsigned int nsegs,
				    unsigned int sl, const uint8_t *tlv,
				    size_t tlv_len)
{
	size_t len = sizeof(b->srh) + nsegs * 16 + tlv_len;
	unsigned int i;

	assert_true(len % 8 == 0 && len <= sizeof(b->bytes));
	memset(b, 0, sizeof(*b));
	b->srh.hdrlen = (uint8_t)(len / 8 - 1);
	b->srh.type = SEG6X_SRH_TYPE;
	b->srh.first_segment = (uint8_t)(nsegs - 1);
	b->srh.segments_left = (uint8_t)sl;
	for (i = 0; i < nsegs; i++)
		b->srh.segments[i] = seg((uint8_t)(i + 1));
	memcpy(b->bytes + sizeof(b->srh) + nsegs * 16, tlv, tlv_len);
	return &b->srh;
}

static void test_validate_segments_left(void **state)
{
	union srh_buf b;

	(void)state;
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 3, 0, NULL, 0)), SEG6X_SRH_OK);
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 3, 2, NULL, 0)), SEG6X_SRH_OK);
	/* SL = Last Entry + 1: a reduced SRH, its first segment only in DA. */
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 3, 3, NULL, 0)), SEG6X_SRH_OK);
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 3, 4, NULL, 0)),
			 SEG6X_SRH_BAD_SL);
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 1, 255, NULL, 0)),
			 SEG6X_SRH_BAD_SL);
}

static void test_validate_hdrlen(void **state)
{
	union srh_buf b;

	(void)state;
	/* Last Entry 2 says three segments; Hdr Ext Len holds two. */
	make_srh(&b, 3, 0, NULL, 0);
	b.srh.hdrlen = 4;
	assert_int_equal(seg6x_srh_validate(&b.srh), SEG6X_SRH_BAD_LEN);
	/* ... and SL pointing past what the header holds is reported as SL. */
	b.srh.segments_left = 2;
	assert_int_equal(seg6x_srh_validate(&b.srh), SEG6X_SRH_BAD_SL);
	/* No room for a single segment. */
	make_srh(&b, 1, 0, NULL, 0);
	b.srh.hdrlen = 1;
	assert_int_equal(seg6x_srh_validate(&b.srh), SEG6X_SRH_BAD_SL);
}

static void test_validate_tlvs(void **state)
{
	static const uint8_t pad1s[8] = { 0 };
	static const uint8_t padn[8] = { TLV_PADN, 6 };
	static const uint8_t pad1_padn[8] = { 0, 0, 0, 0, 0, 0, TLV_PADN, 0 };
	static const uint8_t pad1_then_byte[8] = { 0, 0, 0, 0, 0, 0, 0, 7 };
	static const uint8_t overrun[8] = { 7, 7 };
	static const uint8_t two[16] = { 7, 2, 1, 2, 0, 0, TLV_PADN, 6 };
	union srh_buf b;

	(void)state;
	/* PAD1 and PADN tile the rest of the header exactly. */
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 2, 1, pad1s, 8)), SEG6X_SRH_OK);
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 2, 1, padn, 8)), SEG6X_SRH_OK);
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 2, 1, pad1_padn, 8)),
			 SEG6X_SRH_OK);
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 2, 1, two, 16)), SEG6X_SRH_OK);
	/* A TLV whose header or value runs past the end. */
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 2, 1, pad1_then_byte, 8)),
			 SEG6X_SRH_BAD_LEN);
	assert_int_equal(seg6x_srh_validate(make_srh(&b, 2, 1, overrun, 8)),
			 SEG6X_SRH_BAD_LEN);
}

/* The HMAC TLV of RFC 8754 §2.1.2: type 5, length 38, key id, 32 bytes. */
static void put_hmac_tlv(uint8_t tlv[40], uint32_t keyid)
{
	memset(tlv, 0, 40);
	tlv[0] = SR6_TLV_HMAC;
	tlv[1] = 38;
	tlv[4] = (uint8_t)(keyid >> 24);
	tlv[5] = (uint8_t)(keyid >> 16);
	tlv[6] = (uint8_t)(keyid >> 8);
	tlv[7] = (uint8_t)keyid;
}

static void test_hmac_tlv(void **state)
{
	uint8_t tlv[48];
	union srh_buf b;
	struct ipv6_sr_hdr *srh;

	(void)state;
	put_hmac_tlv(tlv, 7);
	srh = make_srh(&b, 2, 1, tlv, 40);
	/* Without the H flag there is none to look at. */
	assert_null(seg6x_srh_hmac_tlv(srh));
	srh->flags |= SR6_FLAG1_HMAC;
	assert_ptr_equal(seg6x_srh_hmac_tlv(srh), b.bytes + sizeof(*srh) + 32);
	assert_int_equal(seg6x_srh_hmac_tlv(srh)->hmackeyid, htobe32(7));
	assert_int_equal(seg6x_srh_validate(srh), SEG6X_SRH_OK);

	/* It is the last 40 bytes of the header, as the in-tree seg6 reads. */
	memmove(tlv + 8, tlv, 40);
	memset(tlv, 0, 8);
	srh = make_srh(&b, 2, 1, tlv, 48);
	srh->flags |= SR6_FLAG1_HMAC;
	assert_ptr_equal(seg6x_srh_hmac_tlv(srh), b.bytes + sizeof(*srh) + 40);

	/* Another type or length there, or no room for it: none. */
	put_hmac_tlv(tlv, 7);
	tlv[0] = 6;
	srh = make_srh(&b, 2, 1, tlv, 40);
	srh->flags |= SR6_FLAG1_HMAC;
	assert_null(seg6x_srh_hmac_tlv(srh));
	put_hmac_tlv(tlv, 7);
	tlv[1] = 30;
	srh = make_srh(&b, 2, 1, tlv, 40);
	srh->flags |= SR6_FLAG1_HMAC;
	assert_null(seg6x_srh_hmac_tlv(srh));
	srh = make_srh(&b, 2, 1, tlv, 32);
	srh->flags |= SR6_FLAG1_HMAC;
	assert_null(seg6x_srh_hmac_tlv(srh));
}

/* The bytes of an SRH, written out by hand as RFC 8754 §2 lays them. */
static size_t hand_built(uint8_t *p, const uint8_t *segs, unsigned int nsegs,
			 bool inline_mode, bool hmac, uint32_t keyid)
{
	unsigned int n = nsegs + inline_mode, i;
	size_t len = 8 + 16 * n + (hmac ? 40 : 0);

	memset(p, 0, len);
	p[0] = 0;				/* Next Header: set later */
	p[1] = (uint8_t)(len / 8 - 1);		/* Hdr Ext Len */
	p[2] = 4;				/* Routing Type */
	p[3] = (uint8_t)(n - 1);		/* Segments Left */
	p[4] = (uint8_t)(n - 1);		/* Last Entry */
	p[5] = hmac ? 0x08 : 0;			/* Flags: H */
	/* Segment List[0] is the last segment; inline leaves it for DA. */
	for (i = 0; i < nsegs; i++) {
		p[8 + 16 * (n - 1 - i)] = 0xfc;
		p[8 + 16 * (n - 1 - i) + 15] = segs[i];
	}
	if (hmac)
		put_hmac_tlv(p + 8 + 16 * n, keyid);
	return len;
}

static void check_build(unsigned int nsegs, bool inline_mode, bool hmac)
{
	static const uint8_t ids[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct in6_addr segs[8];
	union srh_buf got, want;
	unsigned int size, i;
	size_t len;

	for (i = 0; i < nsegs; i++)
		segs[i] = seg(ids[i]);
	len = hand_built(want.bytes, ids, nsegs, inline_mode, hmac, 0xdeadbeef);
	size = seg6x_srh_build_size(nsegs, inline_mode, hmac);
	assert_int_equal(size, len);
	memset(got.bytes, 0xaa, sizeof(got.bytes));
	seg6x_srh_build(&got.srh, segs, nsegs, inline_mode, hmac, 0xdeadbeef);
	assert_memory_equal(got.bytes, want.bytes, len);
	/* Nothing past the header is written. */
	assert_int_equal(got.bytes[len], 0xaa);
	/* What is built passes validation, and its HMAC TLV is found. */
	assert_int_equal(seg6x_srh_validate(&got.srh), SEG6X_SRH_OK);
	if (hmac)
		assert_ptr_equal(seg6x_srh_hmac_tlv(&got.srh), got.bytes + len - 40);
	else
		assert_null(seg6x_srh_hmac_tlv(&got.srh));
}

static void test_build(void **state)
{
	(void)state;
	check_build(1, false, false);
	check_build(3, false, false);
	check_build(3, false, true);
	check_build(1, true, false);
	check_build(2, true, false);
	check_build(2, true, true);
	check_build(8, true, true);
}

/* make_skb()'s linear part: 0 (all), or less to go through paged data. */
static unsigned int linear;

/* An IPv6 header, then @ext (extension headers), in @pkt. */
static struct sk_buff make_skb(uint8_t *pkt, uint8_t nexthdr,
			       const uint8_t *ext, size_t ext_len)
{
	struct sk_buff skb = { .data = pkt, .len = (unsigned int)(40 + ext_len),
			       .headlen = linear };

	memset(pkt, 0, 40);
	pkt[0] = 0x60;
	pkt[6] = nexthdr;
	memcpy(pkt + 40, ext, ext_len);
	return skb;
}

static void test_find(void **state)
{
	/* Hop-by-Hop (8 bytes), Destination Options (16), then the SRH. */
	static const uint8_t hbh_dst_srh[] = {
		NEXTHDR_DEST, 0, 1, 4, 0, 0, 0, 0,
		NEXTHDR_ROUTING, 1, 1, 12, [23] = 0,
		59, 2, 4, 0, 0, 0, 0, 0, [47] = 0,
	};
	static const uint8_t srh_type3[] = { 59, 2, 3, 0, [23] = 0 };
	static const uint8_t dst_hbh[] = { NEXTHDR_HOP, 0, 1, 4, [15] = 0 };
	/* A Fragment header (8 bytes), then an SRH. */
	static const uint8_t frag_srh[] = {
		NEXTHDR_ROUTING, 0, 0, 0, 0, 0, 0, 1,
		59, 2, 4, 0, [31] = 0,
	};
	uint8_t many[SEG6X_MAX_EXTHDRS * 8 + 24];
	uint8_t pkt[256];
	int i;
	unsigned int srh_off, nh_off;
	struct sk_buff skb;
	uint8_t stop;

	(void)state;
	skb = make_skb(pkt, NEXTHDR_HOP, hbh_dst_srh, sizeof(hbh_dst_srh));
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), 0);
	assert_int_equal(srh_off, 40 + 8 + 16);
	assert_int_equal(nh_off, 40 + 8);
	assert_int_equal(stop, 59);	/* the SRH's own Next Header */
	assert_ptr_equal(seg6x_srh_at(&skb, srh_off), pkt + 64);

	/* Right behind the IPv6 header: Next Header is its byte 6. */
	skb = make_skb(pkt, NEXTHDR_ROUTING, hbh_dst_srh + 24, 24);
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), 0);
	assert_int_equal(srh_off, 40);
	assert_int_equal(nh_off, 6);

	/* Absent: no routing header at all, or one behind a Fragment
	 * header (RFC 8200 4.1: not one this node acts on).
	 */
	skb = make_skb(pkt, 59, NULL, 0);
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), -ENOENT);
	assert_int_equal(stop, 59);
	skb = make_skb(pkt, NEXTHDR_FRAGMENT, frag_srh, sizeof(frag_srh));
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), -ENOENT);
	assert_int_equal(stop, NEXTHDR_FRAGMENT);

	/* Hidden: behind another routing header type, cut short, behind a
	 * misplaced Hop-by-Hop, or behind more option headers than walked.
	 */
	skb = make_skb(pkt, NEXTHDR_ROUTING, srh_type3, sizeof(srh_type3));
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), -EPROTO);
	assert_int_equal(stop, NEXTHDR_ROUTING);
	skb = make_skb(pkt, NEXTHDR_HOP, hbh_dst_srh, 8 + 16 + 2);
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), -EPROTO);
	skb = make_skb(pkt, NEXTHDR_DEST, dst_hbh, sizeof(dst_hbh));
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), -EPROTO);
	for (i = 0; i < SEG6X_MAX_EXTHDRS; i++) {
		many[i * 8] = i + 1 < SEG6X_MAX_EXTHDRS ? NEXTHDR_DEST
							: NEXTHDR_ROUTING;
		many[i * 8 + 1] = 0;
	}
	memcpy(many + SEG6X_MAX_EXTHDRS * 8, hbh_dst_srh + 24, 24);
	skb = make_skb(pkt, NEXTHDR_DEST, many, sizeof(many));
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), -EPROTO);
	/* One option header fewer: found. */
	skb = make_skb(pkt, NEXTHDR_DEST, many + 8, sizeof(many) - 8);
	assert_int_equal(seg6x_srh_find(&skb, &srh_off, &nh_off, &stop), 0);
	assert_int_equal(srh_off, 40 + (SEG6X_MAX_EXTHDRS - 1) * 8);
}

static void test_fragmented(void **state)
{
	/* Hop-by-Hop, SRH, Fragment: found behind the routing header. */
	static const uint8_t hbh_srh_frag[] = {
		NEXTHDR_ROUTING, 0, 1, 4, 0, 0, 0, 0,
		NEXTHDR_FRAGMENT, 2, 4, 0, [31] = 0,
		59, 0, 0, 0, 0, 0, 0, 1,
	};
	/* AH (12 bytes: Payload Len 1), then a Fragment header. */
	static const uint8_t ah_frag[] = {
		NEXTHDR_FRAGMENT, 1, 0, 0, [11] = 0,
		59, 0, 0, 1, 0, 0, 0, 1,
	};
	uint8_t many[SEG6X_MAX_FRAG_WALK * 8 + 8];
	uint8_t pkt[256];
	struct sk_buff skb;
	int i;

	(void)state;
	skb = make_skb(pkt, NEXTHDR_HOP, hbh_srh_frag, sizeof(hbh_srh_frag));
	assert_true(seg6x_srh_fragmented(&skb));
	skb = make_skb(pkt, NEXTHDR_AUTH, ah_frag, sizeof(ah_frag));
	assert_true(seg6x_srh_fragmented(&skb));
	/* No Fragment header, or a chain cut short before it is named. */
	skb = make_skb(pkt, NEXTHDR_HOP, hbh_srh_frag, 4);
	assert_false(seg6x_srh_fragmented(&skb));
	skb = make_skb(pkt, 59, NULL, 0);
	assert_false(seg6x_srh_fragmented(&skb));
	/* Behind as many option headers as are walked: not looked at. */
	for (i = 0; i < SEG6X_MAX_FRAG_WALK; i++) {
		many[i * 8] = i + 1 < SEG6X_MAX_FRAG_WALK ? NEXTHDR_DEST
							  : NEXTHDR_FRAGMENT;
		many[i * 8 + 1] = 0;
	}
	skb = make_skb(pkt, NEXTHDR_DEST, many, sizeof(many));
	assert_false(seg6x_srh_fragmented(&skb));
	skb = make_skb(pkt, NEXTHDR_DEST, many + 8, sizeof(many) - 8);
	assert_true(seg6x_srh_fragmented(&skb));
}

/* A few bits of xorshift32: the same chains on every run. */
static uint32_t rnd_state = 2463534242u;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/*
 * The input hook walks to a Fragment header only when
 * seg6x_srh_frag_beyond() says one can be there: over random chains of
 * the headers either walk knows, every chain seg6x_srh_fragmented() calls
 * fragmented must have a @stop that says so (no packet skips reassembly).
 */
static void test_frag_beyond(void **state)
{
	static const uint8_t kinds[] = {
		NEXTHDR_HOP, NEXTHDR_DEST, NEXTHDR_ROUTING, NEXTHDR_ROUTING,
		NEXTHDR_AUTH, NEXTHDR_FRAGMENT, 59, 6,
	};
	unsigned int srh_off, nh_off, n, k, off, hits = 0;
	uint8_t ext[512], pkt[600], first, stop, next;
	struct sk_buff skb;
	int round, err;

	(void)state;
	for (round = 0; round < 20000; round++) {
		n = rnd() % 20;
		off = 0;
		first = kinds[rnd() % sizeof(kinds)];
		next = first;
		memset(ext, 0, sizeof(ext));
		for (k = 0; k < n && next != 59 && next != 6; k++) {
			uint8_t kind = next, len = rnd() % 3;

			next = kinds[rnd() % sizeof(kinds)];
			ext[off] = next;
			ext[off + 1] = kind == NEXTHDR_FRAGMENT ? 0 : len;
			if (kind == NEXTHDR_ROUTING)
				ext[off + 2] = rnd() % 4 ? SEG6X_SRH_TYPE : 3;
			off += kind == NEXTHDR_AUTH ? (ext[off + 1] + 2) * 4
			       : (ext[off + 1] + 1) * 8;
		}
		skb = make_skb(pkt, first, ext, off);
		if (rnd() % 4 == 0)	/* sometimes cut short */
			skb.len = 40 + rnd() % (off + 1);
		err = seg6x_srh_find(&skb, &srh_off, &nh_off, &stop);
		assert_true(err == 0 || err == -ENOENT || err == -EPROTO);
		if (seg6x_srh_fragmented(&skb)) {
			assert_true(seg6x_srh_frag_beyond(stop));
			hits++;
		}
	}
	assert_true(hits > 1000);	/* the property was exercised */
}

/*
 * The same walks when only the IPv6 header is linear (the extension
 * headers in paged data), and when the linear part ends inside one.
 */
static void run_paged(void (*test)(void **), void **state)
{
	linear = 40;
	test(state);
	linear = 42;
	test(state);
	linear = 0;
}

static void test_find_paged(void **state)
{
	run_paged(test_find, state);
}

static void test_fragmented_paged(void **state)
{
	run_paged(test_fragmented, state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validate_segments_left),
		cmocka_unit_test(test_validate_hdrlen),
		cmocka_unit_test(test_validate_tlvs),
		cmocka_unit_test(test_hmac_tlv),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_fragmented),
		cmocka_unit_test(test_frag_beyond),
		cmocka_unit_test(test_find_paged),
		cmocka_unit_test(test_fragmented_paged),
	};

	return cmocka_run_group_tests_name("module srh", tests, NULL, NULL);
}
