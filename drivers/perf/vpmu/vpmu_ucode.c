// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_ucode.c - the built-in microcode image.
 *
 * ucode/default.vus is assembled by tools/vpmu/vpmu-as when the module is
 * built through the top-level Makefile; the generated table lands in
 * vpmu_default_ucode.h (not kept in git).
 */
#include "vpmu_ucode.h"
#include "vpmu_default_ucode.h"
