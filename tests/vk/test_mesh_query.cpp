// The mesh-collider query (src/kernels/mesh_distance.h) gives the same bits on the Vulkan
// device (tests/vk/kernels/test_mesh_query.comp) as on the CPU, on table.obj and bumpy_sphere.obj
// appended to one pair of arrays, so the second collider's indices do not start at 0.
#include <cstring>

#include "fixtures/meshes.h"
#include "../prep/prep_test_util.h"
#include "core/collider_mesh.h"
#include "gpu_test.h"
#include "prep/mesh_collider.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

using namespace cloth;
using cloth::test::GpuTest;

namespace {

struct QueryPush {
    std::uint32_t root;
    std::uint32_t count;
};

template <class T>
vk::Buffer uploaded(const vk::Context& ctx, vk::OneShot& once, const std::vector<T>& data,
                    const char* name) {
    const std::size_t bytes = data.size() * sizeof(T);
    vk::Buffer b = vk::deviceBuffer(ctx, bytes, name);
    vk::upload(ctx, once, b, data.data(), bytes);
    return b;
}

// (g, distance) per point from the device.
std::vector<glm::vec4> deviceQueries(const vk::Context& ctx, const vk::Buffer& nodes,
                                     const vk::Buffer& triangles, std::uint32_t root,
                                     const std::vector<glm::vec4>& points) {
    const auto n = static_cast<std::uint32_t>(points.size());
    vk::OneShot once(ctx, "mesh query");
    vk::Buffer in = uploaded(ctx, once, points, "mesh query points");
    vk::Buffer out = vk::deviceBuffer(ctx, n * 16, "mesh query results");
    vk::Buffer readback = vk::stagingBuffer(ctx, n * 16, "mesh query read-back");
    vk::ComputeKernel kernel(ctx, "test_mesh_query.comp", 4, sizeof(QueryPush), 64);
    kernel.bind({&nodes, &triangles, &in, &out});
    const QueryPush push{root, n};
    once.run([&](VkCommandBuffer cb) {
        kernel.dispatch(cb, &push, (n + 63) / 64);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
        VkBufferCopy copy{0, 0, n * 16};
        vkCmdCopyBuffer(cb, out.get(), readback.get(), 1, &copy);
        VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                             &host, 0, nullptr, 0, nullptr);
    });
    std::vector<glm::vec4> results(n);
    std::memcpy(results.data(), readback.mapped(), n * 16);
    return results;
}

}  // namespace

TEST_F(GpuTest, MeshQueryGivesTheSameBitsOnTheDevice) {
    const char* names[] = {"table.obj", "bumpy_sphere.obj"};
    std::vector<gpu::MeshNode> nodes;
    std::vector<gpu::MeshTriangle> triangles;
    std::vector<Mesh> meshes;
    std::vector<std::uint32_t> roots;
    for (const char* name : names) {
        meshes.push_back(loadColliderMesh(test::sourceDir() + "/assets/meshes/" + name));
        roots.push_back(appendMeshCollider(meshes.back(), nodes, triangles));
    }
    ASSERT_GT(roots[1], 0u);
    vk::OneShot once(*ctx_, "mesh upload");
    vk::Buffer nodeBuffer = uploaded(*ctx_, once, nodes, "mesh nodes");
    vk::Buffer triangleBuffer = uploaded(*ctx_, once, triangles, "mesh triangles");
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        std::vector<glm::vec4> points;
        for (const fixtures::Sample& s : fixtures::samplePoints(meshes[m], 40 + std::uint32_t(m), 3000))
            points.push_back({s.p, s.maxDistance});
        std::vector<glm::vec4> got =
            deviceQueries(*ctx_, nodeBuffer, triangleBuffer, roots[m], points);
        int differing = 0, found = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            glm::vec3 g;
            float d = gpu::meshSignedDistance(nodes.data(), triangles.data(), roots[m],
                                              glm::vec3(points[i]), points[i].w, g);
            glm::vec4 want(g, d);
            found += d != points[i].w ? 1 : 0;
            if (std::memcmp(&want, &got[i], 16) != 0 && differing++ < 3)
                ADD_FAILURE() << names[m] << " point " << i << ": cpu (" << want.x << ", " << want.y
                              << ", " << want.z << ", " << want.w << ") gpu (" << got[i].x << ", "
                              << got[i].y << ", " << got[i].z << ", " << got[i].w << ")";
        }
        EXPECT_EQ(differing, 0) << names[m];
        EXPECT_GT(found, 1500) << names[m] << ": too few points within their search radius";
    }
}
