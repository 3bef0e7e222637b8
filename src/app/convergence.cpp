#include "app/convergence.h"

#include <algorithm>

#include "kernels/constraints.h"
#include "core/error.h"
#include "prep/solver_data.h"

namespace cloth {

PreparedCloth withSolverState(const PreparedCloth& p, Solver& solver) {
    PreparedCloth s = p;
    std::vector<glm::vec4> x, v;
    solver.readPositions(x);
    solver.readVelocities(v);
    CLOTH_ASSERT(x.size() >= p.positions.size() && v.size() >= p.positions.size());
    for (std::size_t i = 0; i < p.positions.size(); ++i) {
        s.positions[i] = glm::vec4(glm::vec3(x[i]), p.positions[i].w);
        s.velocities[i] = glm::vec4(glm::vec3(v[i]), 0.0f);
    }
    s.run.time = solver.simTime();
    return s;
}

void copyStateOntoPhantoms(const PreparedCloth& from, PreparedCloth& to) {
    CLOTH_ASSERT(from.originalVertexCount == to.originalVertexCount);
    to.velocities.resize(to.positions.size(), glm::vec4(0.0f));
    for (std::uint32_t i = 0; i < to.originalVertexCount; ++i) {
        to.positions[i] = glm::vec4(glm::vec3(from.positions[i]), to.positions[i].w);
        to.velocities[i] = from.velocities[i];
    }
    for (const gpu::PhantomGroup& g : to.phantomGroups) {
        std::uint32_t original = ~0u;
        for (std::uint32_t k = 0; k < g.count; ++k)
            if (to.phantomMembers[g.first + k] < to.originalVertexCount)
                original = to.phantomMembers[g.first + k];
        CLOTH_ASSERT(original != ~0u);
        for (std::uint32_t k = 0; k < g.count; ++k) {
            const std::uint32_t m = to.phantomMembers[g.first + k];
            to.positions[m] = glm::vec4(glm::vec3(to.positions[original]), to.positions[m].w);
            to.velocities[m] = to.velocities[original];
        }
    }
    to.run.time = from.run.time;
}

PreparedCloth settledStart(const PreparedCloth& p, const SolverFactory& make, int frames) {
    auto solver = make(p);
    for (int f = 0; f < frames; ++f) solver->stepFrame();
    return withSolverState(p, *solver);
}

PreparedCloth oneSubstep(const PreparedCloth& start) {
    PreparedCloth p = start;
    p.timing.frameDt = start.timing.frameDt / static_cast<float>(start.timing.substeps);
    p.timing.substeps = 1;
    return p;
}

double initialResidual(const PreparedCloth& startState) {
    const PreparedCloth start = oneSubstep(startState);
    const float dt = start.timing.frameDt;
    std::vector<glm::vec4> x = start.positions, v = start.velocities, predicted(x.size());
    v.resize(x.size(), glm::vec4(0.0f));
    for (std::size_t i = 0; i < x.size(); ++i)
        gpu::predictVertex(x[i], v[i], predicted[i], start.sim.gravity, dt);
    TypeMultipliers zero;
    gpu::forEachConstraintType([&](auto t) {
        zero[t.kIndex].assign(start.items<typename decltype(t)::Item>().size(), glm::vec4(0.0f));
    });
    return computeMetrics(start, x, v, zero).residualNorm;
}

ConvergencePoint measureConvergence(const PreparedCloth& start, const SolverFactory& make,
                                    const IterationSettings& scheme, int iterations) {
    PreparedCloth p = oneSubstep(start);
    p.sim.iterations = iterations;
    p.sim.iteration = scheme;
    prepareSolverData(p);  // the layouts of the scheme and the substep measured
    std::unique_ptr<Solver> solver = make(p);
    solver->keepMultipliers(true);
    solver->stepFrame();
    const FrameMetrics m = measureFrame(p, *solver);
    ConvergencePoint c;
    c.iterations = iterations;
    c.residual = m.residualNorm;
    c.residualMax = m.residualMax;
    return c;
}

std::optional<ConvergencePoint> iterationsToReach(const PreparedCloth& start,
                                                  const SolverFactory& make,
                                                  const IterationSettings& scheme, double target,
                                                  int maxIterations) {
    int lo = 0;  // fails (0: nothing measured)
    int hi = 1;
    std::optional<ConvergencePoint> found;
    for (;;) {  // doubling
        ConvergencePoint c = measureConvergence(start, make, scheme, hi);
        if (c.residual <= target) {
            found = c;
            break;
        }
        lo = hi;
        if (hi >= maxIterations) return std::nullopt;
        hi = std::min(2 * hi, maxIterations);
    }
    while (hi - lo > 1) {  // bisection: lo fails, hi reaches
        const int mid = lo + (hi - lo) / 2;
        ConvergencePoint c = measureConvergence(start, make, scheme, mid);
        if (c.residual <= target) {
            hi = mid;
            found = c;
        } else {
            lo = mid;
        }
    }
    return found;
}

}  // namespace cloth
