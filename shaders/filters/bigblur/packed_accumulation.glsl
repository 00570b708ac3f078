// comp.mip_poisson_temporal's accumulation in fp16: RGB and the frames it holds in 64 bits (RG32UI),
// so it costs the traffic of an RGBA16F image but keeps 13 mantissa bits a channel, not 10. A half's
// rounding at n = 64 frames drops any change under 64 half-ulps (3% of the value) and the error grew
// with the frames; with 13 bits that threshold is eight times smaller. RGBA32F holds it too, at twice
// the traffic: it is the accumulation in fp32.
//
// A channel: a sign and 18 bits of magnitude, a half's layout with three more mantissa bits (5
// exponent bits with the half's bias, 13 mantissa bits; subnormals below 2^-14, no infinity: the
// largest code is about 2^16). x: red (bits 0-18), green's low 13 bits (19-31); y: green's high 6
// bits (0-5), blue (6-24), frames - 1 (25-30; BIGBLUR_MAX_FRAMES <= 64).
#if BIGBLUR_MAX_FRAMES > 64
#error "the packed accumulation holds at most 64 frames"
#endif

const uint ACCUMULATION_MANTISSA = 13;
const uint ACCUMULATION_MAGNITUDE = (1u << (5 + ACCUMULATION_MANTISSA)) - 1u;
const float ACCUMULATION_SUBNORMAL_STEP = exp2(-14.0 - float(ACCUMULATION_MANTISSA));

uint encode_channel(float v) {
  const float a = abs(v);
  uint magnitude;
  if (a < exp2(-14.0)) {
    // Subnormal: steps of 2^-14 / 2^13; rounding up to 2^13 steps lands on the smallest normal code.
    magnitude = uint(round(a / ACCUMULATION_SUBNORMAL_STEP));
  } else {
    // Rebias the exponent from 127 to 15 and round the mantissa to the nearest; a carry moves into
    // the exponent as it should.
    const uint drop = 23u - ACCUMULATION_MANTISSA;
    magnitude = min((floatBitsToUint(a) - (112u << 23) + (1u << (drop - 1u))) >> drop, ACCUMULATION_MAGNITUDE);
  }
  return (v < 0.0 ? 1u << (5 + ACCUMULATION_MANTISSA) : 0u) | magnitude;
}

float decode_channel(uint code) {
  const uint magnitude = code & ACCUMULATION_MAGNITUDE;
  const float a = magnitude < (1u << ACCUMULATION_MANTISSA)
                      ? float(magnitude) * ACCUMULATION_SUBNORMAL_STEP
                      : uintBitsToFloat((magnitude << (23u - ACCUMULATION_MANTISSA)) + (112u << 23));
  return (code & (ACCUMULATION_MAGNITUDE + 1u)) != 0u ? -a : a;
}

// frames: a whole number, 1 to BIGBLUR_MAX_FRAMES.
uvec2 encode_accumulation(vec3 rgb, uint frames) {
  const uint r = encode_channel(rgb.r), g = encode_channel(rgb.g), b = encode_channel(rgb.b);
  return uvec2(r | (g << 19), (g >> 13) | (b << 6) | ((frames - 1u) << 25));
}

vec4 decode_accumulation(uvec2 packed) {
  const uint g = (packed.x >> 19) | ((packed.y & 0x3fu) << 13);
  return vec4(decode_channel(packed.x & 0x7ffffu), decode_channel(g), decode_channel((packed.y >> 6) & 0x7ffffu),
              float((packed.y >> 25) & 0x3fu) + 1.0);
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
