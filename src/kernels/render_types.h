// The renderer's interface between C++ and GLSL: the per-frame uniform block, marker instances,
// the colliders' vertices and placements, G-buffer material ids and descriptor bindings. Included
// by src/render and shaders/*.vert|frag.
#ifndef CLOTH_KERNELS_RENDER_TYPES_H
#define CLOTH_KERNELS_RENDER_TYPES_H

#include "kernels/common.h"

// Descriptor set 0 of the geometry passes (shadow, G-buffer): vertex pulling from storage
// buffers, so the solver's buffers are read exactly as the compute shaders wrote them.
#define RBIND_FRAME 0      // uniform FrameUniforms
#define RBIND_POSITIONS 1  // vec4 per vertex: xyz, w = inverse mass
#define RBIND_NORMALS 2    // vec4 per original vertex
#define RBIND_UVS 3        // vec2 per original vertex
#define RBIND_MARKERS 4    // Marker[]
// ColliderVertex[]: every collider's mesh, each in its own frame.
#define RBIND_COLLIDER_VERTICES 5
// ColliderInstance[]: per collider, then the automatic ground.
#define RBIND_COLLIDER_INSTANCES 6
// ClothLook[]: per cloth of the scene, its colours (the cloth's draw passes its index as the
// instance index).
#define RBIND_CLOTH_LOOKS 7

// Descriptor set 0 of the screen passes (SSAO, blur, lighting): the frame block, then textures.
#define RBIND_TEX0 1

CLOTH_NAMESPACE_BEGIN

// G-buffer normal.w: what covers the pixel.
const uint MATERIAL_SKY = 0u;
const uint MATERIAL_CLOTH = 1u;
const uint MATERIAL_GROUND = 2u;
const uint MATERIAL_MARKER = 3u;
const uint MATERIAL_COLLIDER = 4u;  // a rigid collider (planes are drawn as MATERIAL_GROUND)

// Marker kinds.
const uint MARKER_PIN = 0u;          // a vertex with inverse mass 0
const uint MARKER_KINEMATIC = 1u;    // a vertex attached to a (moving) target
const uint MARKER_GRAB = 2u;         // the vertex the mouse holds
const uint MARKER_GRAB_TARGET = 3u;  // where the mouse pulls it (FrameUniforms::grabTarget)

// Bits of FrameUniforms::options.z.
const uint OPTION_PATTERN = 1u;  // draw the woven check from each cloth's texture coordinates
const uint OPTION_SHADOWS = 2u;
const uint OPTION_SSAO = 4u;
const uint OPTION_MANUAL_SRGB = 8u;  // the output is UNORM: encode sRGB in the shader
const uint OPTION_SHOW_AO = 16u;     // debug view: the blurred occlusion only

// One cloth's colours (linear RGB): the front (the side the solver's normals face) and the back.
struct ClothLook {
    vec4 front;  // rgb; w unused
    vec4 back;   // rgb; w unused
};
CLOTH_CHECK_SIZE(ClothLook, 32)

struct Marker {
    uint vertex;
    uint kind;
};
CLOTH_CHECK_SIZE(Marker, 8)

// A vertex of a collider's mesh (render/collider_mesh.h), in the collider's frame.
struct ColliderVertex {
    vec4 position;  // xyz
    vec4 normal;    // xyz: unit, outward
};
CLOTH_CHECK_SIZE(ColliderVertex, 32)

// Where a collider is this frame: its frame as a rigid model matrix (colliderPose at the
// simulated time). The automatic ground is one more instance, the last.
struct ColliderInstance {
    mat4 model;
};
CLOTH_CHECK_SIZE(ColliderInstance, 64)

// One per frame in flight (std140 uniform block; only mat4, vec4 and uvec4 members).
struct FrameUniforms {
    mat4 view;
    mat4 proj;
    mat4 viewProj;
    mat4 invViewProj;
    mat4 invProj;
    mat4 lightViewProj;
    vec4 eye;           // xyz: camera position (world)
    vec4 lightDir;      // xyz: unit vector towards the light; w: intensity
    vec4 lightColor;    // rgb (linear)
    vec4 skyColor;      // rgb: ambient light from above; w: ambient intensity
    vec4 horizonColor;  // rgb: ambient from below and the sky at the horizon
    vec4 clothPattern;  // x: contrast of the woven check, y: its repeats per UV unit
    vec4 ground;        // x: height (y), y: half extent, z, w: centre x, z
    vec4 groundColor;   // rgb; w: checker square size (m)
    vec4 viewport;      // full-size target: width, height, 1/width, 1/height
    vec4 ssao;          // x: radius (m), y: bias (m), z: strength, w: sample count
    vec4 shadow;        // x: 1/map size, y: normal offset (m), z: PCF spread (texels)
    vec4 markers;       // x: half size of a marker cube (m)
    vec4 grabTarget;    // xyz: where the grabbed vertex is pulled
    vec4 exposure;      // x: exposure multiplier
    vec4 colliders;     // rgb: the rigid colliders' albedo (linear); w: pattern contrast
    vec4 time;          // x: simulated time (s) the colliders are placed at
    uvec4 options;      // x: grabbed vertex, y: grabbing (0/1), z: OPTION_* bits, w: frame
};
CLOTH_CHECK_SIZE(FrameUniforms, 6 * 64 + 16 * 16 + 16)
CLOTH_CHECK_OFFSET(FrameUniforms, eye, 384)
CLOTH_CHECK_OFFSET(FrameUniforms, options, 640)

CLOTH_NAMESPACE_END

#endif  // CLOTH_KERNELS_RENDER_TYPES_H
