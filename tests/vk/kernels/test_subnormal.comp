// Test kernel for tests/vk/test_subnormal.cpp: what the device does with subnormal floats.
// out.x = a * b (subnormal when exact), out.y = s * 1 (s subnormal on input), out.z = s + 0.
#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { vec4 data[]; };

void main() {
    vec4 v = data[0];
    data[1] = vec4(v.x * v.y, v.z * v.w, v.z + 0.0, 0.0);
}
