// Test kernel for tests/vk/test_rounding_emulation.cpp: every instruction the rounding emulation
// perturbs (vk/rounding_emulation.h), on scalars and vectors. Inputs a, b per invocation; four
// results each: a / b, (sqrt, inversesqrt, length, distance), (normalize, scalar division),
// sqrt of a vector.
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 inputs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec4 outputs[]; };

void main() {
    const uint i = gl_GlobalInvocationID.x;
    const vec4 a = inputs[2 * i], b = inputs[2 * i + 1];
    outputs[4 * i] = a / b;
    outputs[4 * i + 1] = vec4(sqrt(a.x), inversesqrt(a.y), length(a.xyz), distance(a.xyz, b.xyz));
    outputs[4 * i + 2] = vec4(normalize(b.xyz), a.w / b.w);
    outputs[4 * i + 3] = sqrt(a);
}
