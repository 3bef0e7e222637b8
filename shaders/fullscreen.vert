// One triangle covering the target; uv in [0, 1] with the origin at the top left.
#version 450

layout(location = 0) out vec2 outUv;

void main() {
    vec2 uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    outUv = uv;
    gl_Position = vec4(2.0 * uv - 1.0, 0.0, 1.0);
}
