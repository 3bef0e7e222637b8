// Mouse grab (Solver::setGrab): a hard attachment of one vertex to a target, which must hold
// even when the vertex is split into phantom copies.
#include <gtest/gtest.h>

#include "core/error.h"
#include "cpu/backend.h"
#include "prep/prepare.h"
#include "fixtures/scenes.h"

using namespace cloth;

namespace {

// The original vertex with the most phantom copies (or vertex `fallback` without phantoms).
std::uint32_t mostSplitVertex(const PreparedCloth& p, std::uint32_t fallback) {
    std::uint32_t best = fallback, count = 0;
    for (const gpu::PhantomGroup& g : p.phantomGroups)
        if (g.count > count) count = g.count, best = p.phantomMembers[g.first];
    return best;
}

float grabbedDistance(const PhantomSetting& phantoms) {
    PrepareOptions opt;
    opt.phantoms = phantoms;
    const PreparedCloth p = prepareScene(fixtures::hangingScene(12), opt);
    const std::uint32_t v = mostSplitVertex(p, 80);
    auto solver = makeCpuSolver(p, 2);
    const glm::vec3 target = glm::vec3(p.positions[v]) + glm::vec3(0.2f, 0.1f, 0.3f);
    solver->setGrab(Grab{v, target});
    for (int f = 0; f < 30; ++f) solver->stepFrame();
    std::vector<glm::vec4> pos;
    solver->readPositions(pos);
    solver->setGrab(std::nullopt);
    solver->stepFrame();  // released: no longer held
    std::vector<glm::vec4> after;
    solver->readPositions(after);
    EXPECT_GT(glm::distance(glm::vec3(after[v]), target), 1e-4f);
    return glm::distance(glm::vec3(pos[v]), target);
}

}  // namespace

TEST(CpuGrab, GrabbedVertexFollowsTheTarget) {
    EXPECT_LT(grabbedDistance({PhantomMode::Off, 0}), 1e-3f);
}

TEST(CpuGrab, GrabHoldsASplitVertex) {
    PrepareOptions opt;
    opt.phantoms = PhantomSetting{PhantomMode::Target, 8};
    ASSERT_FALSE(prepareScene(fixtures::hangingScene(12), opt).phantomGroups.empty());
    EXPECT_LT(grabbedDistance({PhantomMode::Target, 8}), 1e-3f);
}

TEST(CpuGrab, OutOfRangeVertexIsRefused) {
    const PreparedCloth p = prepareScene(fixtures::hangingScene(4), {});
    auto solver = makeCpuSolver(p, 1);
    EXPECT_THROW(solver->setGrab(Grab{p.originalVertexCount, glm::vec3(0.0f)}), Error);
}
