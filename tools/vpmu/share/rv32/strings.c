// SPDX-License-Identifier: GPL-2.0
/*
 * strings.c - string handling, byte by byte: word counts, reversing,
 * palindromes, a comparison and a search, on a few sentences.
 */
#include "rv.h"

static const char *const text[] = {
	"a man a plan a canal panama",
	"the quick brown fox jumps over the lazy dog",
	"never odd or even",
	"microcode is a program that runs a processor",
};

static int words(const char *s)
{
	int n = 0, in = 0;

	for (; *s; s++) {
		if (*s == ' ') {
			in = 0;
		} else if (!in) {
			in = 1;
			n++;
		}
	}
	return n;
}

static void reverse(char *s, unsigned long n)
{
	unsigned long i;
	char t;

	for (i = 0; i < n / 2; i++) {
		t = s[i];
		s[i] = s[n - 1 - i];
		s[n - 1 - i] = t;
	}
}

/* A palindrome when spaces are ignored. */
static int palindrome(const char *s)
{
	unsigned long i = 0, j = rv_strlen(s);

	while (j-- > i) {
		while (s[i] == ' ')
			i++;
		while (s[j] == ' ')
			j--;
		if (j > i && s[i] != s[j])
			return 0;
		i++;
	}
	return 1;
}

static int compare(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* Index of the first occurrence of @needle in @s, or -1. */
static int find(const char *s, const char *needle)
{
	int i, k;

	for (i = 0; s[i]; i++) {
		for (k = 0; needle[k] && s[i + k] == needle[k]; k++)
			;
		if (!needle[k])
			return i;
	}
	return -1;
}

int main(void)
{
	char buf[64];
	unsigned long n;
	unsigned int i;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		n = rv_strlen(text[i]);
		for (unsigned long k = 0; k <= n; k++)
			buf[k] = text[i][k];
		reverse(buf, n);
		rv_puts(buf);
		rv_puts(" | words ");
		rv_putd(words(text[i]), palindrome(text[i]) ?
			" | palindrome\n" : "\n");
	}
	rv_putd(compare(text[0], text[2]) < 0, " ");
	rv_putd(find(text[1], "fox"), " ");
	rv_putd(find(text[3], "processor"), " ");
	rv_putd(find(text[2], "odd even"), "\n");
	return 0;
}
