// The area-weighted sum of vertex i's triangles' normals at `positions`, summed in the CPU's order
// (PreparedCloth's CSR: prep/springs.h vertexNormalSum): the wind's normal of the per-vertex models
// (mass_spring.comp, pd_jacobi.comp). The includer declares the buffers positions (vec4),
// triangles (uint, three per triangle), vertexTriOffsets and vertexTriangles.
vec3 vertexNormalSum(uint i) {
    vec3 n = vec3(0.0);
    for (uint k = vertexTriOffsets[i]; k < vertexTriOffsets[i + 1u]; ++k) {
        uint t = 3u * vertexTriangles[k];
        n += triangleNormal(vec3(positions[triangles[t]]), vec3(positions[triangles[t + 1u]]),
                            vec3(positions[triangles[t + 2u]]));
    }
    return n;
}
