#include "prep/solver_data.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <string>

#include "core/error.h"
#include "core/frame_rate.h"

namespace cloth {

namespace {

// FNV-1a over 32-bit words.
struct WordHash {
    std::uint64_t h = 14695981039346656037ull;
    void add(std::uint64_t word) {
        for (int k = 0; k < 2; ++k) {
            h ^= (word >> (32 * k)) & 0xffffffffull;
            h *= 1099511628211ull;
        }
    }
    void add(float f) { add(std::uint64_t(std::bit_cast<std::uint32_t>(f))); }
};

}  // namespace

SolverDataKey solverDataKey(const PreparedCloth& p) {
    SolverDataKey k;
    k.model = p.sim.model;
    k.scheme = p.sim.iteration.scheme;
    k.integrator = p.sim.massSpring.integrator;
    k.springStep = p.sim.massSpring.step;
    k.airDamping = p.sim.massSpring.airDamping;
    k.substep = substepDt(p.timing);
    k.self = p.sim.selfCollision.has_value();
    k.selfMargin = k.self ? p.sim.selfCollision->margin : 0.0f;
    WordHash sizes;
    for (std::size_t n :
         {p.positions.size(), std::size_t(p.originalVertexCount), p.triangles.size(),
          p.restPositions.size(), p.attachments.size(), p.springTerms.springs.size(),
          p.springTerms.angles.size(), p.pdTerms.triangles.size(), p.pdTerms.bends.size(),
          p.femTerms.triangles.size(), p.femTerms.bends.size(), p.segments.size(),
          std::size_t(p.colorCount)})
        sizes.add(std::uint64_t(n));
    gpu::forEachConstraintType(
        [&](auto t) { sizes.add(std::uint64_t(p.items<typename decltype(t)::Item>().size())); });
    k.sizes = sizes.h;
    WordHash values;
    for (const glm::vec4& x : p.positions) values.add(x.w);
    for (const gpu::Attachment& a : p.attachments) {
        values.add(std::uint64_t(a.vertex));
        values.add(a.param);
    }
    for (const gpu::ClothSegment& s : p.segments) {
        values.add(std::uint64_t(s.vertexBegin) | std::uint64_t(s.vertexEnd) << 32);
        values.add(s.linearDamping);
        values.add(s.rigidDamping);
        values.add(s.thickness);
    }
    k.values = values.h;
    return k;
}

void prepareSolverData(PreparedCloth& p) {
    auto d = std::make_shared<SolverData>();
    d->key = solverDataKey(p);
    if (p.sim.model == ClothModel::Xpbd && p.sim.iteration.scheme != IterationScheme::GaussSeidel)
        d->jacobi = buildJacobiLayout(p);
    if (p.sim.model == ClothModel::Projective) d->pd = buildPdJacobiLayout(p, d->key.substep);
    if (p.sim.model == ClothModel::MassSpring) d->springPlan = planSpringSteps(p);
    if (p.sim.model != ClothModel::Xpbd) {
        const std::uint32_t n = p.originalVertexCount;
        ModelTables t;
        t.damping = p.sim.model == ClothModel::MassSpring ? springDamping(p) : implicitDamping(p);
        t.thickness = springThickness(p);
        t.attachmentOf = springAttachmentOf(p);
        t.rigid = modelRigidTable(p);
        if (p.sim.model == ClothModel::MassSpring)
            t.springs = springIncidence(p.springTerms.springs, n);
        t.angles = stencilIncidence(p.springTerms.angles, n);
        if (p.sim.model == ClothModel::Fem) t.bends = stencilIncidence(p.femTerms.bends, n);
        d->model = std::move(t);
        if (p.sim.model == ClothModel::Fem)
            d->fem = buildFemPlan(p, d->model->angles, d->model->attachmentOf,
                                  double(d->key.substep));
    }
    if (p.sim.selfCollision) {
        SelfRestData s;
        s.triangleThickness = triangleThicknesses(p);
        if (!s.triangleThickness.empty())
            s.leastThickness =
                *std::min_element(s.triangleThickness.begin(), s.triangleThickness.end());
        s.neighbours = findRestNeighbours(p);
        s.pairs = restPairs(p, s.neighbours);
        s.vertexColours = selfVertexColours(p);
        d->self = std::move(s);
    }
    p.solverData = std::move(d);
}

const SolverData& solverData(const PreparedCloth& p, const char* what) {
    if (!p.solverData)
        throw Error(
            std::string(what) +
            ": the prepared scene has no solver data (prepareSolverData, prep/solver_data.h, "
            "builds it)");
    if (!(p.solverData->key == solverDataKey(p)))
        throw Error(std::string(what) +
                    ": the prepared scene's solver data was built for other settings or arrays "
                    "(changed after the preparation: call prepareSolverData again)");
    return *p.solverData;
}

namespace {

template <class T>
const T& part(const std::optional<T>& block, const char* what, const char* name) {
    if (!block)
        throw Error(std::string(what) + ": the prepared scene's solver data has no " + name +
                    " (its settings do not ask for one)");
    return *block;
}

}  // namespace

const JacobiLayout& jacobiLayout(const PreparedCloth& p, const char* what) {
    return part(solverData(p, what).jacobi, what, "Jacobi layout");
}
const PdJacobiLayout& pdLayout(const PreparedCloth& p, const char* what) {
    return part(solverData(p, what).pd, what, "projective dynamics layout");
}
const SpringPlan& springPlan(const PreparedCloth& p, const char* what) {
    return part(solverData(p, what).springPlan, what, "spring step plan");
}
const ModelTables& modelTables(const PreparedCloth& p, const char* what) {
    return part(solverData(p, what).model, what, "model tables");
}
const SelfRestData& selfRestData(const PreparedCloth& p, const char* what) {
    return part(solverData(p, what).self, what, "self-collision rest data");
}

}  // namespace cloth
