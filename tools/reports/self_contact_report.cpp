// self_contact_report: how the self contacts' solve order and passes trade crossings for time,
// for the README. Not a test (times are measured); build it in Release and run
//   build/tests/self_contact_report [SCENE.json] [--frames N] [--every K] [--order O]
// (default assets/scenes/multiple_objects.json, 60 frames, every 5th checked). For colored
// (Gauss-Seidel by colours) and sequential (Gauss-Seidel in contact order) with 1, 2 and 4
// passes and Jacobi with 1, 2, 4 and 8, on the CPU reference
// with 2 threads: the most crossing triangle pairs in a checked frame (brute force,
// tests/common/triangle_intersections.h), the checked frames with any, the self-contact solve's
// share of the frame, the frame's time and the most contacts in a frame. --order: only that
// order's rows.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fixtures/triangle_intersections.h"
#include "core/error.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "prep/prepare.h"

using namespace cloth;

int main(int argc, char** argv) {
    std::string path = std::string(CLOTH_SOURCE_DIR) + "/assets/scenes/multiple_objects.json";
    int frames = 60, every = 5;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--every") && i + 1 < argc)
            every = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--order") && i + 1 < argc)
            only = argv[++i];
        else
            path = argv[i];
    }
    if (frames < 1 || every < 1) {
        std::fprintf(stderr, "self_contact_report: --frames and --every must be at least 1\n");
        return 2;
    }
    try {
        const Scene base = loadSceneFile(path);
        if (!base.sim.selfCollision) throw Error(path + ": the scene has no self_collision");
        std::printf("%s, %d frames, every %d checked, CPU reference on 2 threads (%s)\n",
                    path.c_str(), frames, every, cpuModelName().c_str());
        std::printf("%-10s %6s %14s %15s %12s %10s %9s\n", "order", "passes", "most_crossing",
                    "frames_with_any", "solve_share", "frame_ms", "contacts");
        using Order = SelfCollisionSettings::Order;
        for (Order order : {Order::Vertex, Order::Jacobi, Order::Sequential})
            for (int passes : {1, 2, 4, 8}) {
                if (!only.empty() && only != selfContactOrderName(order)) continue;
                if (order != Order::Jacobi && passes == 8) continue;
                Scene s = base;
                s.sim.selfCollision->order = order;
                s.sim.selfCollision->passes = passes;
                const PreparedCloth p = prepareScene(s);
                auto solver = makeCpuSolver(p, 2);
                std::vector<glm::vec4> x;
                std::size_t most = 0;
                std::uint64_t mostContacts = 0;
                int withAny = 0, checked = 0;
                double total = 0.0, solve = 0.0;  // ms, summed over the frames
                for (int f = 1; f <= frames; ++f) {
                    solver->stepFrame();
                    mostContacts = std::max(mostContacts, solver->selfCounts().contacts);
                    for (const StageTime& t : solver->stageTimes()) {
                        total += t.ms;
                        if (t.name == kStageNames[kStageSelfContacts]) solve += t.ms;
                    }
                    if (f % every != 0) continue;
                    solver->readPositions(x);
                    const std::size_t n = fixtures::intersectingTrianglePairs(p.triangles, x).size();
                    most = std::max(most, n);
                    withAny += n > 0 ? 1 : 0;
                    ++checked;
                }
                std::printf("%-10s %6d %14zu %9d of %-3d %11.0f%% %10.1f %9llu\n",
                            selfContactOrderName(order), passes, most, withAny, checked,
                            total > 0.0 ? 100.0 * solve / total : 0.0, total / frames,
                            static_cast<unsigned long long>(mostContacts));
                std::fflush(stdout);
            }
    } catch (const Error& e) {
        std::fprintf(stderr, "self_contact_report: %s\n", e.what());
        return 1;
    }
    return 0;
}
