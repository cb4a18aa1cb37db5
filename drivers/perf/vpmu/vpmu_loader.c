// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_loader.c - the PMU device's ucode/ sysfs group: the image loader.
 *
 * ucode/image takes a microcode image in any number of contiguous writes
 * from offset 0.  The image header's total_size says when it is complete;
 * only then is it validated, completely, and installed or rejected as a
 * whole.  The running image is never touched by a partial or bad one.
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-vpmu is the
 * contract for every file here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/sysfs.h>
#include <asm/byteorder.h>

#include "vpmu.h"
#include "vpmu_compat.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"

static const char *const vpmu_load_status_name[] = {
	[VPMU_LOAD_OK]		= "ok",
	[VPMU_LOAD_REJECTED]	= "rejected",
	[VPMU_LOAD_INCOMPLETE]	= "incomplete",
};

/*
 * The validator's errnos by name, from its own table: in the order of enum
 * vpmu_verr_code, which the same list generates.
 */
struct vpmu_verr_name {
	const char *errname;
	const char *what;
};

#define VPMU_X(name, err, msg) \
	[VPMU_VERR_##name] = { #err, msg },
static const struct vpmu_verr_name vpmu_verr_names[] = {
	VPMU_VERR_LIST(VPMU_X)
};

#undef VPMU_X
static_assert(ARRAY_SIZE(vpmu_verr_names) == VPMU_VERR_NR);

/* Drop any partial image. */
static void vpmu_stage_reset(struct vpmu_loader *ld)
{
	kvfree(ld->buf);
	ld->buf = NULL;
	ld->len = 0;
	ld->total = 0;
}

static void vpmu_stage_ok(struct vpmu_loader *ld)
{
	vpmu_stage_reset(ld);
	ld->status = VPMU_LOAD_OK;
	ld->error[0] = '\0';
}

__printf(4, 5)
static int vpmu_stage_reject(struct vpmu_loader *ld, int err,
			     const char *errname, const char *fmt, ...)
{
	va_list ap;
	int n;

	vpmu_stage_reset(ld);
	ld->status = VPMU_LOAD_REJECTED;
	n = scnprintf(ld->error, sizeof(ld->error), "%s (%d): ", errname, -err);
	va_start(ap, fmt);
	vscnprintf(ld->error + n, sizeof(ld->error) - n, fmt, ap);
	va_end(ap);
	return err;
}

static int vpmu_stage_verr(struct vpmu_loader *ld, int err,
			   const struct vpmu_verr *verr)
{
	const struct vpmu_verr_name *vn;

	if (verr->err != err || verr->code >= ARRAY_SIZE(vpmu_verr_names))
		return vpmu_stage_reject(ld, err, "error", "%s", verr->msg);
	vn = &vpmu_verr_names[verr->code];
	return vpmu_stage_reject(ld, err, vn->errname, "%s: %s", vn->what,
				 verr->msg);
}

/*
 * Install a validated image (the callee owns @uc), its events/ aliases
 * first, or say why not: a failure changes nothing.
 */
static int vpmu_stage_install(struct vpmu *vpmu, struct vpmu_ucode *uc)
{
	struct vpmu_loader *ld = &vpmu->loader;
	int ret;

	ret = vpmu->pmu_ops->image_prepare(vpmu, uc);
	if (ret) {
		vpmu_ucode_free(uc);
		return vpmu_stage_reject(ld, ret, ret == -ENOMEM ? "ENOMEM" : "error",
					 "cannot make the image's events/ aliases");
	}
	ret = vpmu_cstore_install(&vpmu->machine, uc);
	/* Either way: the aliases of the image in force, no more. */
	vpmu->pmu_ops->image_changed(vpmu);
	if (ret)
		return vpmu_stage_reject(ld, ret, "ENOMEM",
					 "no memory to install the image");
	vpmu_stage_ok(ld);
	return 0;
}

/* Validate the complete image, then install it or say why not. */
static int vpmu_stage_commit(struct vpmu *vpmu)
{
	struct vpmu_loader *ld = &vpmu->loader;
	struct vpmu_ucode *uc;
	struct vpmu_verr verr;
	int ret;

	ret = vpmu_machine_ucode_load(&vpmu->machine, &uc, ld->buf, ld->len,
				      &verr);
	if (ret)
		return vpmu_stage_verr(ld, ret, &verr);
	return vpmu_stage_install(vpmu, uc);
}

/*
 * The header's total_size, once it has arrived, decides how much is
 * staged; it is only checked for sanity here (the validator checks it
 * against everything else).
 */
static int vpmu_stage_size(struct vpmu_loader *ld)
{
	__le32 raw;
	u32 total;

	memcpy(&raw, ld->head + offsetof(struct vpmu_image_header, total_size),
	       sizeof(raw));
	total = le32_to_cpu(raw);
	if (total < sizeof(struct vpmu_image_header))
		return vpmu_stage_reject(ld, -EINVAL, "EINVAL",
					 "total_size %u smaller than the header (%zu bytes)",
					 total,
					 sizeof(struct vpmu_image_header));
	if (total > VPMU_IMAGE_MAX)
		return vpmu_stage_reject(ld, -EFBIG, "EFBIG",
					 "total_size %u larger than the largest image (%lu bytes)",
					 total, VPMU_IMAGE_MAX);
	ld->buf = kvmalloc(total, GFP_KERNEL_ACCOUNT);
	if (!ld->buf)
		return vpmu_stage_reject(ld, -ENOMEM, "ENOMEM",
					 "no memory for a %u-byte image", total);
	memcpy(ld->buf, ld->head, ld->len);
	ld->total = total;
	return 0;
}

static int vpmu_stage_append(struct vpmu *vpmu, const char *data,
			     size_t count)
{
	struct vpmu_loader *ld = &vpmu->loader;
	size_t n;
	int ret;

	if (!ld->total) {
		n = min(count, VPMU_LOADER_HEAD_LEN - ld->len);
		memcpy(ld->head + ld->len, data, n);
		ld->len += n;
		if (ld->len < VPMU_LOADER_HEAD_LEN)
			return 0;
		ret = vpmu_stage_size(ld);
		if (ret)
			return ret;
		data += n;
		count -= n;
	}
	if (count > ld->total - ld->len)
		return vpmu_stage_reject(ld, -EMSGSIZE, "EMSGSIZE",
					 "%zu bytes written, total_size is %u",
					 ld->len + count, ld->total);
	memcpy(ld->buf + ld->len, data, count);
	ld->len += count;
	if (ld->len == ld->total)
		return vpmu_stage_commit(vpmu);
	return 0;
}

/*
 * A write at offset 0 starts a new image, discarding any partial one; any
 * other write must continue the partial image exactly where it ends.
 */
static ssize_t image_write(struct file *file, struct kobject *kobj,
			   VPMU_BIN_CONST struct bin_attribute *attr,
			   char *data, loff_t off, size_t count)
{
	struct vpmu *vpmu = kobj_to_vpmu(kobj);
	struct vpmu_loader *ld = &vpmu->loader;
	int ret;

	/* The mode says root only; this says it again for a chmod'ed file. */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!count)
		return 0;

	mutex_lock(&ld->lock);
	if (off == 0) {
		vpmu_stage_reset(ld);
		ld->status = VPMU_LOAD_INCOMPLETE;
		ld->error[0] = '\0';
	} else if (ld->status != VPMU_LOAD_INCOMPLETE || off != ld->len) {
		ret = -EINVAL;
		goto out_unlock;
	}
	ret = vpmu_stage_append(vpmu, data, count);
out_unlock:
	mutex_unlock(&ld->lock);
	return ret ? ret : count;
}

/*
 * The exact bytes of the current image.  Each read() takes the image that
 * is current then: a reader racing with a load can see pieces of both, and
 * should compare ucode/generation before and after.
 */
static ssize_t image_read(struct file *file, struct kobject *kobj,
			  VPMU_BIN_CONST struct bin_attribute *attr,
			  char *buf, loff_t off, size_t count)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(&kobj_to_vpmu(kobj)->machine);
	const u8 *bytes;
	size_t len;

	bytes = vpmu_ucode_bytes(cs->uc, &len);
	if (off >= len)
		count = 0;
	else
		count = min_t(size_t, count, len - off);
	memcpy(buf, bytes + off, count);
	vpmu_cstore_put(cs);
	return count;
}

/* BIN_ATTR_ADMIN_RW(image, 0), with the members vpmu_compat.h names. */
static struct bin_attribute bin_attr_image = {
	.attr = { .name = "image", .mode = 0600 },
	.VPMU_BIN_READ = image_read,
	.VPMU_BIN_WRITE = image_write,
};

static ssize_t load_default_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct vpmu *vpmu = dev_to_vpmu(dev);
	struct vpmu_loader *ld = &vpmu->loader;
	struct vpmu_ucode *uc;
	struct vpmu_verr verr;
	unsigned int val;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtouint(buf, 0, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;

	/* A load of its own: it ends any partial image, like offset 0. */
	mutex_lock(&ld->lock);
	ret = vpmu_machine_builtin_load(&vpmu->machine, &uc, &verr);
	if (ret) {
		ret = vpmu_stage_verr(ld, ret, &verr);
		goto out_unlock;
	}
	ret = vpmu_stage_install(vpmu, uc);
out_unlock:
	mutex_unlock(&ld->lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(load_default);

static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(&dev_to_vpmu(dev)->machine);
	const struct vpmu_image_header *h = vpmu_ucode_header(cs->uc);
	ssize_t ret;

	ret = sysfs_emit(buf, "%.*s\n", (int)sizeof(h->name), h->name);
	vpmu_cstore_put(cs);
	return ret;
}
static DEVICE_ATTR_RO(name);

static ssize_t version_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(&dev_to_vpmu(dev)->machine);
	ssize_t ret;

	ret = sysfs_emit(buf, "%u\n",
			 vpmu_ucode_header(cs->uc)->image_version);
	vpmu_cstore_put(cs);
	return ret;
}
static DEVICE_ATTR_RO(version);

static ssize_t generation_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(&dev_to_vpmu(dev)->machine);
	ssize_t ret;

	ret = sysfs_emit(buf, "%llu\n", cs->generation);
	vpmu_cstore_put(cs);
	return ret;
}
static DEVICE_ATTR_RO(generation);

static ssize_t status_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct vpmu_loader *ld = &dev_to_vpmu(dev)->loader;
	ssize_t ret;

	mutex_lock(&ld->lock);
	ret = sysfs_emit(buf, "%s\n", vpmu_load_status_name[ld->status]);
	mutex_unlock(&ld->lock);
	return ret;
}
static DEVICE_ATTR_RO(status);

static ssize_t error_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vpmu_loader *ld = &dev_to_vpmu(dev)->loader;
	ssize_t ret = 0;

	mutex_lock(&ld->lock);
	if (ld->error[0])
		ret = sysfs_emit(buf, "%s\n", ld->error);
	mutex_unlock(&ld->lock);
	return ret;
}
static DEVICE_ATTR_RO(error);

static struct attribute *vpmu_ucode_attrs[] = {
	&dev_attr_load_default.attr,
	&dev_attr_name.attr,
	&dev_attr_version.attr,
	&dev_attr_generation.attr,
	&dev_attr_status.attr,
	&dev_attr_error.attr,
	NULL,
};

static VPMU_BIN_CONST struct bin_attribute *vpmu_ucode_bin_attrs[] = {
	&bin_attr_image,
	NULL,
};

const struct attribute_group vpmu_ucode_group = {
	.name		= "ucode",
	.attrs		= vpmu_ucode_attrs,
	.VPMU_GROUP_BIN_ATTRS = vpmu_ucode_bin_attrs,
};

void vpmu_loader_init(struct vpmu *vpmu)
{
	mutex_init(&vpmu->loader.lock);
	vpmu->loader.status = VPMU_LOAD_OK;
}

/* After the sysfs files are gone: free a partial image left behind. */
void vpmu_loader_exit(struct vpmu *vpmu)
{
	struct vpmu_loader *ld = &vpmu->loader;

	mutex_lock(&ld->lock);
	vpmu_stage_reset(ld);
	ld->status = VPMU_LOAD_OK;
	ld->error[0] = '\0';
	mutex_unlock(&ld->lock);
}
