// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_default_image.c - the built-in microcode image.
 *
 * ucode/default.vus is assembled when the module is built, by the host
 * program vpmu_mkimage (asm/, Makefile); the generated table lands in
 * vpmu_default_image_data.h in the build directory (not kept in git).
 */
#include "vpmu_default_image.h"
#include "vpmu_default_image_data.h"
