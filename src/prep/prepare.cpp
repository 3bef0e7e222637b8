#include "prep/prepare.h"
#include "prep/springs.h"
#include "prep/projective.h"
#include "prep/fem.h"

#include <chrono>
#include <cmath>

#include "core/error.h"
#include "core/frame_rate.h"
#include "core/limits.h"
#include "core/stopwatch.h"
#include "prep/batches.h"
#include "prep/cloth_builder.h"
#include "prep/colliders.h"
#include "prep/sewing.h"
#include "prep/solver_data.h"
#include "kernels/feature_contacts.h"
#include "kernels/self_contacts.h"

namespace cloth {

namespace {

void validateSim(const Scene& scene) {
    const std::string max = std::to_string(limits::kMaxSubsteps);
    if (scene.sim.substeps < 1 || scene.sim.substeps > limits::kMaxSubsteps)
        throw Error("scene '" + scene.name + "': substeps must be between 1 and " + max);
    if (scene.sim.iterations < 1 || scene.sim.iterations > limits::kMaxSubsteps)
        throw Error("scene '" + scene.name + "': iterations must be between 1 and " + max);
    const double g = glm::length(glm::dvec3(scene.sim.gravity));
    if (!(g <= limits::kMaxGravity))
        throw Error("scene '" + scene.name + "': gravity of magnitude " + std::to_string(g) +
                    " m/s^2 is beyond the sane range (at most 1000 m/s^2, about 100 g)");
    if (scene.cloths.empty()) throw Error("scene '" + scene.name + "' has no cloth");
    if (scene.sim.wind)
        if (auto problem = windProblem(*scene.sim.wind))
            throw Error("scene '" + scene.name + "': " + *problem);
    if (const auto& c = scene.sim.selfCollision) {
        const std::string where = "scene '" + scene.name + "': self_collision: ";
        if (!(c->staticFriction >= 0.0f && c->staticFriction <= limits::kMaxFriction) ||
            !(c->kineticFriction >= 0.0f && c->kineticFriction <= c->staticFriction))
            throw Error(where + "friction needs 0 <= kinetic <= static <= " +
                        std::to_string(limits::kMaxFriction));
        if (!(c->margin >= 0.0f && c->margin <= limits::kMaxThickness))
            throw Error(where + "margin must be between 0 and " +
                        std::to_string(limits::kMaxThickness) + " m");
        if (c->passes < 1 || c->passes > limits::kMaxSubsteps)
            throw Error(where + "passes must be between 1 and " + max);
    }
}

}  // namespace

// Each vertex's share of the wind: a third of the rest area of every triangle around it, split
// equally between a vertex and its phantom copies (as its mass is), and the original vertex
// whose normal it takes. The acceleration w F of every copy is then that of the unsplit vertex.
void buildWindVertices(PreparedCloth& p, const std::vector<glm::vec4>& rest,
                       const std::vector<glm::uvec3>& restTriangles,
                       const std::vector<std::uint32_t>& mergedInto) {
    std::vector<float> area(p.originalVertexCount, 0.0f);
    for (const glm::uvec3& t : restTriangles) {
        const glm::vec3 a(rest[t.x]), b(rest[t.y]), c(rest[t.z]);
        const float third = 0.5f * glm::length(glm::cross(b - a, c - a)) / 3.0f;
        for (int k = 0; k < 3; ++k) area[t[k]] += third;
    }
    // A sewn vertex carries the area of the vertices merged into it (their cloth is still there).
    for (std::uint32_t v = 0; v < mergedInto.size(); ++v)
        if (mergedInto[v] != v) {
            area[mergedInto[v]] += area[v];
            area[v] = 0.0f;
        }
    p.windVertices.assign(p.vertexCount(), gpu::WindVertex{});
    for (std::uint32_t v = 0; v < p.originalVertexCount; ++v) p.windVertices[v] = {v, area[v]};
    for (const gpu::PhantomGroup& g : p.phantomGroups) {
        const std::uint32_t original = p.phantomMembers[g.first];
        const float share = area[original] / float(g.count);
        for (std::uint32_t k = g.first; k < g.first + g.count; ++k)
            p.windVertices[p.phantomMembers[k]] = {original, share};
    }
}

void buildVertexTriangles(PreparedCloth& p) {
    const std::uint32_t n = p.originalVertexCount;
    p.vertexTriangleOffsets.assign(std::size_t(n) + 1, 0);
    for (const glm::uvec3& t : p.triangles)
        for (int k = 0; k < 3; ++k) ++p.vertexTriangleOffsets[t[k] + 1];
    for (std::uint32_t v = 0; v < n; ++v)
        p.vertexTriangleOffsets[v + 1] += p.vertexTriangleOffsets[v];
    p.vertexTriangles.resize(p.triangles.size() * 3);
    std::vector<std::uint32_t> fill(p.vertexTriangleOffsets.begin(),
                                    p.vertexTriangleOffsets.end() - 1);
    for (std::uint32_t i = 0; i < p.triangles.size(); ++i)
        for (int k = 0; k < 3; ++k) p.vertexTriangles[fill[p.triangles[i][k]]++] = i;
    // For the contacts with colliders' sharp features (src/kernels/feature_contacts.h): each
    // triangle's segment and edge owners: edge e of triangle i is its own unless a
    // lower-indexed triangle around its first corner also holds its second.
    // Self-collision's representative triangles (src/kernels/self_contacts.h) own their
    // vertices too: each vertex its lowest-indexed triangle, the first in its CSR list.
    p.triangleFeatureInfo.clear();
    if (p.colliders.empty() && !p.sim.selfCollision) return;
    p.triangleFeatureInfo.assign(p.triangles.size(), 0u);
    for (std::uint32_t i = 0; i < p.triangles.size(); ++i) {
        for (std::uint32_t s = 0; s < p.segments.size(); ++s)
            if (p.triangles[i].x >= p.segments[s].vertexBegin &&
                p.triangles[i].x < p.segments[s].vertexEnd)
                p.triangleFeatureInfo[i] = s << gpu::TRIANGLE_SEGMENT_SHIFT;
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = p.triangles[i][e], b = p.triangles[i][(e + 1) % 3];
            bool owned = true;
            for (std::uint32_t k = p.vertexTriangleOffsets[a]; k < p.vertexTriangleOffsets[a + 1];
                 ++k) {
                const glm::uvec3& t = p.triangles[p.vertexTriangles[k]];
                if (p.vertexTriangles[k] < i && (t.x == b || t.y == b || t.z == b)) owned = false;
            }
            if (owned) p.triangleFeatureInfo[i] |= 1u << e;
            if (p.vertexTriangles[p.vertexTriangleOffsets[a]] == i)
                p.triangleFeatureInfo[i] |= 1u << (gpu::TRIANGLE_OWNS_VERTEX_SHIFT + e);
        }
    }
}

namespace {

// What the phantom setting asks of colorAndPack, with Auto resolved (see PrepareOptions).
std::optional<PhantomRequest> phantomRequest(const Scene& scene, PhantomSetting setting,
                                             const PrepareOptions& options,
                                             std::uint32_t vertices) {
    if (setting.mode == PhantomMode::Auto) {
        setting = options.resolveAuto ? options.resolveAuto(vertices)
                                      : PhantomSetting{PhantomMode::Target, options.autoTargetColors};
        CLOTH_ASSERT(setting.mode != PhantomMode::Auto);
    }
    if (setting.mode == PhantomMode::Off) return std::nullopt;
    if (setting.targetColors < 1)
        throw Error("scene '" + scene.name + "': a phantom target of 0 colours is out of " +
                    "range (at least 1)");
    return PhantomRequest{setting.targetColors, options.phantomMethod};
}

}  // namespace

float pbdIterationStiffness(float k, int iterations) {
    CLOTH_ASSERT(iterations >= 1);
    return 1.0f - std::pow(1.0f - k, 1.0f / float(iterations));
}

float rigidDampingPerSubstep(float kFrame, double substeps) {
    CLOTH_ASSERT(substeps >= 1.0);
    return 1.0f - std::pow(1.0f - kFrame, 1.0f / float(substeps));
}

PreparedCloth prepareScene(const Scene& scene, const PrepareOptions& options) {
    const auto t0 = Clock::now();
    auto stage = [&](const char* what) {
        if (options.stage) options.stage(what);
    };
    validateSim(scene);
    const PhantomSetting phantoms = options.phantoms.value_or(scene.phantoms);
    PreparedCloth p;
    p.sim = scene.sim;
    p.timing = frameTiming(scene.sim, scene.name);
    std::vector<std::uint32_t> clothBegin;
    stage("building the cloths' meshes and constraints");
    for (std::uint32_t i = 0; i < scene.cloths.size(); ++i) {
        clothBegin.push_back(p.vertexCount());
        appendCloth(scene.cloths[i], i, scene.sim, p);
    }
    p.originalVertexCount = p.vertexCount();
    if (p.sim.selfCollision) p.restPositions = p.positions;
    for (auto& seg : p.segments) seg.phantomBegin = seg.phantomEnd = p.originalVertexCount;
    stage("the colliders, seams and each vertex's triangles");
    addColliders(scene, p);
    addSeams(scene, p);
    buildVertexTriangles(p);
    if (p.sim.model != ClothModel::Xpbd) stage("the model's own terms");
    if (p.sim.model == ClothModel::MassSpring) buildSprings(scene, clothBegin, p);
    if (p.sim.model == ClothModel::Projective) buildProjective(scene, clothBegin, p);
    if (p.sim.model == ClothModel::Fem) buildFem(scene, clothBegin, p);
    const auto request = phantomRequest(scene, phantoms, options, p.originalVertexCount);
    if (!p.seamPairs.empty()) p.sewingBase = std::make_shared<SewingBase>(SewingBase{p, request});
    stage("colouring and packing the constraints");
    colorAndPack(p, request);
    if (p.sim.wind) buildWindVertices(p, p.positions, p.triangles, {});
    // Pairs closer than their merge distance from the start are merged at once.
    if (!p.seamPairs.empty()) {
        stage("merging the seams already closed");
        const std::vector<std::uint32_t> close = seamPairsToMerge(p, p.positions);
        if (!close.empty()) p = mergeSeamPairs(p, close, {p.positions, p.velocities, 0.0});
        p.run.sewingRebuilds = 0;
    }
    if (!p.solverData) {  // (a merge above made it)
        stage("the solvers' layouts, plans and rest data");
        prepareSolverData(p);
    }
    p.stats.prepareMs = msSince(t0);
    return p;
}

}  // namespace cloth
