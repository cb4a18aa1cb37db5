// SPDX-License-Identifier: GPL-2.0
/*
 * interp.c - a small interpreter: a stack machine with a switch per
 * bytecode.  main() assembles a bytecode program (labels patched) that
 * counts and sums the primes below 500 by trial division, and runs it.
 */
#include "rv.h"

enum { PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, LT, JZ, JMP, PRINT, HALT };

static int code[128];
static int ncode;

static int emit(int op)
{
	code[ncode] = op;
	return ncode++;
}

static int emit2(int op, int arg)
{
	emit(op);
	return emit(arg);	/* the argument's index, for patching */
}

static void run(const int *c)
{
	s32 stack[16], var[8] = { 0 };
	int pc = 0, sp = 0;

	for (;;) {
		int op = c[pc++];

		switch (op) {
		case PUSH:
			stack[sp++] = c[pc++];
			break;
		case LOAD:
			stack[sp++] = var[c[pc++]];
			break;
		case STORE:
			var[c[pc++]] = stack[--sp];
			break;
		case ADD:
			sp--;
			stack[sp - 1] += stack[sp];
			break;
		case SUB:
			sp--;
			stack[sp - 1] -= stack[sp];
			break;
		case MUL:
			sp--;
			stack[sp - 1] *= stack[sp];
			break;
		case MOD:
			sp--;
			stack[sp - 1] %= stack[sp];
			break;
		case LT:
			sp--;
			stack[sp - 1] = stack[sp - 1] < stack[sp];
			break;
		case JZ:
			if (!stack[--sp]) {
				pc = c[pc];
				break;
			}
			pc++;
			break;
		case JMP:
			pc = c[pc];
			break;
		case PRINT:
			rv_putd(stack[--sp], "\n");
			break;
		default:
			return;
		}
	}
}

/* Variables. */
enum { N, D, COUNT, SUM, PRIME };

int main(void)
{
	int loop, done, inner, endinner, notprime, skip;

	emit2(PUSH, 2);
	emit2(STORE, N);
	loop = ncode;			/* while (n < 500) */
	emit2(LOAD, N);
	emit2(PUSH, 500);
	emit(LT);
	done = emit2(JZ, 0);
	emit2(PUSH, 2);
	emit2(STORE, D);
	emit2(PUSH, 1);
	emit2(STORE, PRIME);
	inner = ncode;			/* while (!(n < d * d)) */
	emit2(LOAD, N);
	emit2(LOAD, D);
	emit2(LOAD, D);
	emit(MUL);
	emit(LT);
	emit2(PUSH, 1);
	emit(SUB);			/* 0 when n < d * d */
	endinner = emit2(JZ, 0);
	emit2(LOAD, N);
	emit2(LOAD, D);
	emit(MOD);
	notprime = emit2(JZ, 0);	/* n % d == 0 */
	emit2(LOAD, D);
	emit2(PUSH, 1);
	emit(ADD);
	emit2(STORE, D);
	emit2(JMP, inner);
	code[notprime] = ncode;
	emit2(PUSH, 0);
	emit2(STORE, PRIME);
	code[endinner] = ncode;
	emit2(LOAD, PRIME);
	skip = emit2(JZ, 0);
	emit2(LOAD, COUNT);
	emit2(PUSH, 1);
	emit(ADD);
	emit2(STORE, COUNT);
	emit2(LOAD, SUM);
	emit2(LOAD, N);
	emit(ADD);
	emit2(STORE, SUM);
	code[skip] = ncode;
	emit2(LOAD, N);
	emit2(PUSH, 1);
	emit(ADD);
	emit2(STORE, N);
	emit2(JMP, loop);
	code[done] = ncode;
	emit2(LOAD, COUNT);
	emit(PRINT);
	emit2(LOAD, SUM);
	emit(PRINT);
	emit(HALT);
	rv_puts("primes below 500, count and sum:\n");
	run(code);
	return 0;
}
