// The compute solver's storage buffers (descriptor set 0); binding numbers from solver_io.h.
// Included by the solver's shaders after types.h / solver_io.h.
#ifndef CLOTH_SOLVER_BUFFERS_GLSL
#define CLOTH_SOLVER_BUFFERS_GLSL

layout(std430, binding = BINDING_POSITIONS) buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_PREDICTED) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = BINDING_VELOCITIES) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = BINDING_NORMALS) writeonly buffer Normals { vec4 normals[]; };
layout(std430, binding = BINDING_DISTANCE) readonly buffer Distances { DistanceConstraint distances[]; };
layout(std430, binding = BINDING_BENDING) readonly buffer Bendings { BendingConstraint bendings[]; };
layout(std430, binding = BINDING_LAMBDA_DISTANCE) buffer LambdaDistance { float lambdaDistance[]; };
layout(std430, binding = BINDING_LAMBDA_BENDING) buffer LambdaBending { float lambdaBending[]; };
layout(std430, binding = BINDING_ATTACHMENTS) readonly buffer Attachments { Attachment attachments[]; };
layout(std430, binding = BINDING_MOTIONS) readonly buffer Motions { Motion motions[]; };
layout(std430, binding = BINDING_LAMBDA_ATTACH) buffer LambdaAttach { float lambdaAttach[]; };
layout(std430, binding = BINDING_TETHERS) readonly buffer Tethers { Tether tethers[]; };
layout(std430, binding = BINDING_PHANTOM_GROUPS) readonly buffer PhantomGroups { PhantomGroup phantomGroups[]; };
layout(std430, binding = BINDING_PHANTOM_MEMBERS) readonly buffer PhantomMembers { uint phantomMembers[]; };
layout(std430, binding = BINDING_SEGMENTS) readonly buffer Segments { ClothSegment segments[]; };
layout(std430, binding = BINDING_CHUNKS) readonly buffer Chunks { VertexChunk chunks[]; };
layout(std430, binding = BINDING_SEGMENT_CHUNKS) readonly buffer SegmentChunks { uvec2 segmentChunks[]; };
layout(std430, binding = BINDING_RIGID_PARTIALS) buffer RigidPartials { RigidSums rigidPartials[]; };
layout(std430, binding = BINDING_RIGID_MOTIONS) buffer RigidMotions { RigidMotion rigidMotions[]; };
layout(std430, binding = BINDING_TRIANGLES) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = BINDING_VERTEX_TRI_OFFSETS) readonly buffer VertexTriOffsets { uint vertexTriOffsets[]; };
layout(std430, binding = BINDING_VERTEX_TRIANGLES) readonly buffer VertexTriangles { uint vertexTriangles[]; };

#endif
