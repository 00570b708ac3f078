// comp.mip_poisson_temporal's accumulation in fp16: RGB and the frames it holds in 64 bits (RG32UI),
// at the traffic of an RGBA16F image. As halves it drifted: at n = 64 frames a half drops any change
// under 64 half-ulps (3% of the value), and the error grew with the frames. Here the three channels
// share an exponent (as RGB9E5 does) and each keeps 17 signed bits: steps of 2^-16 of the largest
// channel's power of two, so the largest keeps 16 bits where a half keeps 11. RGBA32F holds it too,
// at twice the traffic: the accumulation in fp32.
//
// x: red (bits 0-16), green's low 15 bits (17-31); y: green's high 2 bits (0-1), blue (2-18), the
// exponent + ACCUMULATION_BIAS (19-23), frames - 1 (24-29; BIGBLUR_MAX_FRAMES <= 64).
#if BIGBLUR_MAX_FRAMES > 64
#error "the packed accumulation holds at most 64 frames"
#endif

const int ACCUMULATION_BIAS = 14;  // exponents -14 (steps of 2^-30) to 17 (halves' largest is 2^16)
const float ACCUMULATION_LARGEST = 65535.0;

// frames: a whole number, 1 to BIGBLUR_MAX_FRAMES.
uvec2 encode_accumulation(vec3 rgb, uint frames) {
  // The exponent: the largest channel's magnitude is under 2^e (its float exponent + 1).
  const float largest = max(max(abs(rgb.r), abs(rgb.g)), abs(rgb.b));
  const int e = clamp(int(floatBitsToUint(largest) >> 23) - 126, -ACCUMULATION_BIAS, 31 - ACCUMULATION_BIAS);
  const ivec3 q = ivec3(clamp(round(rgb * exp2(float(16 - e))), -ACCUMULATION_LARGEST, ACCUMULATION_LARGEST));
  const uvec3 u = uvec3(q) & 0x1ffffu;
  return uvec2(u.r | (u.g << 17), (u.g >> 15) | (u.b << 2) | (uint(e + ACCUMULATION_BIAS) << 19) | ((frames - 1u) << 24));
}

vec4 decode_accumulation(uvec2 packed) {
  // 2^(e - 16): the exponent field built directly.
  const float step = uintBitsToFloat(uint(int((packed.y >> 19) & 0x1fu) - ACCUMULATION_BIAS - 16 + 127) << 23);
  const int r = bitfieldExtract(int(packed.x), 0, 17);
  const int g = bitfieldExtract(int((packed.x >> 17) | (packed.y << 15)), 0, 17);
  const int b = bitfieldExtract(int(packed.y), 2, 17);
  return vec4(vec3(r, g, b) * step, float((packed.y >> 24) & 0x3fu) + 1.0);
}

// The accumulation at `at` (level-0 pixels) filtered bilinearly, as a sampler would an RGBA image:
// one gather a word, the four texels decoded, clamped to the edge by the sampler.
vec4 sample_accumulation(usampler2D history, vec2 at) {
  const vec2 size = vec2(textureSize(history, 0)), corner = floor(at - 0.5), f = at - 0.5 - corner;
  const vec2 uv = (corner + 1.0) / size;  // the middle of the 2 x 2 texels the gather returns
  const uvec4 x = textureGather(history, uv, 0), y = textureGather(history, uv, 1);
  // Gather order: (0, 1), (1, 1), (1, 0), (0, 0) for (column, row) offsets from `corner`.
  const vec4 t01 = decode_accumulation(uvec2(x.x, y.x)), t11 = decode_accumulation(uvec2(x.y, y.y));
  const vec4 t10 = decode_accumulation(uvec2(x.z, y.z)), t00 = decode_accumulation(uvec2(x.w, y.w));
  return mix(mix(t00, t10, f.x), mix(t01, t11, f.x), f.y);
}
