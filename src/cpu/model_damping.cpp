#include "cpu/model_damping.h"

#include <bit>

#include "prep/solver_data.h"

namespace cloth {

ModelRigidDamping::ModelRigidDamping(const PreparedCloth& p)
    : table_(modelTables(p, "the models' rigid damping").rigid) {
    dampedOf_.assign(p.originalVertexCount, ~0u);
    for (std::uint32_t r = 0; r < table_.runCount; ++r) {
        const glm::uvec4 run = table_.entries[r];
        for (std::uint32_t i = run.x; i < run.x + run.y; ++i) dampedOf_[i] = run.z;
    }
    partials_.resize(table_.runCount);
    motions_.resize(table_.segmentCount);
}

void ModelRigidDamping::apply(ThreadPool& pool, int member, int size,
                              const std::vector<glm::vec4>& x, std::vector<glm::vec4>& v,
                              std::uint32_t begin, std::uint32_t end,
                              std::vector<glm::vec4>* previous, float h) {
    if (!any()) return;
    std::uint32_t rb, re;
    ThreadPool::split(table_.runCount, member, size, rb, re);
    for (std::uint32_t r = rb; r < re; ++r) {
        const glm::uvec4 run = table_.entries[r];
        const glm::uvec4 seg = table_.entries[table_.runCount + run.z];
        const glm::vec3 ref(x[seg.z]);
        gpu::RigidSums s = gpu::rigidSumsZero();
        for (std::uint32_t i = run.x; i < run.x + run.y; ++i)
            if (x[i].w > 0.0f) s = gpu::rigidSumsAdd(s, glm::vec3(x[i]) - ref, glm::vec3(v[i]), 1.0f / x[i].w);
        partials_[r] = s;
    }
    pool.barrier();
    if (member == 0)
        for (std::uint32_t d = 0; d < table_.segmentCount; ++d) {
            const glm::uvec4 seg = table_.entries[table_.runCount + d];
            gpu::RigidSums total = gpu::rigidSumsZero();
            for (std::uint32_t r = seg.x; r < seg.x + seg.y; ++r)
                total = gpu::rigidSumsCombine(total, partials_[r]);
            motions_[d] = gpu::rigidMotionFromSums(total, glm::vec3(x[seg.z]),
                                                   std::bit_cast<float>(seg.w));
        }
    pool.barrier();
    for (std::uint32_t i = begin; i < end; ++i) {
        if (dampedOf_[i] == ~0u || x[i].w <= 0.0f) continue;
        const glm::vec3 before(v[i]);
        const glm::vec3 after = gpu::rigidDampedVelocity(glm::vec3(x[i]), before, motions_[dampedOf_[i]]);
        v[i] = glm::vec4(after, 0.0f);
        if (previous) (*previous)[i] -= glm::vec4(h * (after - before), 0.0f);
    }
}

}  // namespace cloth
