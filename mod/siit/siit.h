/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_SIIT_H
#define _TERN_SIIT_H

/*
 * Module init/exit of the SIIT mode: its part in the life of an instance
 * (core/instance.h). Its packet ops are in xlat/mode.h.
 */
int tern_siit_init(void);
void tern_siit_exit(void);

#endif /* _TERN_SIIT_H */
