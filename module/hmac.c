// SPDX-License-Identifier: GPL-2.0
/*
 * hmac.c - HMAC keyring and computation.
 *
 * Keys are prepared once, when they are set: the HMAC inner and outer
 * pads are hashed there, so packets never re-key (the original seg6
 * re-keyed per packet, which dominated its HMAC cost). HMAC-SHA256 keys
 * are SHA-256 states for lib/crypto (compat.h), used directly: the
 * crypto API's indirections cost as much as a compression on texts this
 * short. HMAC-SHA1 keys own a keyed crypto_shash transform. Either is
 * read-only once set and may be used by many CPUs at once; per-packet
 * state lives on the stack. The secret itself is not kept, only the
 * derived states, which are zeroed when the key is freed.
 *
 * Keys are published in an xarray and looked up under RCU. Replacing or
 * deleting a key frees the old transform after a grace period, from a
 * workqueue (freeing a transform may sleep), so packets in flight never
 * see a torn or freed key and the writer never blocks the genl mutex on
 * synchronize_rcu(). Keys are charged to the caller's memory cgroup and
 * limited per namespace.
 */
#include <crypto/hash.h>
#include <linux/slab.h>

#include "hmac.h"

struct seg6x_hmac_key {
	u32 keyid;
	u8 algo;
	struct crypto_shash *tfm;	/* SHA-1 */
	struct seg6x_hmac_sha256_key sha256;
	struct rcu_work free_work;
};

static const char *const seg6x_hmac_algo_name[] = {
	[SEG6X_HMAC_ALGO_SHA1] = "hmac(sha1)",
	[SEG6X_HMAC_ALGO_SHA256] = "hmac(sha256)",
};

static void seg6x_hmac_key_free(struct seg6x_hmac_key *key)
{
	if (!key)
		return;
	crypto_free_shash(key->tfm);
	kfree_sensitive(key);
}

static void seg6x_hmac_key_free_work(struct work_struct *work)
{
	seg6x_hmac_key_free(container_of(to_rcu_work(work),
					 struct seg6x_hmac_key, free_work));
}

/* Old keys are freed here, so that module unload can wait for them. */
static struct workqueue_struct *seg6x_hmac_wq;

/* Free @key once every reader that may have found it is done. */
static void seg6x_hmac_key_free_rcu(struct seg6x_hmac_key *key)
{
	INIT_RCU_WORK(&key->free_work, seg6x_hmac_key_free_work);
	queue_rcu_work(seg6x_hmac_wq, &key->free_work);
}

/* Genl mutex held (the only writer). */
static unsigned int seg6x_hmac_count(struct seg6x_net *sn)
{
	struct seg6x_hmac_key *key;
	unsigned long idx;
	unsigned int n = 0;

	xa_for_each(&sn->hmac_keys, idx, key)
		n++;
	return n;
}

/* A keyed transform for the crypto API's HMAC (SHA-1). */
static int seg6x_hmac_tfm_new(struct seg6x_hmac_key *key, const u8 *secret,
			      unsigned int len)
{
	struct crypto_shash *tfm;
	int err;

	tfm = crypto_alloc_shash(seg6x_hmac_algo_name[key->algo], 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	err = crypto_shash_digestsize(tfm) > SEG6X_HMAC_FIELD_LEN ? -EINVAL :
	      crypto_shash_setkey(tfm, secret, len);
	if (err) {
		crypto_free_shash(tfm);
		return err;
	}
	key->tfm = tfm;
	return 0;
}

int seg6x_hmac_set(struct seg6x_net *sn, u32 keyid, u8 algo,
		   const u8 *secret, unsigned int len)
{
	struct seg6x_hmac_key *key, *old;
	int err;

	if (algo < SEG6X_HMAC_ALGO_SHA1 || algo > SEG6X_HMAC_ALGO_MAX)
		return -EINVAL;

	if (!xa_load(&sn->hmac_keys, keyid) &&
	    seg6x_hmac_count(sn) >= SEG6X_HMAC_KEYS_MAX)
		return -ENOSPC;

	key = kzalloc(sizeof(*key), GFP_KERNEL_ACCOUNT);
	if (!key)
		return -ENOMEM;
	key->keyid = keyid;
	key->algo = algo;

	/* A secret fits one hash block: never hashed first (RFC 2104 2). */
	BUILD_BUG_ON(SEG6X_HMAC_SECRET_MAX > SHA256_BLOCK_SIZE);
	if (algo == SEG6X_HMAC_ALGO_SHA256) {
		seg6x_hmac_sha256_preparekey(&key->sha256, secret, len);
	} else {
		err = seg6x_hmac_tfm_new(key, secret, len);
		if (err)
			goto err_free;
	}

	old = xa_store(&sn->hmac_keys, keyid, key, GFP_KERNEL_ACCOUNT);
	if (xa_is_err(old)) {
		err = xa_err(old);
		goto err_free;
	}
	rcu_assign_pointer(sn->hmac_recent, key);
	if (old)
		seg6x_hmac_key_free_rcu(old);
	return 0;

err_free:
	seg6x_hmac_key_free(key);
	return err;
}

int seg6x_hmac_del(struct seg6x_net *sn, u32 keyid)
{
	struct seg6x_hmac_key *old;

	old = xa_erase(&sn->hmac_keys, keyid);
	if (!old)
		return -ENOENT;
	if (rcu_access_pointer(sn->hmac_recent) == old)
		RCU_INIT_POINTER(sn->hmac_recent, NULL);
	seg6x_hmac_key_free_rcu(old);
	return 0;
}

static int __net_init seg6x_hmac_net_init(struct net *net)
{
	xa_init(&seg6x_pernet(net)->hmac_keys);
	return 0;
}

/* After the hooks' pre_exit and a grace period: no packet reads a key. */
static void __net_exit seg6x_hmac_net_exit(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	struct seg6x_hmac_key *key;
	unsigned long idx;

	xa_for_each(&sn->hmac_keys, idx, key)
		seg6x_hmac_key_free(key);
	xa_destroy(&sn->hmac_keys);
}

static struct pernet_operations seg6x_hmac_net_ops = {
	.init = seg6x_hmac_net_init,
	.exit = seg6x_hmac_net_exit,
};

int seg6x_hmac_register(void)
{
	int err;

	seg6x_hmac_wq = alloc_workqueue("seg6x_hmac", WQ_UNBOUND, 0);
	if (!seg6x_hmac_wq)
		return -ENOMEM;
	err = register_pernet_subsys(&seg6x_hmac_net_ops);
	if (err)
		destroy_workqueue(seg6x_hmac_wq);
	return err;
}

/* Every namespace's keys are freed first: no new frees can be queued. */
void seg6x_hmac_unregister(void)
{
	unregister_pernet_subsys(&seg6x_hmac_net_ops);
	rcu_barrier();		/* queue_rcu_work()'s callbacks have run */
	destroy_workqueue(seg6x_hmac_wq);	/* and drained */
}

bool seg6x_hmac_next(struct seg6x_net *sn, unsigned long *pos, u32 *keyid,
		     u8 *algo)
{
	struct seg6x_hmac_key *key;

	key = xa_find(&sn->hmac_keys, pos, ULONG_MAX, XA_PRESENT);
	if (!key)
		return false;
	*keyid = key->keyid;
	*algo = key->algo;
	return true;
}

bool seg6x_hmac_exists(struct seg6x_net *sn, u32 keyid)
{
	return !!xa_load(&sn->hmac_keys, keyid);
}

/*
 * HMAC text, as the in-tree seg6 builds it (RFC 8754 2.1.2.1): source
 * address, Last Entry, the flags byte, the key id (big endian), then the
 * segment list in wire order, hashed where it is: no per-packet buffer.
 */
struct seg6x_hmac_head {
	struct in6_addr saddr;
	u8 last_entry;
	u8 flags;
	__be32 keyid;
} __packed;

static int seg6x_hmac_shash(struct crypto_shash *tfm,
			    const struct seg6x_hmac_head *head,
			    const void *segs, unsigned int len,
			    u8 out[SEG6X_HMAC_FIELD_LEN])
{
	SHASH_DESC_ON_STACK(desc, tfm);
	int err;

	memset(out, 0, SEG6X_HMAC_FIELD_LEN);	/* SHA-1 fills 20 bytes */
	desc->tfm = tfm;
	err = crypto_shash_init(desc) ?:
	      crypto_shash_update(desc, (const u8 *)head, sizeof(*head)) ?:
	      crypto_shash_update(desc, segs, len) ?:
	      crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return err;
}

/*
 * A text longer than a block less its padding: through the update/final
 * steps. Apart, so that the state's automatic zeroing on the stack is paid
 * only on this path.
 */
static noinline void
seg6x_hmac_sha256_long(const struct seg6x_hmac_sha256_key *key,
		       const struct seg6x_hmac_head *head,
		       const void *segs, unsigned int len,
		       u8 out[SEG6X_HMAC_FIELD_LEN])
{
	struct seg6x_hmac_sha256_ctx ctx;

	seg6x_hmac_sha256_init(&ctx, key);
	seg6x_hmac_sha256_update(&ctx, head, sizeof(*head));
	seg6x_hmac_sha256_update(&ctx, segs, len);
	seg6x_hmac_sha256_final(&ctx, out);
}

static void seg6x_hmac_sha256(const struct seg6x_hmac_sha256_key *key,
			      const struct seg6x_hmac_head *head,
			      const void *segs, unsigned int len,
			      u8 out[SEG6X_HMAC_FIELD_LEN])
{
	const unsigned int seg = sizeof(struct in6_addr);

	BUILD_BUG_ON(SHA256_DIGEST_SIZE != SEG6X_HMAC_FIELD_LEN);
	/* Two segments fit the block with the head and the padding; three
	 * do not (the copies below count on it).
	 */
	BUILD_BUG_ON(sizeof(*head) + 2 * seg > SEG6X_HMAC_SHA256_BLOCK_MAX ||
		     sizeof(*head) + 3 * seg <= SEG6X_HMAC_SHA256_BLOCK_MAX);
	/* An SRH of one or two segments: its text is copied to the block
	 * in constant-size pieces the compiler inlines (no loop, no bounds
	 * check per segment).
	 */
	if (sizeof(*head) + len <= SEG6X_HMAC_SHA256_BLOCK_MAX) {
		u8 block[SHA256_BLOCK_SIZE] = {};

		memcpy(block, head, sizeof(*head));
		memcpy(block + sizeof(*head), segs, seg);
		if (len > seg)
			memcpy(block + sizeof(*head) + seg, segs + seg, seg);
		seg6x_hmac_sha256_block(key, block, sizeof(*head) + len, out);
		return;
	}
	seg6x_hmac_sha256_long(key, head, segs, len, out);
}

/*
 * Under RCU. Most namespaces sign and verify with one key: the one set
 * last is tried before the xarray, which costs a walk to a node for any
 * key id but 0. Only the writer (genl mutex) moves hmac_recent, so
 * packets never write the shared line; a deleted key leaves it before
 * its grace period starts.
 */
static struct seg6x_hmac_key *seg6x_hmac_find(struct seg6x_net *sn, u32 keyid)
{
	struct seg6x_hmac_key *key = rcu_dereference(sn->hmac_recent);

	if (likely(key && key->keyid == keyid))
		return key;
	return xa_load(&sn->hmac_keys, keyid);
}

int seg6x_hmac_compute(struct seg6x_net *sn, u32 keyid,
		       const struct in6_addr *saddr,
		       const struct ipv6_sr_hdr *srh,
		       u8 out[SEG6X_HMAC_FIELD_LEN])
{
	unsigned int len = (srh->first_segment + 1) * sizeof(struct in6_addr);
	struct seg6x_hmac_head head = {
		.saddr = *saddr,
		.last_entry = srh->first_segment,
		.flags = srh->flags,
		.keyid = cpu_to_be32(keyid),
	};
	struct seg6x_hmac_key *key;
	int err = 0;

	key = seg6x_hmac_find(sn, keyid);
	if (!key)
		err = -ENOKEY;
	else if (key->algo == SEG6X_HMAC_ALGO_SHA256)
		seg6x_hmac_sha256(&key->sha256, &head, srh->segments, len, out);
	else
		err = seg6x_hmac_shash(key->tfm, &head, srh->segments, len, out);
	if (err)
		memset(out, 0, SEG6X_HMAC_FIELD_LEN);
	return err;
}
