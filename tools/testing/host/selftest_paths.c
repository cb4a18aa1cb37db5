// SPDX-License-Identifier: GPL-2.0
/*
 * selftest_paths.c - where the selftests' library (vpmu_lib.c) looks for vpmu
 * (built and run by test_selftest_paths.sh): prints
 *
 *   share SHARE/REL      vt_share("build/sum.vprg")
 *   ko PATH              vt_ko(), "" if none
 *   flags N              vt_ko_flags() of that path
 *   tool NAME 0|1        vt_have_tool(NAME) for each argument
 */
#include "vpmu_lib.h"

int main(int argc, char **argv)
{
	char buf[4096];
	int i;

	printf("share %s\n", vt_share(buf, sizeof(buf), "build/sum.vprg"));
	printf("ko %s\n", vt_ko());
	printf("flags %d\n", vt_ko_flags(vt_ko()));
	for (i = 1; i < argc; i++)
		printf("tool %s %d\n", argv[i], vt_have_tool(argv[i]));
	return 0;
}
