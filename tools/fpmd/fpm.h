/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FPM framing, as zebra's dplane_fpm_nl module writes it on its TCP
 * connection: a 4-byte header (version 1, message type 1 = netlink,
 * 16-bit length in network order, the header included) followed by one
 * or more rtnetlink messages. The reader takes bytes as they come (a
 * frame may arrive in pieces) and hands out whole frames whose netlink
 * messages have been checked to tile the frame exactly.
 */
#ifndef SEG6X_FPM_H
#define SEG6X_FPM_H

#include <stddef.h>
#include <stdint.h>

#define FPM_HDR_LEN		4
#define FPM_PROTO_VERSION	1
#define FPM_MSG_TYPE_NETLINK	1
#define FPM_MAX_FRAME		65535	/* the length field is 16 bits */
#define FPM_DEFAULT_PORT	2620

struct fpm_reader {
	size_t start;			/* first byte not handed out */
	size_t end;			/* one past the last byte received */
	uint8_t buf[FPM_MAX_FRAME];
};

void fpm_reader_init(struct fpm_reader *r);
/* Where the next bytes may be written, and how many fit (> 0). */
uint8_t *fpm_reader_space(struct fpm_reader *r, size_t *room);
/* @n bytes were written at fpm_reader_space(). */
void fpm_reader_commit(struct fpm_reader *r, size_t n);
/* Copies up to @len bytes of @data in; returns how many it took. */
size_t fpm_reader_feed(struct fpm_reader *r, const void *data, size_t len);
/*
 * The next whole frame: 1 with its netlink payload in *@msgs (*@len
 * bytes, 0 for an empty frame; valid until the reader is called again),
 * 0 if more bytes are needed, or
 * -EBADMSG if the stream is broken (wrong version or type, a length
 * below the header, netlink messages that do not tile the payload):
 * the connection cannot go on.
 */
int fpm_reader_next(struct fpm_reader *r, const uint8_t **msgs, size_t *len);
/* Bytes received that do not make a whole frame yet. */
size_t fpm_reader_pending(const struct fpm_reader *r);

/*
 * Checks that @len bytes are a sequence of netlink messages, each at
 * least a header long and within @len, the next one starting at the
 * aligned end of the previous: 0 or -EBADMSG.
 */
int fpm_check_msgs(const uint8_t *msgs, size_t len);

#endif /* SEG6X_FPM_H */
