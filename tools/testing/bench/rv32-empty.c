// SPDX-License-Identifier: GPL-2.0
/*
 * rv32-empty.c - the baseline of rv32-bench.sh: the RV32 samples' start.S
 * and nothing else, so that what running any program costs cancels.
 */
int main(void)
{
	return 0;
}
