// SPDX-License-Identifier: GPL-2.0
/*
 * libinsn.so: a qemu TCG plugin that counts the guest instructions
 * executed, for tests/bench (insn/packet per case, see README.md there).
 *
 *   qemu-system-x86_64 -smp 1 ... -plugin libinsn.so,out=FILE[,profile=on]
 *
 * Counting: each translation block adds its instruction count to one
 * counter when it runs, an inline add that qemu emits into the generated
 * code (no call out per block).
 *
 * Reading the count from inside the guest: the v1 API reads no guest
 * register and sees no I/O port, but it does see every instruction's
 * bytes at translation. A marker is the 7-byte NOP
 *	0f 1f 80 <id: 16 bits, little endian> 6b 5e	nopl 0x5e6bID(%rax)
 * which does nothing and which no compiler emits. The plugin calls back
 * on each marker it translates, and the callback appends
 *	mark ID TOTAL
 * to FILE, TOTAL being the count so far (with the whole block of the
 * marker already added). The guest runs a marker before and after each
 * workload; the host takes differences.
 *
 * profile=on also counts per block start address, and each mark first
 * writes, for every address whose blocks ran since the previous mark,
 *	prof ID PC INSNS
 * and zeroes those counts: per workload, the instructions of the blocks
 * starting at PC (the host maps PC to kernel symbols).
 *
 * With more than one vCPU the inline adds race (qemu makes them not
 * atomic) and the count is not exact: use -smp 1.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* per-address counts: fixed, never moved (the generated code points in) */
#define PROF_BITS 20
#define PROF_SLOTS (1u << PROF_BITS)

struct pc_count {
	uint64_t pc;
	uint64_t insns;
};

static uint64_t total;
static FILE *out;
static struct pc_count *prof;           /* NULL unless profile=on */
static struct pc_count prof_overflow;   /* when the table is full */
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot of `pc` (added if new); translations may run concurrently. */
static struct pc_count *prof_slot(uint64_t pc)
{
	uint64_t h = (pc * 0x9e3779b97f4a7c15ull) >> (64 - PROF_BITS);
	struct pc_count *s = &prof_overflow;
	uint32_t i;

	pthread_mutex_lock(&prof_lock);
	for (i = 0; i < PROF_SLOTS; i++) {
		struct pc_count *c = &prof[(h + i) & (PROF_SLOTS - 1)];

		if (c->pc == pc || c->pc == 0) {
			c->pc = pc;
			s = c;
			break;
		}
	}
	pthread_mutex_unlock(&prof_lock);
	return s;
}

static void prof_dump(unsigned int id)
{
	uint32_t i;

	for (i = 0; i < PROF_SLOTS; i++) {
		if (!prof[i].insns)
			continue;
		fprintf(out, "prof %u %" PRIx64 " %" PRIu64 "\n", id, prof[i].pc,
			prof[i].insns);
		prof[i].insns = 0;
	}
	if (prof_overflow.insns) {
		fprintf(out, "prof %u 0 %" PRIu64 "\n", id, prof_overflow.insns);
		prof_overflow.insns = 0;
	}
}

static void on_mark(unsigned int vcpu, void *udata)
{
	unsigned int id = (unsigned int)(uintptr_t)udata;

	(void)vcpu;
	if (prof)
		prof_dump(id);
	fprintf(out, "mark %u %" PRIu64 "\n", id, total);
	fflush(out);
}

/* The marker's id, or -1 if `insn` is no marker. */
static int marker_id(const struct qemu_plugin_insn *insn)
{
	static const uint8_t head[3] = { 0x0f, 0x1f, 0x80 };
	const uint8_t *b = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != 7 || memcmp(b, head, 3) ||
	    b[5] != 0x6b || b[6] != 0x5e)
		return -1;
	return b[3] | b[4] << 8;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &total, n);
	if (prof)
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64,
			&prof_slot(qemu_plugin_tb_vaddr(tb))->insns, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		int mark = marker_id(insn);

		if (mark >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)mark);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fprintf(out, "exit %" PRIu64 "\n", total);
	fclose(out);
}

static int parse_args(int argc, char **argv, const char **path, int *profile)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			*path = argv[i] + 4;
		} else if (!strcmp(argv[i], "profile=on")) {
			*profile = 1;
		} else if (strcmp(argv[i], "profile=off")) {
			fprintf(stderr, "libinsn: unknown argument %s "
				"(out=FILE, profile=on|off)\n", argv[i]);
			return -1;
		}
	}
	if (!*path) {
		fprintf(stderr, "libinsn: out=FILE is required\n");
		return -1;
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	int profile = 0;

	if (parse_args(argc, argv, &path, &profile))
		return -1;
	if (info->system_emulation && info->system.smp_vcpus > 1)
		qemu_plugin_outs("libinsn: more than one vCPU: counts are "
				 "approximate (inline adds race); use -smp 1\n");
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	if (profile) {
		prof = calloc(PROF_SLOTS, sizeof(*prof));
		if (!prof) {
			fclose(out);
			return -1;
		}
	}
	fprintf(out, "# libinsn: mark ID TOTAL, prof ID PC INSNS, exit TOTAL\n");
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
