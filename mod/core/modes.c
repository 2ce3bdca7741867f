// SPDX-License-Identifier: GPL-2.0
/*
 * The modes' part in the life of an instance, registered by each mode's
 * init: core/instance.c calls through it and knows no mode. A file of its
 * own, below the lifecycle: the modes call it to register, and never
 * core/instance.c.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include "core/modes.h"
#include "tern_genl.h"

/* By enum tern_type; set by the modes' init, before any instance. */
static const struct tern_life_ops *tern_modes[TERN_TYPE_NAT64 + 1];

int tern_mode_register(u8 type, const struct tern_life_ops *ops)
{
	if (type >= ARRAY_SIZE(tern_modes) || tern_modes[type])
		return -EINVAL;
	tern_modes[type] = ops;
	return 0;
}

void tern_mode_unregister(u8 type)
{
	if (type < ARRAY_SIZE(tern_modes))
		tern_modes[type] = NULL;
}

const struct tern_life_ops *tern_mode_life(u8 type)
{
	return type < ARRAY_SIZE(tern_modes) ? tern_modes[type] : NULL;
}

void tern_modes_release(struct tern_instance *inst)
{
	int type;

	for (type = ARRAY_SIZE(tern_modes) - 1; type >= 0; type--)
		if (tern_modes[type])
			tern_modes[type]->release(inst);
}
