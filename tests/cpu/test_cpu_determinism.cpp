// The CPU reference gives bit-identical results for any thread count (docs/design.md, 'Determinism is tested').
#include <cstring>
#include <optional>

#include <gtest/gtest.h>

#include "core/error.h"
#include "cpu/backend.h"
#include "prep/prepare.h"
#include "core/material_presets.h"
#include "fixtures/scenes.h"
#include "cpu_test_util.h"

using namespace cloth;

namespace {

using test::fnv1a;

// Everything at once: two cloths (one with a circling attachment and both kinds of damping),
// tethers, stretch and bending, several iterations.
Scene everythingScene() {
    Scene s = fixtures::hangingScene(12);
    s.sim.iterations = 3;
    s.sim.substeps = 4;
    ClothDesc swirl = s.cloths[0];
    swirl.name = "swirl";
    swirl.pins = {};
    swirl.transform.translate.x = 2.0f;
    AttachmentDesc a;
    a.vertices.regions = {"top_corners"};
    a.motion.type = MotionType::Circle;
    a.motion.radius = 0.2f;
    a.motion.period = 1.0f;
    swirl.attachments.push_back(a);
    swirl.material.linearDamping = 0.2f;
    swirl.material.rigidDamping = 0.3f;
    s.cloths.push_back(swirl);
    return s;
}

std::uint64_t hashAfter(const PreparedCloth& p, int threads, int frames,
                        std::optional<BatchIsa> kernels = std::nullopt) {
    auto solver = makeCpuSolver(p, threads, kernels, 0);
    for (int i = 0; i < frames; ++i) solver->stepFrame();
    std::vector<glm::vec4> pos, vel;
    solver->readPositions(pos);
    solver->readVelocities(vel);
    pos.insert(pos.end(), vel.begin(), vel.end());
    return fnv1a(pos);
}

TEST(CpuDeterminism, SameHashForOneTwoAndFourThreads) {
    const PreparedCloth p = prepareScene(everythingScene(), {});
    ASSERT_GT(p.attachments.size(), 0u);
    ASSERT_GT(p.tethers.size(), 0u);
    const std::uint64_t h1 = hashAfter(p, 1, 100);
    EXPECT_EQ(hashAfter(p, 2, 100), h1);
    EXPECT_EQ(hashAfter(p, 4, 100), h1);
    EXPECT_EQ(hashAfter(p, 3, 100), h1);
    // The run moved something: the hash differs from the initial state's.
    EXPECT_NE(hashAfter(p, 1, 0), h1);
}

// The continuum types on top: one cloth with the StVK membrane and isometric bending (vec4
// multipliers), the other with the membrane, dihedral bending and creases (fixed angles).
Scene continuumScene() {
    Scene s = everythingScene();
    const MaterialPreset cotton = *findMaterialPreset("cotton");
    for (ClothDesc& c : s.cloths) {
        c.material.stretchModel = StretchModel::Stvk;
        c.material.membrane = cotton.membrane;
    }
    s.cloths[0].material.bendModel = BendModel::Isometric;
    FixedAngleDesc crease;
    crease.angleDegrees = 40.0f;
    crease.edges.lines.push_back({glm::vec3(0.0f, -0.5f, 0.0f), glm::vec3(0.0f, 0.5f, 0.0f)});
    s.cloths[1].fixedAngles.push_back(crease);
    return s;
}

// Every way of solving a colour's batch (one constraint at a time, blocks in plain C++, SSE2,
// AVX2, AVX-512) gives the same bits over a whole run, on 1 and 2 threads; a CPU without AVX2
// or AVX-512 refuses it by name.
// 60 frames; 12 on the sanitizer build's checked copy of the solver (cpu_info.h), whose
// instrumented -O0 kernels run about 20 times slower: the sanitizers check the same loads and
// stores in every frame, and a bit that differs in any of the 144 sweeps of 12 frames (4 substeps,
// 3 iterations) stays in the hashed state.
void expectSameHashForEveryKernelVariant(const PreparedCloth& p) {
    const int frames = cpuSolverIsCheckedCopy() ? 12 : 60;
    const std::uint64_t want = hashAfter(p, 1, frames, BatchIsa::Scalar);
    EXPECT_NE(hashAfter(p, 1, 0), want);
    int compared = 0;
    for (BatchIsa isa : kBatchIsas) {
        if (!batchIsaAvailable(isa)) {
            EXPECT_THROW(makeCpuSolver(p, 1, isa), Error) << batchIsaName(isa);
            continue;
        }
        for (int threads : {1, 2}) {
            EXPECT_EQ(hashAfter(p, threads, frames, isa), want)
                << batchIsaName(isa) << ", " << threads << " threads";
            ++compared;
        }
    }
    EXPECT_GE(compared, 6);  // scalar, portable and SSE2 exist on every x86-64 CPU
    EXPECT_EQ(hashAfter(p, 2, frames), want);  // the default kernels too
}

}  // namespace

TEST(CpuDeterminism, SameHashForEveryKernelVariant) {
    expectSameHashForEveryKernelVariant(prepareScene(everythingScene(), {}));
}

// The same for the StVK membrane, isometric bending (vec4 multipliers, staged in the block
// component by component) and fixed angles.
TEST(CpuDeterminism, SameHashForEveryKernelVariantOnTheContinuumTypes) {
    const PreparedCloth p = prepareScene(continuumScene(), {});
    ASSERT_GT(p.set<gpu::StvkConstraint>().items.size(), 100u);
    ASSERT_GT(p.set<gpu::IsoBendingConstraint>().items.size(), 100u);
    ASSERT_GT(p.set<gpu::BendingConstraint>().items.size(), 100u);
    ASSERT_GT(p.set<gpu::FixedAngleConstraint>().items.size(), 5u);
    expectSameHashForEveryKernelVariant(p);
}

// Jacobi and Chebyshev (the same solve, Chebyshev's weights on top; phantoms and damping
// included): each item writes only its own delta slots and each vertex adds its slots in an
// order fixed at load, so 1, 2, 3 and 4 threads give the same bits.
TEST(CpuDeterminism, JacobiAndChebyshevGiveTheSameHashForAnyThreadCount) {
    for (IterationScheme scheme : {IterationScheme::Jacobi, IterationScheme::Chebyshev}) {
        Scene s = everythingScene();
        s.sim.iteration.scheme = scheme;
        PrepareOptions o;
        o.phantoms = PhantomSetting{PhantomMode::Target, 6};
        const PreparedCloth p = prepareScene(s, o);
        ASSERT_GT(p.phantomGroups.size(), 0u);
        const std::uint64_t h1 = hashAfter(p, 1, 60);
        EXPECT_NE(hashAfter(p, 1, 0), h1);
        for (int threads : {2, 3, 4})
            EXPECT_EQ(hashAfter(p, threads, 60), h1)
                << iterationSchemeName(scheme) << ", " << threads << " threads";
    }
}
