/* What the fuzz harnesses need of src/model/cache.c to make a mutated .tts
 * pass the checks a corrupt file fails (so that the checks behind them are
 * reached): the header (magic[16], version@16, bom@20, file_size@24, ...,
 * sum@56; 72 bytes) and its checksum (sum64).  fuzz_load's .tts round trip
 * checks this copy against the real writer, so a change of format fails
 * loudly instead of leaving the fuzzers stuck at the checksum. */
#ifndef TRACETOP_FUZZ_TTS_FIX_H
#define TRACETOP_FUZZ_TTS_FIX_H

#include <stdint.h>
#include <string.h>

enum { TTS_HDR = 72, TTS_VERSION_OFF = 16, TTS_SIZE_OFF = 24, TTS_SUM_OFF = 56 };
static const uint32_t tts_version = 6;

static inline uint64_t tts_sum(const uint8_t *p, size_t n)
{
	const uint64_t k1 = 0x9E3779B97F4A7C15ull, k2 = 0xC2B2AE3D27D4EB4Full;
	uint64_t lane[4];
	for (int i = 0; i < 4; i++)
		lane[i] = k1 * (uint64_t)(i + 1);
	uint8_t last[32] = {0};
	for (size_t b = 0; b <= n / 32; b++) {
		const uint8_t *q = p + b * 32;
		if (b == n / 32) {
			memcpy(last, q, n % 32); /* (the tail, zero-padded; maybe empty) */
			q = last;
		}
		for (int i = 0; i < 4; i++) {
			uint64_t w, l;
			memcpy(&w, q + 8 * i, 8);
			l = lane[i] ^ (w * k2);
			l = (l << 31) | (l >> 33);
			lane[i] = l * k1;
		}
	}
	uint64_t h = (uint64_t)n * k1;
	for (int i = 0; i < 4; i++) {
		h ^= lane[i];
		h = ((h << 27) | (h >> 37)) * k2;
	}
	return h ^ (h >> 33);
}

/* make the header of buf[0, size) current: magic, version, byte order,
 * size, checksum (size >= TTS_HDR) */
static inline void tts_fix(uint8_t *buf, size_t size)
{
	memcpy(buf, "TRACETOP-TTS\0\0\0", 16);
	uint32_t bom = 0x01020304u;
	uint64_t fsize = size;
	memcpy(buf + TTS_VERSION_OFF, &tts_version, 4);
	memcpy(buf + TTS_VERSION_OFF + 4, &bom, 4);
	memcpy(buf + TTS_SIZE_OFF, &fsize, 8);
	uint64_t sum = tts_sum(buf + TTS_HDR, size - TTS_HDR);
	memcpy(buf + TTS_SUM_OFF, &sum, 8);
}

#endif
