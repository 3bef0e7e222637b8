#include "cpu/cpu_solver.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/stopwatch.h"
#include "kernels/collider.h"
#include "kernels/constraints.h"
#include "kernels/wind.h"
#include "core/error.h"
#include "cpu/batch_kernels.h"
#include "cpu/cpu_info.h"
#include "cpu/float_env.h"
#include "cpu/rigid_contacts.h"
#include "cpu/self/self_collision.h"
#include "cpu/team.h"
#include "cpu/thread_pool.h"
#include "kernels/jacobi.h"
#include "prep/solver_data.h"
#include "sim/schedule.h"

namespace cloth {
namespace {

using gpu::RigidMotion;
using gpu::RigidSums;
// What a Jacobi local solve loads and stores positions through: the item's vertices, gathered
// (with their scaled inverse masses) into local copies. Found by vertex index, as the shader's
// (shaders/solver/jacobi.glsl) are.
struct JacobiLocal {
    std::uint32_t index[4];
    glm::vec4 p[4];
    int count;
};
inline int jacobiSlot(const JacobiLocal& l, std::uint32_t v) {
    for (int j = 0; j < l.count; ++j)
        if (l.index[j] == v) return j;
    CLOTH_ASSERT(false);
    return 0;
}
inline glm::vec4 clothLoad(JacobiLocal& l, std::uint32_t v) { return l.p[jacobiSlot(l, v)]; }
inline void clothStore(JacobiLocal& l, std::uint32_t v, const glm::vec4& x) {
    l.p[jacobiSlot(l, v)] = x;
}

template <class Item>
using LambdaVector = std::vector<BatchLambda<Item>>;

constexpr std::uint32_t kChunk = 256;  // vertices per reduction chunk

// Velocities (and damping sums) go chunk by chunk (VertexChunk, cpu/rigid_contacts.h).
using Chunk = VertexChunk;

class CpuSolver final : public Solver {
public:
    CpuSolver(SharedCloth prepared, int threads, BatchIsa isa, std::uint32_t workPerThread);

    const char* backendName() const override { return "cpu"; }
    std::string deviceName() const override { return cpuModelName(); }
    int threadCount() const override { return pool_.size(); }
    int threadsUsed() const override { return team_.used(); }
    std::optional<TeamReport> teamReport() const override { return cpuTeamReport(team_); }
    void stepFrame() override;
    double simTime() const override { return time_; }
    void readPositions(std::vector<glm::vec4>& out) override { out = pos_; }
    void readVelocities(std::vector<glm::vec4>& out) override { out = vel_; }
    void keepMultipliers(bool) override {}  // always kept
    void readMultipliers(std::size_t type, std::vector<glm::vec4>& out) override {
        CLOTH_ASSERT(type < gpu::kConstraintTypeCount);
        gpu::forEachConstraintType([&](auto t) {
            using T = decltype(t);
            if (T::kIndex != type) return;
            const auto& lambdas = std::get<T::kIndex>(lambdas_);
            out.assign(lambdas.size(), glm::vec4(0.0f));
            for (std::size_t i = 0; i < lambdas.size(); ++i) out[i] = glm::vec4(lambdas[i]);
        });
    }
    void readNormals(std::vector<glm::vec4>& out) override { out = normals_; }
    std::vector<StageTime> stageTimes() const override;
    void setGrab(std::optional<Grab> grab) override;
    std::uint32_t contactCount() const override { return rigid_ ? rigid_->contactCount() : 0; }
    SelfCounts selfCounts() const override;

private:
    void runFrame(int member, int size);
    void runStep(int member, int size, const ScheduleEntry& e, const StepContext& c,
                 Clock::time_point& last);
    void mark(int member, int stage, Clock::time_point& last);
    void addTime(int member, int stage, Clock::time_point& last);

    void applyWind(int member, int size, const gpu::WindParams& wind);
    void predict(int member, int size);
    void solveColours(int member, int size, const gpu::SolveParams& sp, Clock::time_point& last);
    void solveJacobi(int member, int size, const StepContext& c, Clock::time_point& last);
    void solveAttachments(int member, int size, const gpu::SolveParams& sp);
    void solveTethers(int member, int size);
    void applyGrab(const gpu::SolveParams& sp);
    void averagePhantoms(int member, int size);
    void updateVelocities(int member, int size);
    void computeRigidMotions();
    void applyDamping(int member, int size);
    void computeNormals(int member, int size);
    glm::vec3 normalSum(std::uint32_t v) const;

    SharedCloth shared_;      // the prepared scene: read, never copied (sim/solver.h)
    const PreparedCloth& p_;  // *shared_
    float dt_ = 0.0f;
    double time_ = 0.0;
    std::vector<glm::vec4> pos_, pred_, vel_, normals_;
    gpu::PerConstraintType<LambdaVector> lambdas_;  // per constraint type, per item
    std::vector<float> lambdaAttachment_;
    std::optional<Grab> grab_;
    std::vector<std::uint32_t> grabbed_;  // the grabbed vertex and its phantom copies
    std::vector<Chunk> chunks_;
    std::vector<RigidSums> chunkSums_;
    std::vector<RigidSums> segmentSums_;  // per segment
    std::vector<RigidMotion> motions_;    // per segment
    bool anyDamping_ = false;
    // Contacts with the scene's colliders (scenes with them; cpu/rigid_contacts.h).
    std::unique_ptr<RigidContacts> rigid_;
    // Self-collision (scenes with it): the detection and solve, and the positions at the
    // substep's start (written by predict()).
    std::unique_ptr<SelfCollision> self_;
    std::vector<glm::vec4> start_;
    // Jacobi and Chebyshev iterations (src/kernels/jacobi.h): the layout, each item's moves,
    // the previous iterate's positions and multipliers (one vec4 per item).
    const JacobiLayout* jacobi_ = nullptr;  // p_.solverData's, under Jacobi and Chebyshev
    std::vector<glm::vec4> deltas_, prevPositions_, prevLambdas_;
    BatchIsa isa_;
    std::array<double, kStageCount> stageMs_{};
    ThreadPool pool_;
    CpuTeam team_;  // the members of each frame (cpu/team.h)
};

CpuSolver::CpuSolver(SharedCloth prepared, int threads, BatchIsa isa, std::uint32_t workPerThread)
    : shared_(std::move(prepared)),
      p_(*shared_),
      isa_(isa),
      pool_(threads),
      team_(cpuTeamSize(p_, threads, workPerThread), threads, workPerThread != 0,
            TeamLoadSource::system(pool_)) {
    CLOTH_ASSERT(p_.timing.substeps >= 1 && p_.sim.iterations >= 1);
    CLOTH_ASSERT(!p_.sim.wind || p_.windVertices.size() == p_.positions.size());
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        using Item = typename T::Item;
        CLOTH_ASSERT(p_.set<Item>().colorOffsets.size() == p_.colorCount + 1u);
        std::get<T::kIndex>(lambdas_).assign(p_.items<Item>().size(), BatchLambda<Item>(0.0f));
    });
    dt_ = substepDt(p_.timing);
    time_ = p_.run.time;  // a solver re-created mid-run (sewing) keeps the clock
    pos_ = p_.positions;
    pred_ = p_.positions;
    vel_ = p_.velocities;
    vel_.resize(pos_.size(), glm::vec4(0.0f));
    normals_.assign(p_.originalVertexCount, glm::vec4(0.0f, 0.0f, 1.0f, 0.0f));
    lambdaAttachment_.assign(p_.attachments.size(), 0.0f);
    std::uint32_t covered = 0;
    for (std::uint32_t s = 0; s < p_.segments.size(); ++s) {
        const auto& seg = p_.segments[s];
        anyDamping_ = anyDamping_ || seg.rigidDamping > 0.0f;
        for (auto [b, e] : {std::pair{seg.vertexBegin, seg.vertexEnd},
                            std::pair{seg.phantomBegin, seg.phantomEnd}}) {
            for (std::uint32_t c = b; c < e; c += kChunk)
                chunks_.push_back({s, c, std::min(e, c + kChunk)});
            covered += e - b;
        }
    }
    CLOTH_ASSERT(covered == pos_.size());  // every vertex belongs to exactly one segment range
    chunkSums_.resize(chunks_.size());
    if (!p_.colliders.empty()) rigid_ = std::make_unique<RigidContacts>(p_, pos_);
    if (p_.sim.selfCollision) {
        self_ = std::make_unique<SelfCollision>(p_);
        start_ = pos_;
    }
    segmentSums_.resize(p_.segments.size());
    motions_.resize(p_.segments.size());
    if (p_.sim.iteration.scheme != IterationScheme::GaussSeidel) {
        checkIterationSettings(p_.sim.iteration, "iteration");
        jacobi_ = &jacobiLayout(p_, "the CPU solver");
        deltas_.assign(jacobi_->deltaCount, glm::vec4(0.0f));
        prevLambdas_.assign(jacobi_->lambdaCount, glm::vec4(0.0f));
        prevPositions_ = pos_;
    }
    computeNormals(0, 1);
}

void CpuSolver::stepFrame() {
    stageMs_.fill(0.0);
    pool_.run([this](int member, int size) { runFrame(member, size); }, team_.beginFrame());
    time_ += static_cast<double>(dt_) * p_.timing.substeps;
    team_.endFrame();
    if (self_) self_->endFrame();
}

// The error model's key of the step a member's thread is in (cpu/float_env.h, roundAt).
static thread_local std::uint64_t roundingWhere = 0;

// The frame is the shared schedule (sim/schedule.h), every member of the team walking it in step.
void CpuSolver::runFrame(int member, int size) {
    const FlushSubnormals flush;  // on every member's thread, for the frame
    Clock::time_point last = Clock::now();
    std::uint64_t timeBits = 0;
    std::memcpy(&timeBits, &time_, sizeof timeBits);
    forEachStep(p_.sim, p_.timing, time_, [&](const ScheduleEntry& e, const StepContext& c) {
        // clothcheck's error model only (cpu/float_env.h): nothing when rounding to nearest.
        roundingWhere = roundingKey(
            roundingKey(timeBits, std::uint64_t(c.substep) << 20 | std::uint64_t(c.iteration)),
            static_cast<std::uint64_t>(e.step));
        roundAt(roundingWhere);
        runStep(member, size, e, c, last);
    });
}

void CpuSolver::runStep(int member, int size, const ScheduleEntry& e, const StepContext& c,
                        Clock::time_point& last) {
    switch (e.step) {
        case Step::Wind:
            if (!p_.sim.wind) return;
            applyWind(member, size, c.wind);
            break;
        case Step::Collisions:
            if (!rigid_) return;
            rigid_->begin(pool_, member, size, c, chunks_, pos_, self_ ? start_.data() : nullptr);
            break;
        case Step::Predict:
            predict(member, size);
            break;
        case Step::SelfCollisions:
            if (!self_) return;
            self_->collide(pool_, member, size, start_.data(), pred_.data(), c.substep == 0,
                           [&](int stage) { mark(member, stage, last); });
            return;  // marks its own stages
        case Step::SelfContacts:
            if (!self_) return;
            self_->solve(pool_, member, size, pos_.data(), start_.data());
            break;
        case Step::SelfBounds:
            if (!self_) return;
            self_->clamp(pool_, member, size, pos_.data(), start_.data(), pred_.data());
            break;
        case Step::Contacts:
            if (!rigid_) return;
            rigid_->solve(pool_, member, size, chunks_, pos_, vel_, dt_);
            break;
        case Step::Restitution:
            if (!rigid_ || !rigid_->anyRestitution()) return;
            rigid_->restitute(member, size, vel_);
            break;
        case Step::Colors:
            if (jacobi_)
                solveJacobi(member, size, c, last);
            else
                solveColours(member, size, c.solve, last);
            return;  // marks its own stages
        case Step::Attachments:
            solveAttachments(member, size, c.solve);
            break;
        case Step::Tethers:
            solveTethers(member, size);
            break;
        case Step::Grab:
            if (!grab_) return;
            if (member == 0) applyGrab(c.solve);
            pool_.barrier();
            return;
        case Step::Phantoms:
            if (p_.phantomGroups.empty()) return;
            averagePhantoms(member, size);
            break;
        case Step::Velocities:
            updateVelocities(member, size);
            break;
        case Step::Damping:
            if (!anyDamping_) return;
            if (member == 0) computeRigidMotions();
            pool_.barrier();
            applyDamping(member, size);
            break;
        case Step::Normals:
            computeNormals(member, size);
            break;
        case Step::SpringForces: case Step::SpringMove: case Step::PdLocal: case Step::PdGlobal:
        case Step::PdResult: case Step::FemForces: case Step::FemSolve: case Step::FemMove:
            throw Error("XPBD: step " + std::to_string(int(e.step)) + " is another model's");
    }
    mark(member, e.stage, last);
}

void CpuSolver::mark(int member, int stage, Clock::time_point& last) {
    pool_.barrier();
    addTime(member, stage, last);
}

// The time since `last` to `stage` (member 0 keeps the times), without a barrier.
void CpuSolver::addTime(int member, int stage, Clock::time_point& last) {
    if (member != 0) return;
    const auto now = Clock::now();
    stageMs_[stage] += std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
}

// Reads positions (the normals of the original vertices) and writes each vertex's own velocity:
// any split of the vertices gives the same bits.
void CpuSolver::applyWind(int member, int size, const gpu::WindParams& wind) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(pos_.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::WindVertex wv = p_.windVertices[i];
        const glm::vec3 n = gpu::windNormal(normalSum(wv.normalVertex));
        vel_[i] += glm::vec4(
            gpu::windVelocityChange(glm::vec3(vel_[i]), pos_[i].w, n, wv.area, wind), 0.0f);
    }
}

void CpuSolver::predict(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(pos_.size()), member, size, b, e);
    const glm::vec3 g = p_.sim.gravity;
    if (self_ && !rigid_)  // else RigidContacts::begin() did, before pre-stabilising
        for (std::uint32_t i = b; i < e; ++i) start_[i] = pos_[i];
    for (std::uint32_t i = b; i < e; ++i) gpu::predictVertex(pos_[i], vel_[i], pred_[i], g, dt_);
}

void CpuSolver::solveColours(int member, int size, const gpu::SolveParams& sp,
                             Clock::time_point& last) {
    for (std::uint32_t c = 0; c < p_.colorCount; ++c) {
        roundAt(roundingKey(roundingWhere, c + 1));  // the error model's (cpu/float_env.h)
        // The types of a colour share no vertex either: a barrier after the last one only.
        gpu::forEachConstraintType([&](auto t) {
            using T = decltype(t);
            using Item = typename T::Item;
            const ColoredSet<Item>& set = p_.set<Item>();
            std::uint32_t b, e;
            const std::uint32_t first = set.colorOffsets[c];
            ThreadPool::split(set.colorSize(c), member, size, b, e);
            solveBatch(isa_, pos_.data(), set.items.data(),
                       std::get<T::kIndex>(lambdas_).data(), first + b, first + e, sp);
            addTime(member, kStageFirstType + static_cast<int>(T::kIndex), last);
        });
        mark(member, kStageColourWaits, last);
        if (p_.sim.averagePhantomsEachColor && !p_.phantomGroups.empty()) {
            averagePhantoms(member, size);
            mark(member, kStagePhantoms, last);
        }
    }
}

// Both passes of a Jacobi or Chebyshev iteration (src/kernels/jacobi.h), in the order of the
// shader's: every item of each type (any split of them gives the same bits: each writes its own
// slots), then every vertex.
void CpuSolver::solveJacobi(int member, int size, const StepContext& ctx, Clock::time_point& last) {
    const gpu::SolveParams& sp = ctx.solve;
    const JacobiLayout& L = *jacobi_;
    gpu::forEachConstraintType([&](auto t) {
        using T = decltype(t);
        using Item = typename T::Item;
        using Lambda = typename T::Lambda;
        constexpr int V = T::kVertices;
        const std::vector<Item>& items = p_.items<Item>();
        auto& lambdas = std::get<T::kIndex>(lambdas_);
        std::uint32_t b, e;
        ThreadPool::split(static_cast<std::uint32_t>(items.size()), member, size, b, e);
        glm::vec4* deltas = deltas_.data() + L.deltaBase[T::kIndex];
        glm::vec4* prevLambdas = prevLambdas_.data() + L.lambdaBase[T::kIndex];
        for (std::uint32_t k = b; k < e; ++k) {
            const Item& item = items[k];
            JacobiLocal local;
            local.count = V;
            glm::vec4 before[V];
            for (int j = 0; j < V; ++j) {
                const std::uint32_t v = gpu::itemVertex(item, j);
                glm::vec4 p = pos_[v];
                p.w *= L.vertices[v].scale;
                local.index[j] = v;
                local.p[j] = p;
                before[j] = p;
            }
            const Lambda current = sp.firstIteration ? Lambda(0.0f) : lambdas[k];
            Lambda lambda = lambdas[k];
            T::solve(local, item, lambda, sp);
            for (int j = 0; j < V; ++j) deltas[k * V + j] = gpu::jacobiDelta(local.p[j], before[j]);
            Lambda previous;
            if constexpr (std::is_same_v<Lambda, float>)
                previous = prevLambdas[k].x;
            else
                previous = prevLambdas[k];
            lambdas[k] = gpu::jacobiCombine(lambda, current, previous, ctx.omega, ctx.gamma);
            prevLambdas[k] = glm::vec4(current);
        }
        addTime(member, kStageFirstType + static_cast<int>(T::kIndex), last);
    });
    mark(member, kStageColourWaits, last);
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(pos_.size()), member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        const gpu::JacobiVertex jv = L.vertices[v];
        glm::vec3 sum(0.0f);
        for (std::uint32_t s = jv.begin; s < jv.end; ++s) sum += glm::vec3(deltas_[L.sources[s]]);
        const glm::vec4 next =
            gpu::jacobiVertexPosition(pos_[v], prevPositions_[v], sum, jv, ctx.omega, ctx.gamma);
        prevPositions_[v] = pos_[v];
        pos_[v] = next;
    }
    mark(member, kStageJacobiSums, last);
}

void CpuSolver::solveAttachments(int member, int size, const gpu::SolveParams& sp) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(p_.attachments.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::Attachment& a = p_.attachments[i];
        const glm::vec3 target = glm::vec3(a.anchor) + gpu::motionOffset(p_.motions[a.motion], sp.time);
        gpu::projectAttachment(pos_[a.vertex], target, a.param, lambdaAttachment_[i], sp);
    }
}

// The mouse grab wins over attachments and tethers: it runs after both, on the grabbed vertex
// and all its phantom copies (so the averaging that follows keeps it on the target).
void CpuSolver::applyGrab(const gpu::SolveParams& sp) {
    for (std::uint32_t v : grabbed_) {
        float lambda = 0.0f;  // hard: alpha~ = 0, lambda plays no part
        gpu::projectAttachment(pos_[v], grab_->target, 0.0f, lambda, sp);
    }
}

void CpuSolver::solveTethers(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(p_.tethers.size()), member, size, b, e);
    for (std::uint32_t i = b; i < e; ++i) {
        const gpu::Tether& t = p_.tethers[i];
        gpu::projectTether(pos_[t.vertex], glm::vec3(pos_[t.anchor]), t.maxLength);
    }
}

void CpuSolver::averagePhantoms(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(p_.phantomGroups.size()), member, size, b, e);
    glm::vec4* positions = pos_.data();
    for (std::uint32_t g = b; g < e; ++g)
        gpu::averagePhantomGroup(positions, p_.phantomMembers.data(), p_.phantomGroups[g]);
}

void CpuSolver::updateVelocities(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(chunks_.size()), member, size, b, e);
    const float invDt = 1.0f / dt_;
    for (std::uint32_t c = b; c < e; ++c) {
        const Chunk& ch = chunks_[c];
        const gpu::ClothSegment& seg = p_.segments[ch.segment];
        const float factor = std::max(0.0f, 1.0f - seg.linearDamping * dt_);
        const bool damped = seg.rigidDamping > 0.0f;
        const glm::vec3 ref = glm::vec3(pos_[seg.vertexBegin]);
        RigidSums sums = gpu::rigidSumsZero();
        for (std::uint32_t i = ch.begin; i < ch.end; ++i) {
            const glm::vec3 v = gpu::substepVelocity(glm::vec3(pos_[i]), glm::vec3(pred_[i]),
                                                     glm::vec3(vel_[i]), invDt, factor);
            vel_[i] = glm::vec4(v, 0.0f);
            if (damped && pos_[i].w > 0.0f)
                sums = gpu::rigidSumsAdd(sums, glm::vec3(pos_[i]) - ref, v, 1.0f / pos_[i].w);
        }
        chunkSums_[c] = sums;
    }
}

void CpuSolver::computeRigidMotions() {
    std::fill(segmentSums_.begin(), segmentSums_.end(), gpu::rigidSumsZero());
    for (std::uint32_t c = 0; c < chunks_.size(); ++c) {
        RigidSums& total = segmentSums_[chunks_[c].segment];
        total = gpu::rigidSumsCombine(total, chunkSums_[c]);
    }
    for (std::uint32_t s = 0; s < p_.segments.size(); ++s) {
        const auto& seg = p_.segments[s];
        motions_[s] = gpu::rigidMotionFromSums(segmentSums_[s], glm::vec3(pos_[seg.vertexBegin]), seg.rigidDamping);
    }
}

void CpuSolver::applyDamping(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(static_cast<std::uint32_t>(chunks_.size()), member, size, b, e);
    for (std::uint32_t c = b; c < e; ++c) {
        const Chunk& ch = chunks_[c];
        if (p_.segments[ch.segment].rigidDamping <= 0.0f) continue;
        const RigidMotion& rm = motions_[ch.segment];
        for (std::uint32_t i = ch.begin; i < ch.end; ++i) {
            if (pos_[i].w <= 0.0f) continue;
            vel_[i] = glm::vec4(gpu::rigidDampedVelocity(glm::vec3(pos_[i]), glm::vec3(vel_[i]), rm), 0.0f);
        }
    }
}

void CpuSolver::computeNormals(int member, int size) {
    std::uint32_t b, e;
    ThreadPool::split(p_.originalVertexCount, member, size, b, e);
    for (std::uint32_t v = b; v < e; ++v) {
        const glm::vec3 n = normalSum(v);
        const float len2 = glm::dot(n, n);
        normals_[v] = len2 > 0.0f ? glm::vec4(n / std::sqrt(len2), 0.0f) : glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
    }
}

// The area-weighted normals of the triangles around original vertex v, summed in CSR order.
glm::vec3 CpuSolver::normalSum(std::uint32_t v) const {
    glm::vec3 n(0.0f);
    for (std::uint32_t k = p_.vertexTriangleOffsets[v]; k < p_.vertexTriangleOffsets[v + 1]; ++k) {
        const glm::uvec3 t = p_.triangles[p_.vertexTriangles[k]];
        n += gpu::triangleNormal(glm::vec3(pos_[t.x]), glm::vec3(pos_[t.y]), glm::vec3(pos_[t.z]));
    }
    return n;
}

Solver::SelfCounts CpuSolver::selfCounts() const {
    if (!self_) return {};
    const SelfCollisionCounts c = self_->counts();
    Solver::SelfCounts out;
    out.candidatePairs = c.candidatePairs;
    out.primitivePairs = c.primitivePairs;
    out.contacts = c.contacts;
    out.candidates = c.candidates;
    out.detections = c.detections;
    out.evaluated = c.evaluated;
    out.checkedContacts = c.checkedContacts;
    out.missed = c.missed;
    out.walkNodes = c.walkNodes;
    out.rebuilds = c.rebuilds;
    out.clamped = c.clamped;
    out.mostVertexContacts = c.mostVertexContacts;
    return out;
}

std::vector<StageTime> CpuSolver::stageTimes() const {
    std::vector<StageTime> out;
    for (int i = 0; i < kStageCount; ++i) out.push_back({kStageNames[i], stageMs_[i]});
    return out;
}

void CpuSolver::setGrab(std::optional<Grab> grab) {
    checkGrabVertex(grab, p_.originalVertexCount);
    grab_ = grab;
    grabbed_.clear();
    if (grab) grabbed_ = grabbedVertices(p_.phantomGroups, p_.phantomMembers, grab->vertex);
}

}  // namespace

std::unique_ptr<Solver> makeXpbdCpuSolver(SharedCloth prepared, int threads, BatchIsa kernels,
                                          std::uint32_t workPerThread) {
    return std::make_unique<CpuSolver>(std::move(prepared), threads, kernels, workPerThread);
}

}  // namespace cloth
