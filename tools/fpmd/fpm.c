// SPDX-License-Identifier: GPL-2.0
/* FPM framing: see fpm.h. Nothing here reads past what it was given. */
#include <errno.h>
#include <string.h>
#include <linux/netlink.h>

#include "fpm.h"

void fpm_reader_init(struct fpm_reader *r)
{
	r->start = 0;
	r->end = 0;
}

/* Moves the unread bytes to the front: a frame always fits then. */
static void compact(struct fpm_reader *r)
{
	if (!r->start)
		return;
	memmove(r->buf, r->buf + r->start, r->end - r->start);
	r->end -= r->start;
	r->start = 0;
}

uint8_t *fpm_reader_space(struct fpm_reader *r, size_t *room)
{
	if (r->end == sizeof(r->buf))
		compact(r);
	*room = sizeof(r->buf) - r->end;
	return r->buf + r->end;
}

void fpm_reader_commit(struct fpm_reader *r, size_t n)
{
	if (n > sizeof(r->buf) - r->end)
		n = sizeof(r->buf) - r->end;
	r->end += n;
}

size_t fpm_reader_feed(struct fpm_reader *r, const void *data, size_t len)
{
	size_t room;
	uint8_t *p = fpm_reader_space(r, &room);

	if (len > room)
		len = room;
	memcpy(p, data, len);
	fpm_reader_commit(r, len);
	return len;
}

size_t fpm_reader_pending(const struct fpm_reader *r)
{
	return r->end - r->start;
}

int fpm_check_msgs(const uint8_t *msgs, size_t len)
{
	size_t off = 0, step;

	while (off < len) {
		struct nlmsghdr h;

		if (len - off < sizeof(h))
			return -EBADMSG;
		memcpy(&h, msgs + off, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len - off)
			return -EBADMSG;
		/* Padding to the next message, if any, must be there. */
		step = NLMSG_ALIGN((size_t)h.nlmsg_len);
		off += step < len - off ? step : len - off;
	}
	return 0;
}

int fpm_reader_next(struct fpm_reader *r, const uint8_t **msgs, size_t *len)
{
	const uint8_t *h = r->buf + r->start;
	size_t avail = r->end - r->start;
	size_t flen;

	if (avail < FPM_HDR_LEN) {
		compact(r);	/* room for a whole frame behind it */
		return 0;
	}
	flen = (size_t)h[2] << 8 | h[3];
	if (h[0] != FPM_PROTO_VERSION || h[1] != FPM_MSG_TYPE_NETLINK ||
	    flen < FPM_HDR_LEN)
		return -EBADMSG;
	if (avail < flen) {
		compact(r);
		return 0;
	}
	if (fpm_check_msgs(h + FPM_HDR_LEN, flen - FPM_HDR_LEN))
		return -EBADMSG;
	r->start += flen;
	if (r->start == r->end)
		r->start = r->end = 0;
	*msgs = h + FPM_HDR_LEN;
	*len = flen - FPM_HDR_LEN;
	return 1;
}
