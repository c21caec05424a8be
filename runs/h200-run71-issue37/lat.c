// Dependent-chain latency probe: ns per operation for each instruction, each
// op's output feeding the next; the add chain gives the clock.
#include <stdio.h>
#include <time.h>
#include <immintrin.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define N 100000000L
#define RUN(name, setup, body) { setup; double a=now(); for(long i=0;i<N;i++){ body body body body } double b=now(); printf("%-28s %.3f ns/op\n", name, (b-a)/(N*4.0)*1e9); }
int main(void){
  RUN("add r64", long x=1, __asm__ volatile("add $1, %0" : "+r"(x));)
  RUN("vpxor xmm", __m128i x=_mm_set1_epi8(1); __m128i t=_mm_set1_epi8(3), __asm__ volatile("vpxor %1, %0, %0" : "+x"(x) : "x"(t));)
  RUN("vpshufb xmm", __m128i x=_mm_set1_epi8(1); __m128i t=_mm_set1_epi8(3), __asm__ volatile("vpshufb %1, %0, %0" : "+x"(x) : "x"(t));)
  RUN("vpshufb zmm", __m512i x=_mm512_set1_epi8(1); __m512i t=_mm512_set1_epi8(3), __asm__ volatile("vpshufb %1, %0, %0" : "+v"(x) : "v"(t));)
  RUN("vpternlogd xmm", __m128i x=_mm_set1_epi8(1); __m128i t=_mm_set1_epi8(3), __asm__ volatile("vpternlogd $0x96, %1, %1, %0" : "+v"(x) : "v"(t));)
  RUN("vpermb zmm (index chain)", __m512i x=_mm512_set1_epi8(1); __m512i t=_mm512_set1_epi8(3), __asm__ volatile("vpermb %1, %0, %0" : "+v"(x) : "v"(t));)
  RUN("vpermi2b zmm (index chain)", __m512i x=_mm512_set1_epi8(1); __m512i t=_mm512_set1_epi8(3); __m512i u=_mm512_set1_epi8(5), __asm__ volatile("vpermi2b %2, %1, %0" : "+v"(x) : "v"(t), "v"(u));)
  RUN("vpermt2b zmm (index chain)", __m512i x=_mm512_set1_epi8(1); __m512i t=_mm512_set1_epi8(3); __m512i u=_mm512_set1_epi8(5), __asm__ volatile("vpermt2b %2, %0, %1\n\tvmovdqa64 %1, %0" : "+v"(x), "+v"(t) : "v"(u));)
  RUN("vpermi2b xmm (index chain)", __m128i x=_mm_set1_epi8(1); __m128i t=_mm_set1_epi8(3); __m128i u=_mm_set1_epi8(5), __asm__ volatile("vpermi2b %2, %1, %0" : "+v"(x) : "v"(t), "v"(u));)
  RUN("vpmovb2m+vpmovm2b xmm", __m128i x=_mm_set1_epi8(1), __asm__ volatile("vpmovb2m %0, %%k1\n\tvpmovm2b %%k1, %0" : "+v"(x) :: "k1");)
  RUN("vpmovb2m+vpblendmb xmm", __m128i x=_mm_set1_epi8(1); __m128i t=_mm_set1_epi8(3), __asm__ volatile("vpmovb2m %0, %%k1\n\tvpblendmb %1, %0, %0%{%%k1%}" : "+v"(x) : "v"(t) : "k1");)
  RUN("gf2p8affineqb xmm", __m128i x=_mm_set1_epi8(1); __m128i t=_mm_set1_epi8(3), __asm__ volatile("gf2p8affineqb $0, %1, %0" : "+x"(x) : "x"(t));)
  return 0;
}
