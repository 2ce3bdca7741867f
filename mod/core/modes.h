/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_MODES_H
#define _TERN_MODES_H

#include <linux/types.h>

struct netlink_ext_ack;
struct tern_instance;

/*
 * What a mode (siit/, nat64/) adds to the life of an instance, registered
 * by the mode's init for its enum tern_type: core/ calls through it and
 * knows no mode. (The packet path reaches a mode's decisions through
 * xlat/mode.h, not through this.) Process context.
 */
struct tern_life_ops {
	/* Optional: the state of a new instance of this mode (may sleep). */
	int (*create)(struct tern_instance *inst,
		      struct netlink_ext_ack *extack);
	/*
	 * Frees what this mode's files hang on an instance (its tables, its
	 * state), whatever the instance's type: an instance may hold a table
	 * of another mode (a NAT64 instance an EAMT). Called for every
	 * instance once packets can no longer reach it, also after a failed
	 * or skipped ->create(): only what is there is freed.
	 */
	void (*release)(struct tern_instance *inst);
};

int tern_mode_register(u8 type, const struct tern_life_ops *ops);
void tern_mode_unregister(u8 type);

/* The ops of mode @type; NULL if no mode registered it. */
const struct tern_life_ops *tern_mode_life(u8 type);
/*
 * Every mode frees its parts of @inst, the last type first: a stateful
 * mode's workers (NAT64) stop before any table goes.
 */
void tern_modes_release(struct tern_instance *inst);

#endif /* _TERN_MODES_H */
