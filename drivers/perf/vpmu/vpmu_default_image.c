// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_default_image.c - the built-in microcode image.
 *
 * ucode/default.vus is assembled by tools/vpmu/vpmu-as when the module is
 * built through the top-level Makefile; the generated table lands in
 * vpmu_default_image_data.h (not kept in git).
 */
#include "vpmu_default_image.h"
#include "vpmu_default_image_data.h"
