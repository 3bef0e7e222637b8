// The storage buffers of self_collide.comp (set 0, bindings in src/vk/self_collision_gpu.h's
// SelfBinding order): the solver's vertex state and triangles, and self-collision's own.
#ifndef CLOTH_SELF_LBVH_BUFFERS_GLSL
#define CLOTH_SELF_LBVH_BUFFERS_GLSL

#include "common.h"

layout(std430, set = 0, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, set = 0, binding = 1) buffer Start { vec4 start[]; };
layout(std430, set = 0, binding = 2) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, set = 0, binding = 3) readonly buffer Triangles { uint triangles[]; };
layout(std430, set = 0, binding = 4) readonly buffer TriInfo { uint triInfo[]; };
layout(std430, set = 0, binding = 5) readonly buffer TriThickness { float triThickness[]; };
layout(std430, set = 0, binding = 6) buffer Tight { vec4 tight[]; };
layout(std430, set = 0, binding = 7) buffer Boxes { vec4 boxes[]; };
layout(std430, set = 0, binding = 8) buffer Partials { vec4 partials[]; };
layout(std430, set = 0, binding = 9) buffer Scene { vec4 scene[]; };
layout(std430, set = 0, binding = 10) buffer Codes { uint lbvhCodes[]; };
layout(std430, set = 0, binding = 11) buffer Order { uint lbvhOrder[]; };
layout(std430, set = 0, binding = 12) buffer Codes2 { uint lbvhCodes2[]; };
layout(std430, set = 0, binding = 13) buffer Order2 { uint lbvhOrder2[]; };
layout(std430, set = 0, binding = 14) buffer Histograms { uint histograms[]; };

#include "lbvh.h"

layout(std430, set = 0, binding = 15) coherent buffer Nodes { LbvhNode lbvhNodes[]; };
layout(std430, set = 0, binding = 16) buffer Parent { uint lbvhParent[]; };
layout(std430, set = 0, binding = 17) buffer RangeEnd { uint lbvhRangeEnd[]; };
layout(std430, set = 0, binding = 18) coherent buffer Arrival { uint lbvhArrival[]; };

#define CLOTH_HAS_LBVH_CODES
#include "lbvh.h"

#endif
