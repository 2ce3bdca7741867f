/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_HOOK_H
#define _TERN_HOOK_H

struct tern_instance;

int tern_hook_register(struct tern_instance *inst);
void tern_hook_unregister(struct tern_instance *inst);

#endif /* _TERN_HOOK_H */
