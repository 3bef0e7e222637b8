// The memory estimate (app/memory_estimate.h) against the memory a run takes: for each model and
// feature, grids of three sizes are prepared and stepped one frame on the CPU reference, and the
// growth of the peak between sizes (what the estimate's bytes per vertex predict) is measured:
// in a sanitizer build the peak of the bytes allocated on the heap (through the sanitizer's
// allocator hooks: the sanitizer's shadow and quarantine would swell the resident size), elsewhere the peak resident memory of a child process that runs the same
// (getrusage). Within 25%, as the issue asks. And clothsim refuses a 3000^2 grid under a limit
// it passes, at once, with the figure.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "../common/run_program.h"
#include "app/memory_estimate.h"
#include "core/scene.h"
#include "cpu/backend.h"
#include "prep/prepare.h"

#if defined(__SANITIZE_ADDRESS__)
#define CLOTH_TEST_HEAP_HOOKS 1
// The sanitizer runtime's allocator hooks (its allocator_interface.h, which GCC does not install).
extern "C" int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void*, std::size_t), void (*free_hook)(const volatile void*));
extern "C" std::size_t __sanitizer_get_allocated_size(const volatile void* p);
#endif

using namespace cloth;

namespace {

#ifdef CLOTH_TEST_HEAP_HOOKS
// Bytes allocated since the measurement began (less those freed, earlier ones included), and
// their peak: every allocation and free of the process, any thread, through the hooks.
std::atomic<long long> gNow{0}, gPeak{0};
void onMalloc(const volatile void*, std::size_t n) {
    const long long now = gNow.fetch_add(static_cast<long long>(n)) + static_cast<long long>(n);
    long long seen = gPeak.load();
    while (now > seen && !gPeak.compare_exchange_weak(seen, now)) {
    }
}
void onFree(const volatile void* p) {
    gNow.fetch_sub(static_cast<long long>(__sanitizer_get_allocated_size(p)));
}
const bool gHooked = __sanitizer_install_malloc_and_free_hooks(onMalloc, onFree) != 0;
#endif

Scene gridScene(int n, const std::string& extraScene, const std::string& extraCloth) {
    const std::string text = R"({"name": "memory", )" + extraScene +
                             R"("cloths": [{"grid": {"width": 1.0, "height": 1.0, "resolution": [)" +
                             std::to_string(n) + ", " + std::to_string(n) +
                             R"(]}, "pins": {"regions": ["top_corners"]})" + extraCloth + "}]}";
    return parseSceneJson(text, "memory.json", ".");
}

void runOneFrame(const Scene& scene) {
    const PreparedCloth p = prepareScene(scene);
    auto solver = makeCpuSolver(p, 1);
    solver->stepFrame();
}

// The peak memory of preparing and stepping `scene` one frame, in bytes, measured as the file's
// comment says.
double peakBytes(const Scene& scene) {
#ifdef CLOTH_TEST_HEAP_HOOKS
    EXPECT_TRUE(gHooked);
    gNow.store(0);
    gPeak.store(0);
    runOneFrame(scene);
    return double(gPeak.load());
#else
    int fds[2];
    if (pipe(fds) != 0) return -1.0;
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        runOneFrame(scene);
        rusage r{};
        getrusage(RUSAGE_SELF, &r);
        const long kib = r.ru_maxrss;
        (void)!write(fds[1], &kib, sizeof kib);
        _exit(0);
    }
    close(fds[1]);
    long kib = -1;
    const bool read_ok = read(fds[0], &kib, sizeof kib) == sizeof kib;
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    return read_ok ? double(kib) * 1024.0 : -1.0;
#endif
}

struct MemoryCase {
    const char* name;
    const char* scene;  // extra top-level keys, each followed by ", "
    const char* cloth;  // extra keys of the cloth, each preceded by ", "
    int sizes[3];
};

void PrintTo(const MemoryCase& c, std::ostream* os) { *os << c.name; }

class MemoryEstimateCase : public ::testing::TestWithParam<MemoryCase> {};

TEST_P(MemoryEstimateCase, GrowsAsTheRunsPeak) {
    const MemoryCase c = GetParam();
    double measured[3], estimated[3];
    for (int k = 0; k < 3; ++k) {
        const Scene scene = gridScene(c.sizes[k], c.scene, c.cloth);
        measured[k] = peakBytes(scene);
        ASSERT_GT(measured[k], 0.0) << c.sizes[k];
        estimated[k] = estimateMemory(scene).bytes;
    }
    for (int k = 1; k < 3; ++k) {
        const double grownMeasured = measured[k] - measured[0];
        const double grownEstimated = estimated[k] - estimated[0];
        std::printf("%s %d^2 -> %d^2: the peak grew by %.1f MiB, the estimate by %.1f MiB (%.2f)\n",
                    c.name, c.sizes[0], c.sizes[k], grownMeasured / double(1 << 20),
                    grownEstimated / double(1 << 20), grownEstimated / grownMeasured);
        EXPECT_GT(grownMeasured, 0.0);
        EXPECT_NEAR(grownEstimated / grownMeasured, 1.0, 0.25) << c.sizes[0] << " to " << c.sizes[k];
    }
}

INSTANTIATE_TEST_SUITE_P(
    Models, MemoryEstimateCase,
    ::testing::Values(MemoryCase{"xpbd", "", "", {60, 120, 180}},
                      MemoryCase{"stvk", "", R"(, "material": {"preset": "cotton"})", {60, 120, 180}},
                      MemoryCase{"isometric", "", R"(, "material": {"bending": "isometric"})", {60, 120, 180}},
                      MemoryCase{"pd", R"("model": "pd", )", "", {60, 120, 180}},
                      // (Soft springs and membranes: the stiff default takes these models
                      // thousands of steps or iterations a frame; the memory is the same.)
                      MemoryCase{"fem", R"("model": "fem", )",
                                 R"(, "material": {"stretch_compliance": 0.01})", {40, 80, 120}},
                      MemoryCase{"mass_spring", R"("model": "mass_spring", )",
                                 R"(, "material": {"stretch_compliance": 0.01})", {60, 120, 180}},
                      MemoryCase{"self_collision", R"("self_collision": {}, )", "", {60, 90, 120}}),
    [](const ::testing::TestParamInfo<MemoryCase>& info) { return std::string(info.param.name); });

// A 3000^2 grid (9 million vertices, about 18 GiB) under a limit of 4 GiB: refused before
// anything is built, with the estimate and the limit, in one line.
TEST(MemoryEstimate, AGridOverTheLimitIsRefusedAtOnce) {
    const std::filesystem::path dir = test::scratchDir("test", "memory");
    const std::filesystem::path scene = dir / "big.json";
    std::ofstream(scene) << R"({"name": "big", "cloths": [{"grid": {"resolution": [3000, 3000]}, )"
                         << R"("pins": {"regions": ["top_corners"]}}]})";
    const auto r = test::runProgram(
        "clothsim", "--headless --backend cpu --frames 1 --memory-limit 4 --scene " + scene.string());
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find(scene.string() + ": scene 'big' is too large: needs about "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("9,006,001 vertices"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("more than the 4.0 GiB that --memory-limit allows"), std::string::npos)
        << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    // (Refused from the description: building the grid's constraints alone takes minutes.)
    const double need = estimateMemory(loadSceneFile(scene.string())).bytes;
    EXPECT_GT(need, 4.0 * double(1ull << 30));
    EXPECT_LT(need, 40.0 * double(1ull << 30));
}

}  // namespace
