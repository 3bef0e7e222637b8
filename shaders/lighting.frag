// Deferred lighting: one directional light with a PCF shadow map, hemisphere ambient scaled by
// SSAO, a highlight on the colliders, a sky for empty pixels and distance fog on the ground;
// filmic tone mapping.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "kernels/render_types.h"
#include "render_frame.glsl"

layout(set = 0, binding = RBIND_TEX0) uniform sampler2D depthTex;
layout(set = 0, binding = RBIND_TEX0 + 1) uniform sampler2D normalTex;
layout(set = 0, binding = RBIND_TEX0 + 2) uniform sampler2D albedoTex;
layout(set = 0, binding = RBIND_TEX0 + 3) uniform sampler2D aoTex;
layout(set = 0, binding = RBIND_TEX0 + 4) uniform sampler2DShadow shadowTex;

layout(location = 0) in vec2 inUv;
layout(location = 0) out vec4 outColor;

vec3 sky(vec3 dir) {
    float up = clamp(dir.y, 0.0, 1.0);
    return mix(frame.horizonColor.rgb, frame.skyColor.rgb, sqrt(up));
}

float shadowFactor(vec3 world, vec3 nWorld) {
    if ((frame.options.z & OPTION_SHADOWS) == 0u) return 1.0;
    vec3 l = frame.lightDir.xyz;
    // Offset along the normal facing the light: a two-sided sheet never shadows its lit side.
    vec3 nl = dot(nWorld, l) >= 0.0 ? nWorld : -nWorld;
    vec4 c = frame.lightViewProj * vec4(world + frame.shadow.y * nl, 1.0);
    vec3 s = c.xyz / c.w;
    vec2 uv = 0.5 * s.xy + 0.5;
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))) || s.z >= 1.0) return 1.0;
    // Four bilinear comparisons (each blends 2x2 texels): a 3x3-texel percentage-closer filter.
    vec2 d = frame.shadow.z * frame.shadow.x * vec2(0.5, -0.5);
    float lit = texture(shadowTex, vec3(uv + d.xx, s.z)) + texture(shadowTex, vec3(uv + d.xy, s.z)) +
                texture(shadowTex, vec3(uv + d.yx, s.z)) + texture(shadowTex, vec3(uv + d.yy, s.z));
    return 0.25 * lit;
}

float grazing4(vec3 n, vec3 viewDir) {
    float g = 1.0 - max(dot(n, -viewDir), 0.0);
    g *= g;
    return g * g;
}

vec3 tonemap(vec3 x) {  // ACES fit (Narkowicz 2015)
    x *= frame.exposure.x;
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

vec3 encodeSrgb(vec3 c) {
    return mix(12.92 * c, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}

void main() {
    float depth = texture(depthTex, inUv).r;
    vec4 nm = texture(normalTex, inUv);
    uint material = uint(nm.w + 0.5);
    vec3 world = worldPosition(inUv, depth);
    vec3 viewDir = normalize(world - frame.eye.xyz);
    vec3 colour;
    if (material == MATERIAL_SKY) {
        colour = sky(normalize(worldPosition(inUv, 1.0) - frame.eye.xyz));
    } else {
        vec3 albedo = texture(albedoTex, inUv).rgb;
        vec3 n = normalize(transpose(mat3(frame.view)) * nm.xyz);  // view -> world (rigid)
        vec3 l = frame.lightDir.xyz;
        float ao = (frame.options.z & OPTION_SSAO) != 0u ? texture(aoTex, inUv).r : 1.0;
        float ndl = max(dot(n, l), 0.0);
        float lit = ndl > 0.0 ? shadowFactor(world, n) : 0.0;
        vec3 direct = frame.lightColor.rgb * frame.lightDir.w * ndl * lit;
        vec3 ambient = frame.skyColor.w * mix(frame.horizonColor.rgb, frame.skyColor.rgb,
                                              0.5 + 0.5 * n.y) * ao;
        // A little sheen at grazing angles, as woven cloth shows.
        float sheen = material == MATERIAL_CLOTH ? 0.25 * grazing4(n, viewDir)
                                                 : 0.0;
        colour = albedo * (direct + ambient) + sheen * ao * frame.skyColor.rgb * frame.skyColor.w;
        if (material == MATERIAL_COLLIDER) {  // a soft highlight, as of varnished wood
            float spec = pow(max(dot(n, normalize(l - viewDir)), 0.0), 40.0);
            colour += 0.08 * spec * lit * frame.lightColor.rgb * frame.lightDir.w;
        }
        if (material == MATERIAL_GROUND) {
            float d = length(world.xz - frame.ground.zw) / frame.ground.y;
            colour = mix(colour, sky(vec3(0.0)), smoothstep(0.45, 1.0, d));
        }
    }
    if ((frame.options.z & OPTION_SHOW_AO) != 0u) colour = vec3(texture(aoTex, inUv).r);
    else colour = tonemap(colour);
    if ((frame.options.z & OPTION_MANUAL_SRGB) != 0u) colour = encodeSrgb(colour);
    outColor = vec4(colour, 1.0);
}
