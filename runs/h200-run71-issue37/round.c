// Per-round latency of candidate single-block rounds (state in one XMM, the
// S-box by register lookups), 56 rounds a block, blocks chained.
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <immintrin.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static uint8_t T[256], K[56][16], P0[16], P1[16], P2[16];
#define BLOCKS 2000000L
#define LIN(s) { __m128i a=_mm_shuffle_epi8(s,p0), b=_mm_shuffle_epi8(s,p1), c=_mm_shuffle_epi8(s,p2); \
   x=_mm_ternarylogic_epi64(a,b,_mm_xor_si128(c,_mm_loadu_si128((void*)K[r])),0x96); }
int main(void){
  for(int i=0;i<256;i++) T[i]=(uint8_t)(i*167+13);
  for(int r=0;r<56;r++) for(int i=0;i<16;i++) K[r][i]=(uint8_t)(r*31+i*7);
  for(int i=0;i<16;i++){P0[i]=(i*5)&15;P1[i]=(i*3+1)&15;P2[i]=(i*7+2)&15;}
  __m512i t0=_mm512_loadu_si512(T),t1=_mm512_loadu_si512(T+64),t2=_mm512_loadu_si512(T+128),t3=_mm512_loadu_si512(T+192);
  __m128i p0=_mm_loadu_si128((void*)P0),p1=_mm_loadu_si128((void*)P1),p2=_mm_loadu_si128((void*)P2);
  __m128i ff=_mm_set1_epi8(-1);
  double a,b; __m128i x;
  // A: 2 vpermi2b + vpmovb2m + masked blend
  x=_mm_set1_epi8(9); a=now();
  for(long n=0;n<BLOCKS;n++) for(int r=0;r<56;r++){
    __m512i z=_mm512_castsi128_si512(x);
    __m128i lo=_mm512_castsi512_si128(_mm512_permutex2var_epi8(t0,z,t1));
    __m128i hi=_mm512_castsi512_si128(_mm512_permutex2var_epi8(t2,z,t3));
    __m128i s=_mm_mask_blend_epi8(_mm_movepi8_mask(x),lo,hi); LIN(s) }
  b=now(); printf("A vpermi2b x2 + movb2m blend : %.2f ns/round (%d)\n",(b-a)/BLOCKS/56*1e9,_mm_extract_epi8(x,0));
  // B: 2 vpermi2b + pshufb mask + ternlog select
  x=_mm_set1_epi8(9); a=now();
  for(long n=0;n<BLOCKS;n++) for(int r=0;r<56;r++){
    __m512i z=_mm512_castsi128_si512(x);
    __m128i lo=_mm512_castsi512_si128(_mm512_permutex2var_epi8(t0,z,t1));
    __m128i hi=_mm512_castsi512_si128(_mm512_permutex2var_epi8(t2,z,t3));
    __m128i m=_mm_shuffle_epi8(ff,x); // 0xff where bit 7 clear
    __m128i s=_mm_ternarylogic_epi64(m,lo,hi,0xca); LIN(s) }
  b=now(); printf("B vpermi2b x2 + pshufb select : %.2f ns/round (%d)\n",(b-a)/BLOCKS/56*1e9,_mm_extract_epi8(x,0));
  // C: 4 vpermb + masks for bits 6, 7 by pshufb + 3 selects
  x=_mm_set1_epi8(9); a=now();
  for(long n=0;n<BLOCKS;n++) for(int r=0;r<56;r++){
    __m512i z=_mm512_castsi128_si512(x);
    __m128i r0=_mm512_castsi512_si128(_mm512_permutexvar_epi8(z,t0));
    __m128i r1=_mm512_castsi512_si128(_mm512_permutexvar_epi8(z,t1));
    __m128i r2=_mm512_castsi512_si128(_mm512_permutexvar_epi8(z,t2));
    __m128i r3=_mm512_castsi512_si128(_mm512_permutexvar_epi8(z,t3));
    __m128i m7=_mm_shuffle_epi8(ff,x), m6=_mm_shuffle_epi8(ff,_mm_add_epi8(x,x));
    __m128i a01=_mm_ternarylogic_epi64(m6,r0,r1,0xca), a23=_mm_ternarylogic_epi64(m6,r2,r3,0xca);
    __m128i s=_mm_ternarylogic_epi64(m7,a01,a23,0xca); LIN(s) }
  b=now(); printf("C vpermb x4 + 3 selects       : %.2f ns/round (%d)\n",(b-a)/BLOCKS/56*1e9,_mm_extract_epi8(x,0));
  // D: as B with the key folded before the linear layer into the select's operand (1 op less on the chain?)
  x=_mm_set1_epi8(9); a=now();
  for(long n=0;n<BLOCKS;n++) for(int r=0;r<56;r++){
    __m512i z=_mm512_castsi128_si512(x);
    __m128i lo=_mm512_castsi512_si128(_mm512_permutex2var_epi8(t0,z,t1));
    __m128i hi=_mm512_castsi512_si128(_mm512_permutex2var_epi8(t2,z,t3));
    __m128i m=_mm_shuffle_epi8(ff,x);
    __m128i s=_mm_ternarylogic_epi64(m,lo,hi,0xca);
    __m128i aa=_mm_shuffle_epi8(s,p0), bb=_mm_shuffle_epi8(s,p1), cc=_mm_shuffle_epi8(s,p2);
    x=_mm_xor_si128(_mm_ternarylogic_epi64(aa,bb,cc,0x96),_mm_loadu_si128((void*)K[r])); }
  b=now(); printf("D as B, key after ternlog     : %.2f ns/round (%d)\n",(b-a)/BLOCKS/56*1e9,_mm_extract_epi8(x,0));
  // E: nibble-split style 8-op chain (pshufb lookups), for reference
  __m128i q[8]; for(int i=0;i<8;i++) q[i]=_mm_set1_epi8(i*3+1);
  __m128i lo4=_mm_set1_epi8(15), one=_mm_set1_epi8(1);
  __m128i h=_mm_set1_epi8(3), l=_mm_set1_epi8(5); a=now();
  for(long n=0;n<BLOCKS;n++) for(int r=0;r<56;r++){
    __m128i kk=_mm_loadu_si128((void*)K[r]);
    __m128i yh=_mm_xor_si128(_mm_shuffle_epi8(q[0],h),_mm_shuffle_epi8(q[2],l));
    __m128i yl=_mm_xor_si128(_mm_shuffle_epi8(q[1],h),_mm_shuffle_epi8(q[3],l));
    __m128i zh=_mm_xor_si128(_mm_shuffle_epi8(q[4],yh),_mm_shuffle_epi8(q[6],yl));
    __m128i zl=_mm_xor_si128(_mm_or_si128(_mm_shuffle_epi8(q[5],yh),_mm_and_si128(yl,one)),_mm_shuffle_epi8(q[7],yl));
    h=_mm_and_si128(_mm_xor_si128(_mm_xor_si128(_mm_shuffle_epi8(zh,p0),_mm_shuffle_epi8(zh,p1)),_mm_xor_si128(_mm_shuffle_epi8(zh,p2),kk)),lo4);
    l=_mm_and_si128(_mm_xor_si128(_mm_xor_si128(_mm_shuffle_epi8(zl,p0),_mm_shuffle_epi8(zl,p1)),_mm_xor_si128(_mm_shuffle_epi8(zl,p2),kk)),lo4); }
  b=now(); printf("E split 8-op chain (+and)     : %.2f ns/round (%d)\n",(b-a)/BLOCKS/56*1e9,_mm_extract_epi8(h,0));
  // F: the chain of one vpxor per round, for the clock
  x=_mm_set1_epi8(9); a=now();
  for(long n=0;n<BLOCKS;n++) for(int r=0;r<56;r++){ x=_mm_xor_si128(x,_mm_loadu_si128((void*)K[r])); __asm__ volatile("" : "+x"(x)); }
  b=now(); printf("F one vpxor per round         : %.2f ns/round\n",(b-a)/BLOCKS/56*1e9);
  return 0;
}
