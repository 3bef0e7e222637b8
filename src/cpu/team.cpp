#include "cpu/team.h"

#include <algorithm>
#include <cmath>

namespace cloth {

int cpuTeamSize(const PreparedCloth& p, int threads, std::uint32_t workPerThread) {
    if (workPerThread == 0 || threads <= 1) return std::max(threads, 1);
    // A substep's work and its barriers: each iteration's colours, and the per-vertex stages
    // (predict, velocities, normals, ...) with a barrier each. Collisions add per-vertex work
    // (rigid contacts, twice) and self-collision (about a hundred items' worth per triangle: on
    // the folded 64^2 benchmark cloth a substep's self-collision costs 1.25 us per triangle and the
    // solver 12 ns per constraint; with ten, every self-collision scene ran on one thread, 1.2 to
    // 1.6 times slower than on two).
    const double vertices = static_cast<double>(p.positions.size());
    const double iterations = p.sim.iterations;
    double work = iterations * static_cast<double>(p.coloredItemCount() + p.attachments.size() +
                                                   p.tethers.size()) +
                  4.0 * vertices;
    double barriers = iterations * (p.colorCount + 2.0) + 4.0;
    if (!p.colliders.empty()) {
        work += 2.0 * iterations * vertices;
        barriers += 2.0 * iterations + 2.0;
    }
    if (p.sim.selfCollision) {
        work += 100.0 * static_cast<double>(p.triangles.size());
        barriers += 8.0 + iterations * p.sim.selfCollision->passes;
    }
    const double members = std::floor(work / barriers / workPerThread);
    return static_cast<int>(std::clamp(members, 1.0, static_cast<double>(threads)));
}

int CpuTeam::beginFrame(const ThreadPool& pool) {
    frame_ = soloFrames_ > 0 ? 1 : team_;
    waits_ = pool.barrierWaits();
    sleeps_ = pool.barrierSleeps();
    leave_ = false;
    return frame_;
}

void CpuTeam::checkFirstSubstep(const ThreadPool& pool) { leave_ = adaptive_ && contended(pool); }

void CpuTeam::endFrame(const ThreadPool& pool) {
    if (!adaptive_) return;
    if (frame_ == 1) {
        if (soloFrames_ > 0) --soloFrames_;
    } else if (leave_ || contended(pool)) {
        frame_ = 1;
        soloFrames_ = backoff_;
        backoff_ = std::min(2 * backoff_, kMaxSolo);
    } else {
        backoff_ = kMinSolo;
    }
}

}  // namespace cloth
