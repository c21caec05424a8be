/*
 * Speed harness for a peer's code behind the NIST LWC API: one binary per
 * scheme, built by build.sh with the peer's sources and one of
 *   -DBENCH_AEAD -DSCHEME_NAME='"Romulus-N"'   (crypto_aead_encrypt/decrypt)
 *   -DBENCH_HASH -DSCHEME_NAME='"Romulus-H"'   (crypto_hash)
 * It times the calls the way skinny-romulus's examples/romulus_speed.rs does,
 * so that scripts/peers/compare.sh can set the two side by side: zero
 * messages, no AD, key 07.., nonce 01.., plaintext into one buffer and back
 * into another (no allocation while timed), best of PASSES timings of about
 * 2^18 bytes (one call at least) per size.
 *
 *   bench [PASSES [SIZES]]     PASSES default 5; SIZES a comma list of bytes
 *
 * Output, one line each (the format romulus_speed prints):
 *   check NAME HEX                         tag (hash: digest) of 64 zero bytes
 *   NAME LEN B  seal X MiB/s  open Y MiB/s
 *   NAME LEN B  hash X MiB/s
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "api.h"
#if defined(BENCH_AEAD)
#include "crypto_aead.h"
#elif defined(BENCH_HASH)
#include "crypto_hash.h"
#else
#error "build with -DBENCH_AEAD or -DBENCH_HASH"
#endif
#ifndef SCHEME_NAME
#error "build with -DSCHEME_NAME='\"...\"'"
#endif

#define MAX_SIZES 16

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Calls per timing: about 2^18 bytes, and one call at least. */
static unsigned long reps_for(unsigned long len) {
  unsigned long reps = (1UL << 18) / (len < 64 ? 64 : len);
  return reps ? reps : 1;
}

static double mib_s(unsigned long len, double seconds_per_call) {
  return (double)len / seconds_per_call / (double)(1 << 20);
}

static void print_hex(const char *what, const unsigned char *bytes, size_t n) {
  printf("check %s ", what);
  for (size_t i = 0; i < n; i++) printf("%02x", bytes[i]);
  printf("\n");
}

static void fail(const char *what, unsigned long len) {
  fprintf(stderr, "%s: %s failed at %lu bytes\n", SCHEME_NAME, what, len);
  exit(1);
}

#if defined(BENCH_AEAD)
static unsigned char key[CRYPTO_KEYBYTES], nonce[CRYPTO_NPUBBYTES];

static void check(void) {
  unsigned char msg[64] = {0}, ct[64 + CRYPTO_ABYTES];
  unsigned long long clen;
  if (crypto_aead_encrypt(ct, &clen, msg, 64, NULL, 0, NULL, nonce, key) != 0) fail("seal", 64);
  print_hex(SCHEME_NAME, ct + 64, CRYPTO_ABYTES);
}

static void time_size(unsigned long len, int passes) {
  unsigned char *msg = calloc(len, 1), *ct = malloc(len + CRYPTO_ABYTES), *back = malloc(len);
  unsigned long long clen = 0, mlen = 0;
  unsigned long reps = reps_for(len);
  double seal = 1e30, open = 1e30;
  if (!msg || !ct || !back) fail("allocation", len);
  for (int p = 0; p < passes; p++) {
    double t = now_seconds();
    for (unsigned long r = 0; r < reps; r++)
      if (crypto_aead_encrypt(ct, &clen, msg, len, NULL, 0, NULL, nonce, key) != 0) fail("seal", len);
    t = (now_seconds() - t) / (double)reps;
    if (t < seal) seal = t;
  }
  for (int p = 0; p < passes; p++) {
    double t = now_seconds();
    for (unsigned long r = 0; r < reps; r++)
      if (crypto_aead_decrypt(back, &mlen, NULL, ct, clen, NULL, 0, nonce, key) != 0) fail("open", len);
    t = (now_seconds() - t) / (double)reps;
    if (t < open) open = t;
  }
  /* A harness that times a failing or partial call would lie. */
  if (clen != len + CRYPTO_ABYTES || mlen != len || memcmp(back, msg, len) != 0) fail("round trip", len);
  printf("%-10s %6lu B  seal %7.2f MiB/s  open %7.2f MiB/s\n", SCHEME_NAME, len, mib_s(len, seal), mib_s(len, open));
  free(msg); free(ct); free(back);
}
#else
static void check(void) {
  unsigned char msg[64] = {0}, digest[CRYPTO_BYTES];
  if (crypto_hash(digest, msg, 64) != 0) fail("hash", 64);
  print_hex(SCHEME_NAME, digest, CRYPTO_BYTES);
}

static void time_size(unsigned long len, int passes) {
  unsigned char *msg = calloc(len, 1), digest[CRYPTO_BYTES];
  unsigned long reps = reps_for(len);
  double best = 1e30;
  if (!msg) fail("allocation", len);
  for (int p = 0; p < passes; p++) {
    double t = now_seconds();
    for (unsigned long r = 0; r < reps; r++)
      if (crypto_hash(digest, msg, len) != 0) fail("hash", len);
    t = (now_seconds() - t) / (double)reps;
    if (t < best) best = t;
  }
  printf("%-10s %6lu B  hash %7.2f MiB/s\n", SCHEME_NAME, len, mib_s(len, best));
  free(msg);
}
#endif

int main(int argc, char **argv) {
  int passes = argc > 1 ? atoi(argv[1]) : 5;
  unsigned long sizes[MAX_SIZES] = {64, 1024, 16384, 1UL << 20};
  int count = 4;
  if (passes < 1) passes = 1;
  if (argc > 2) {
    char *s = argv[2];
    for (count = 0; *s && count < MAX_SIZES; count++) {
      char *end;
      sizes[count] = strtoul(s, &end, 10);
      if (end == s || sizes[count] == 0) { fprintf(stderr, "SIZES: a comma list of byte counts\n"); return 2; }
      s = *end == ',' ? end + 1 : end;
    }
  }
#if defined(BENCH_AEAD)
  memset(key, 0x07, sizeof key);
  memset(nonce, 0x01, sizeof nonce);
#endif
  check();
  for (int i = 0; i < count; i++) time_size(sizes[i], passes);
  return 0;
}
