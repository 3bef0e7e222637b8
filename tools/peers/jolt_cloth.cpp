// jolt_cloth: the cloth of `clothbench --grids N` simulated by Jolt Physics' soft body, timed per
// frame. Same cloth: an N x N quad grid of 1 m x 1 m hanging from its two top corners, each quad
// split by the same diagonal; one distance constraint per edge, one dihedral bend per interior
// edge, nothing else (no shear, LRA or volume constraints, no collisions, no damping, no sleep);
// 60 frames per second of 10 substeps of one iteration each (Jolt: 10 iterations per step, one
// collision step). Prints one JSON object on stdout (tools/peers/README.md).
#include <Jolt/Jolt.h>

#include <Jolt/Core/Factory.h>
#include <Jolt/Core/JobSystemSingleThreaded.h>
#include <Jolt/Core/JobSystemThreadPool.h>
#include <Jolt/Core/TempAllocator.h>
#include <Jolt/Physics/Collision/BroadPhase/BroadPhaseLayerInterfaceTable.h>
#include <Jolt/Physics/Collision/BroadPhase/ObjectVsBroadPhaseLayerFilterTable.h>
#include <Jolt/Physics/Collision/ObjectLayerPairFilterTable.h>
#include <Jolt/Physics/PhysicsSystem.h>
#include <Jolt/Physics/Body/BodyLock.h>
#include <Jolt/Physics/SoftBody/SoftBodyMotionProperties.h>
#include <Jolt/Physics/SoftBody/SoftBodyCreationSettings.h>
#include <Jolt/Physics/SoftBody/SoftBodySharedSettings.h>
#include <Jolt/RegisterTypes.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace JPH;

namespace {

struct Options {
    uint grid = 256;
    int threads = 1;
    int warmup = 10;
    int frames = 20;
    int repeats = 3;
    float stretchCompliance = 1e-8f;  // m/N, clothbench's default
    float bendCompliance = 1e-3f;     // 1/(N m) per hinge; the cost does not depend on it
};

[[noreturn]] void usage() {
    std::fprintf(stderr,
                 "usage: jolt_cloth [--grid N] [--threads T] [--warmup W] [--frames F] "
                 "[--repeats R]\n");
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (!std::strcmp(argv[i], "--grid")) o.grid = uint(std::atoi(value()));
        else if (!std::strcmp(argv[i], "--threads")) o.threads = std::atoi(value());
        else if (!std::strcmp(argv[i], "--warmup")) o.warmup = std::atoi(value());
        else if (!std::strcmp(argv[i], "--frames")) o.frames = std::atoi(value());
        else if (!std::strcmp(argv[i], "--repeats")) o.repeats = std::atoi(value());
        else usage();
    }
    if (o.grid < 2 || o.threads < 1 || o.frames < 1 || o.repeats < 1 || o.warmup < 0) usage();
    return o;
}

// Vertex (x, y) of the grid, y = 0 at the top row.
uint32 at(const Options& o, uint x, uint y) { return y * (o.grid + 1) + x; }

// The cloth in the x-y plane, its top edge 1.5 m up, the top corners fixed; each vertex's mass
// lumped from the triangles around it at 0.2 kg/m^2 (clothbench's default material).
Ref<SoftBodySharedSettings> makeCloth(const Options& o, uint& edges, uint& bends) {
    const uint n = o.grid;
    const float h = 1.0f / float(n);
    Ref<SoftBodySharedSettings> s = new SoftBodySharedSettings;
    std::vector<float> mass((n + 1) * (n + 1), 0.0f);
    std::vector<uint32> tris;
    for (uint y = 0; y < n; ++y)
        for (uint x = 0; x < n; ++x) {
            // The diagonal (x, y)-(x+1, y+1) of every quad, as clothbench's regular grid.
            const uint32 a = at(o, x, y), b = at(o, x + 1, y), c = at(o, x, y + 1),
                         d = at(o, x + 1, y + 1);
            for (uint32 t : {a, c, d, a, d, b}) tris.push_back(t);
        }
    for (size_t t = 0; t < tris.size(); t += 3) {
        s->AddFace(SoftBodySharedSettings::Face(tris[t], tris[t + 1], tris[t + 2]));
        for (int k = 0; k < 3; ++k) mass[tris[t + k]] += 0.2f * 0.5f * h * h / 3.0f;
    }
    for (uint y = 0; y <= n; ++y)
        for (uint x = 0; x <= n; ++x) {
            const bool pinned = y == 0 && (x == 0 || x == n);
            s->mVertices.emplace_back(Float3(x * h - 0.5f, 1.5f - y * h, 0.0f), Float3(0, 0, 0),
                                      pinned ? 0.0f : 1.0f / mass[at(o, x, y)]);
        }
    // Edges: each unordered vertex pair of a triangle once; the triangles on either side of an
    // interior edge make its hinge (shared edge first, then the two opposite vertices).
    struct Side {
        uint32 v0, v1, opposite;
    };
    std::vector<std::pair<uint64_t, Side>> sides;
    for (size_t t = 0; t < tris.size(); t += 3)
        for (int k = 0; k < 3; ++k) {
            const uint32 v0 = tris[t + k], v1 = tris[t + (k + 1) % 3], v2 = tris[t + (k + 2) % 3];
            const uint64_t key = (uint64_t(std::min(v0, v1)) << 32) | std::max(v0, v1);
            sides.push_back({key, {v0, v1, v2}});
        }
    std::sort(sides.begin(), sides.end(),
              [](const auto& l, const auto& r) { return l.first < r.first; });
    edges = bends = 0;
    for (size_t i = 0; i < sides.size();) {
        const Side& a = sides[i].second;
        s->mEdgeConstraints.emplace_back(a.v0, a.v1, o.stretchCompliance);
        ++edges;
        if (i + 1 < sides.size() && sides[i + 1].first == sides[i].first) {
            s->mDihedralBendConstraints.emplace_back(a.v0, a.v1, a.opposite,
                                                     sides[i + 1].second.opposite,
                                                     o.bendCompliance);
            ++bends;
            i += 2;
        } else {
            i += 1;
        }
    }
    s->CalculateEdgeLengths();
    s->CalculateBendConstraintConstants();
    s->Optimize();  // Jolt's parallel groups (its colouring)
    return s;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t k = v.size();
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    RegisterDefaultAllocator();
    Factory::sInstance = new Factory();
    RegisterTypes();
    {
        TempAllocatorImpl temp(256 * 1024 * 1024);
        // T threads in all: the calling thread works while it waits, so T - 1 workers.
        std::unique_ptr<JobSystem> jobs;
        if (o.threads == 1)
            jobs = std::make_unique<JobSystemSingleThreaded>(cMaxPhysicsJobs);
        else
            jobs = std::make_unique<JobSystemThreadPool>(cMaxPhysicsJobs, cMaxPhysicsBarriers,
                                                         o.threads - 1);

        const ObjectLayer layer = 0;
        BroadPhaseLayerInterfaceTable bpLayers(1, 1);
        bpLayers.MapObjectToBroadPhaseLayer(layer, BroadPhaseLayer(0));
        ObjectLayerPairFilterTable pairs(1);
        ObjectVsBroadPhaseLayerFilterTable objVsBp(bpLayers, 1, pairs, 1);
        PhysicsSystem physics;
        physics.Init(16, 0, 64, 64, bpLayers, objVsBp, pairs);
        physics.SetGravity(Vec3(0.0f, -9.81f, 0.0f));

        uint edges = 0, bends = 0;
        SoftBodyCreationSettings sb(makeCloth(o, edges, bends), RVec3::sZero(), Quat::sIdentity(),
                                    layer);
        sb.mNumIterations = 10;
        sb.mLinearDamping = 0.0f;
        sb.mAllowSleeping = false;
        sb.mUpdatePosition = false;
        const BodyID id = physics.GetBodyInterface().CreateAndAddSoftBody(sb, EActivation::Activate);
        physics.OptimizeBroadPhase();

        const float dt = 1.0f / 60.0f;
        for (int i = 0; i < o.warmup; ++i) physics.Update(dt, 1, &temp, jobs.get());
        std::vector<double> frameMs;
        for (int r = 0; r < o.repeats; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            for (int f = 0; f < o.frames; ++f) physics.Update(dt, 1, &temp, jobs.get());
            const auto t1 = std::chrono::steady_clock::now();
            frameMs.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count() /
                              o.frames);
        }
        // A sanity check that the cloth hangs rather than explodes: its lowest point (m).
        float lowest = 1e30f;
        {
            BodyLockRead lock(physics.GetBodyLockInterface(), id);
            const auto* mp = static_cast<const SoftBodyMotionProperties*>(
                lock.GetBody().GetMotionProperties());
            for (const SoftBodyVertex& v : mp->GetVertices())
                lowest = std::min(lowest, float(v.mPosition.GetY()));
        }
        const double med = median(frameMs);
        const double minMs = *std::min_element(frameMs.begin(), frameMs.end());
        const double solves = double(edges + bends) * 10.0;  // per frame
        std::printf(
            "{\"engine\": \"jolt\", \"grid\": %u, \"threads\": %d, \"vertices\": %u, "
            "\"distance\": %u, \"bending\": %u, \"substeps\": 10, \"iterations\": 1, "
            "\"frames\": %d, \"repeats\": %d, \"min_ms\": %.3f, \"median_ms\": %.3f, "
            "\"msolves_per_s\": %.1f, \"lowest_y\": %.4f}\n",
            o.grid, o.threads, (o.grid + 1) * (o.grid + 1), edges, bends, o.frames, o.repeats,
            minMs, med, solves / med * 1e-3, lowest);
    }
    UnregisterTypes();
    delete Factory::sInstance;
    Factory::sInstance = nullptr;
    return 0;
}
