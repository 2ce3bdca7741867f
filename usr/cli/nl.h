/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tern CLI: the generic netlink session with the tern kernel module.
 */
#ifndef TERN_CLI_NL_H
#define TERN_CLI_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netlink/msg.h>

#include "tern_genl.h"
#include "tern_names.h"

struct tern_nl;

/*
 * The netlink API this CLI speaks: TERN_GENL_API_VERSION, unless a build
 * for the tests says otherwise (-DTERN_GENL_API_VERSION_OVERRIDE=N, or
 * -DTERN_CLI_API_NEXT for the next one: a CLI of another API, to see that
 * a mismatch is refused).
 */
#ifdef TERN_GENL_API_VERSION_OVERRIDE
#define TERN_CLI_API_VERSION	TERN_GENL_API_VERSION_OVERRIDE
#elif defined(TERN_CLI_API_NEXT)
#define TERN_CLI_API_VERSION	(TERN_GENL_API_VERSION + 1)
#else
#define TERN_CLI_API_VERSION	TERN_GENL_API_VERSION
#endif

/* Set by tern --version: open a family of any API (to say which). */
extern bool tern_nl_any_api;

/*
 * Called once per reply message with its top-level attributes (indexed by
 * enum tern_attr, absent ones NULL). Returns TERN_EXIT_OK to go on, or an
 * exit status (after reporting the problem) to stop.
 */
typedef int (*tern_nl_reply_fn)(struct nlattr **tb, void *arg);

/*
 * Connect to the "tern" generic netlink family.
 * Returns TERN_EXIT_OK with *@nlp set, or an exit status after reporting
 * the problem (e.g. the module is not loaded, or speaks another API than
 * TERN_CLI_API_VERSION).
 */
int tern_nl_open(struct tern_nl **nlp);
void tern_nl_close(struct tern_nl *nl);

/*
 * Start a request of command @cmd: a dump (NLM_F_DUMP) if @dump, else a
 * "do" request that asks for an acknowledgement (NLM_F_ACK).
 * Returns NULL (after reporting) if out of memory.
 */
struct nl_msg *tern_nl_msg(struct tern_nl *nl, uint8_t cmd, bool dump);

/* Add TERN_A_INSTANCE unless @name is NULL. Returns 0 or -1. */
int tern_nl_put_instance(struct nl_msg *msg, const char *name);

/* Report that a request could not be built; returns the exit status. */
int tern_nl_build_error(void);

/*
 * Send @msg (which this frees) and process every reply until the
 * acknowledgement, the end of the dump, or an error. @fn (may be NULL)
 * sees each reply message.
 *
 * Returns TERN_EXIT_OK, or an exit status after reporting the error: the
 * kernel's extended ack message when it sent one, its errno otherwise.
 */
int tern_nl_run(struct tern_nl *nl, struct nl_msg *msg, tern_nl_reply_fn fn,
		void *arg);

/*
 * Names, in @buf, what a request has at offset @off from its netlink
 * header: the kernel points errors at an attribute (extended ack offset).
 */
typedef void (*tern_nl_where_fn)(unsigned long off, char *buf, size_t size,
				 void *arg);
void tern_nl_set_where(struct tern_nl *nl, tern_nl_where_fn fn, void *arg);

/*
 * Prepares @nl for one request of up to @bytes: the messages it allocates
 * from now on are that big, the socket's send buffer is raised to fit
 * (SO_SNDBUFFORCE, as CAP_NET_ADMIN allows; else SO_SNDBUF, which
 * net.core.wmem_max caps), and error acks do not echo the request.
 */
void tern_nl_big(struct tern_nl *nl, size_t bytes);

/* Adds a request's attributes to @msg; returns 0 or -1 (too long). */
typedef int (*tern_nl_put_fn)(struct nl_msg *msg, const void *arg);

/*
 * A whole exchange: open, send command @cmd for @instance (NULL: none) with
 * the attributes @put adds (may be NULL), read the replies with @fn (may be
 * NULL), close. Returns the exit status.
 */
int tern_nl_request(uint8_t cmd, bool dump, const char *instance,
		    tern_nl_put_fn put, const void *put_arg,
		    tern_nl_reply_fn fn, void *arg);

/*
 * A dump as tern_nl_request() makes one, of a table the kernel lists
 * whole unless it changes meanwhile (the static BIB entries): one it
 * flags as changed (NLM_F_DUMP_INTR) fails, "try again", never a warning.
 */
int tern_nl_dump_whole(uint8_t cmd, const char *instance, tern_nl_put_fn put,
		       const void *put_arg, tern_nl_reply_fn fn, void *arg);

/*
 * tern --version: the loaded module's version string into @buf (@size
 * bytes) and its API version. Returns TERN_EXIT_OK; 1 without a word if
 * the module is not loaded (*@loaded false); an exit status after
 * reporting another failure.
 */
int tern_nl_version(bool *loaded, char *buf, size_t size, uint32_t *api);

/*
 * Joins the multicast group @group of the family and hands every message
 * of command @cmd to @fn (which returns TERN_EXIT_OK to go on) until @fn
 * stops or SIGINT/SIGTERM come (TERN_EXIT_OK then). Messages lost because
 * the socket's buffer was full are reported (a warning), then @lost (may be
 * NULL; it returns TERN_EXIT_OK to go on) is called with @arg, and the
 * listening goes on. Returns the exit status. The signals come in while
 * @fn writes too: @fn writes between tern_nl_listen_write_begin() and
 * tern_nl_listen_write_end(), and a stop while it does ends the process
 * at once (exit status TERN_EXIT_OK): a write blocked on a reader that
 * stopped reading does not keep it.
 */
/* Has SIGINT or SIGTERM come (output failing with EINTR is no error)? */
bool tern_nl_listen_stopping(void);
/* Before a write of the listener's output: false (write nothing) if stopping. */
bool tern_nl_listen_write_begin(void);
void tern_nl_listen_write_end(void);
int tern_nl_listen(struct tern_nl *nl, const char *group, uint8_t cmd,
		   tern_nl_reply_fn fn, int (*lost)(void *arg), void *arg);

#endif /* TERN_CLI_NL_H */
