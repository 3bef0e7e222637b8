// GpuSelfCollision's reads for the tests: the tree, the candidates, the contacts, the bounds.
#include "vk/self/self_collision_gpu.h"

namespace cloth::vk {

GpuSelfCollision::Tree GpuSelfCollision::readTree(OneShot& once) const {
    const std::uint32_t n = triangles_;
    const std::size_t nodes = 2ull * n - 1;
    Tree t;
    t.codes.resize(n);
    t.order.resize(n);
    t.parent.resize(nodes);
    t.rangeEnd.resize(nodes);
    t.nodes.resize(nodes);
    download(*ctx_, once, codes_, t.codes.data(), 4ull * n);
    download(*ctx_, once, order_, t.order.data(), 4ull * n);
    download(*ctx_, once, nodeInts_, t.parent.data(), 4 * nodes);
    download(*ctx_, once, nodeInts_, t.rangeEnd.data(), 4 * nodes, 4 * nodes);
    download(*ctx_, once, nodes_, t.nodes.data(), sizeof(gpu::LbvhNode) * nodes);
    return t;
}

std::vector<gpu::SelfCandidate> GpuSelfCollision::readCandidates(OneShot& once) const {
    std::vector<gpu::SelfCandidate> out(state().candidates);
    download(*ctx_, once, candidates_, out.data(), sizeof(gpu::SelfCandidate) * out.size());
    return out;
}

std::vector<gpu::SelfContact> GpuSelfCollision::readContacts(OneShot& once) const {
    const std::vector<gpu::SelfCandidate> cands = readCandidates(once);
    std::vector<glm::vec4> slots(2 * cands.size());
    download(*ctx_, once, slotContacts_, slots.data(), 16 * slots.size());
    std::vector<gpu::SelfContact> out;
    for (std::size_t i = 0; i < cands.size(); ++i) {
        if (!(slots[2 * i].x > 0.0f)) continue;
        const gpu::SelfCandidate& c = cands[i];
        gpu::SelfContact k;
        k.vertices = c.vertices;
        k.weights = slots[2 * i];
        k.normal = slots[2 * i + 1];
        k.info = glm::uvec4(c.kind & 1u, c.keyY, c.keyZ, (c.kind >> 1) & 1u);
        out.push_back(k);
    }
    return out;
}

std::vector<glm::vec4> GpuSelfCollision::readDetected(OneShot& once) const {
    std::vector<glm::vec4> out(vertices_);
    download(*ctx_, once, vertexData_, out.data(), 16 * out.size());
    return out;
}

void GpuSelfCollision::readLists(OneShot& once, std::vector<std::uint32_t>& offsets,
                                 std::vector<std::uint32_t>& slots) const {
    offsets.resize(std::size_t(vertices_) + 1);
    download(*ctx_, once, ints_, offsets.data(), 4 * offsets.size());
    slots.resize(offsets.back());
    download(*ctx_, once, slots_, slots.data(), 4 * slots.size());
}

}  // namespace cloth::vk
