// SPDX-License-Identifier: GPL-2.0-only
/*
 * A QEMU TCG plugin for `make bench`: counts the guest instructions each
 * vCPU executes, into a file the host reads while the guest runs
 * (test/bench/hclock.py).
 *
 *   qemu-system-x86_64 ... -plugin insn-count.so,out=PATH
 *
 * PATH holds MAX_VCPUS counters of 8 bytes, one a 64-byte line (vCPU n's at
 * byte 64 * n), little-endian: the instructions of the translation blocks
 * vCPU n has started so far. Only vCPU n's thread writes its counter; a
 * reader sees whole values (aligned 8-byte stores).
 *
 * With prof=PROF besides, it also counts, per translation block, the
 * instructions vCPUs 0 and 1 executed in it, into the file PROF that
 * test/bench/hclock.py reads when the guest asks (BENCH_INSN_PROF=1,
 * test/bench/insn-prof.py): a header of 64 bytes (the records used, and
 * the blocks left out once they are all used), then records of 32 bytes,
 * { guest address, instructions in the block, vCPU 0's, vCPU 1's }, one
 * per block: a block translated again (QEMU flushes its cache of
 * translations when it is full, and on a make bench's 10M sessions that
 * happened often enough to use up the records) counts in the record of
 * the same address and length. Other code at that address (a module
 * loaded where another was, another process) shares the record: a
 * window's difference is of the code that ran in it, which insn-prof.py
 * names from that window's symbols.
 *
 * Why: the bench's host is itself a virtual machine whose speed changes
 * by up to 1.75x from one second to the next (a fixed loop in the guest:
 * 4.35 to 7.65 ns an iteration), which no measure of time removes; the
 * instructions a packet costs do not change with the host's speed.
 *
 * Built against QEMU 7.2's plugin interface (Debian 12), version 1; the
 * few declarations it needs are below (Debian ships no qemu-plugin.h).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define MAX_VCPUS 64
#define STRIDE (64 / sizeof(uint64_t))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*tb_exec_cb)(unsigned int vcpu, void *udata);
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  tb_exec_cb cb,
					  enum qemu_plugin_cb_flags flags,
					  void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);

EXPORT int qemu_plugin_version = 1;

static uint64_t *counters;

#define PROF_RECORDS (4u << 20)
struct prof_rec {
	uint64_t vaddr, n, insns[2];
};
static uint64_t *prof_head;	/* records used, blocks left out */
static struct prof_rec *prof;
/*
 * The record of each (address, length), open addressing: index + 1, 0 for
 * none. Translations run on every vCPU's thread: under prof_lock.
 */
#define PROF_SLOTS (2 * PROF_RECORDS)
static uint32_t *prof_slot;
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;

static void tb_exec(unsigned int vcpu, void *udata)
{
	uint64_t *c;

	if (vcpu >= MAX_VCPUS)
		return;
	c = &counters[vcpu * STRIDE];
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) +
			 (uintptr_t)udata, __ATOMIC_RELAXED);
}

static void tb_exec_prof(unsigned int vcpu, void *udata)
{
	struct prof_rec *r = udata;
	uint64_t *c;

	if (vcpu >= MAX_VCPUS)
		return;
	c = &counters[vcpu * STRIDE];
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + r->n,
			 __ATOMIC_RELAXED);
	if (vcpu < 2)
		__atomic_store_n(&r->insns[vcpu], __atomic_load_n(&r->insns[vcpu],
				 __ATOMIC_RELAXED) + r->n, __ATOMIC_RELAXED);
}

/* The record of the block at VADDR of N instructions; NULL if all used. */
static struct prof_rec *prof_find(uint64_t vaddr, uint64_t n)
{
	uint64_t h = (vaddr ^ n) * 0x9e3779b97f4a7c15ull;
	struct prof_rec *r = NULL;
	uint32_t k = h >> 40, i;

	pthread_mutex_lock(&prof_lock);
	for (;; k++) {
		k &= PROF_SLOTS - 1;
		i = prof_slot[k];
		if (!i)
			break;
		r = &prof[i - 1];
		if (r->vaddr == vaddr && r->n == n)
			goto out;
	}
	r = NULL;
	i = prof_head[0];
	if (i < PROF_RECORDS) {
		r = &prof[i];
		r->vaddr = vaddr;
		r->n = n;
		prof_slot[k] = i + 1;
		/* Read by hclock.py in another process: the record first. */
		__atomic_store_n(&prof_head[0], i + 1, __ATOMIC_RELEASE);
	}
out:
	pthread_mutex_unlock(&prof_lock);
	return r;
}

static void tb_trans(qemu_plugin_id_t id __attribute__((unused)),
		     struct qemu_plugin_tb *tb)
{
	struct prof_rec *r;

	if (prof) {
		r = prof_find(qemu_plugin_tb_vaddr(tb),
			      qemu_plugin_tb_n_insns(tb));
		if (r) {
			qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_prof,
							     QEMU_PLUGIN_CB_NO_REGS,
							     r);
			return;
		}
		__atomic_fetch_add(&prof_head[1], 1, __ATOMIC_RELAXED);
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec,
					     QEMU_PLUGIN_CB_NO_REGS,
					     (void *)qemu_plugin_tb_n_insns(tb));
}

/* A shared map of LEN bytes of the file PATH, made anew; NULL on error. */
static void *map_file(const char *path, size_t len)
{
	void *p;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, len)) {
		perror("insn-count: open");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		perror("insn-count: mmap");
		return NULL;
	}
	return p;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
			       const struct qemu_info_t *info __attribute__((unused)),
			       int argc,
			       char **argv)
{
	size_t len = MAX_VCPUS * STRIDE * sizeof(uint64_t);
	const char *out = NULL, *pout = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
		else if (!strncmp(argv[i], "prof=", 5))
			pout = argv[i] + 5;
	}
	if (!out) {
		fprintf(stderr, "insn-count: no out=PATH\n");
		return -1;
	}
	counters = map_file(out, len);
	if (!counters)
		return -1;
	if (pout) {
		prof_head = map_file(pout, 64 + PROF_RECORDS *
				     sizeof(struct prof_rec));
		if (!prof_head)
			return -1;
		prof = (struct prof_rec *)(prof_head + 8);
		prof_slot = calloc(PROF_SLOTS, sizeof(*prof_slot));
		if (!prof_slot) {
			perror("insn-count: calloc");
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
