// The ground's square in the frame of a collider instance: the automatic ground (the last
// instance: y = ground height, origin under the scene's centre) or a plane collider (its y = 0
// plane, at its pose this frame). Side 2 * ground.y, centred where the plane passes under the
// scene's centre, so a plane far from its origin or moving still covers the scene.
#ifndef CLOTH_RENDER_GROUND_QUAD_GLSL
#define CLOTH_RENDER_GROUND_QUAD_GLSL

const vec2 kGroundCorners[6] = vec2[](vec2(-1, -1), vec2(-1, 1), vec2(1, 1),
                                      vec2(-1, -1), vec2(1, 1), vec2(1, -1));

// Corner `corner` of the square in the instance's frame (y = 0).
vec3 groundCorner(int corner, mat4 model) {
    vec3 centre = vec3(frame.ground.z, frame.ground.x, frame.ground.w);
    vec3 local = transpose(mat3(model)) * (centre - model[3].xyz);
    vec2 c = local.xz + kGroundCorners[corner] * frame.ground.y;
    return vec3(c.x, 0.0, c.y);
}

#endif
