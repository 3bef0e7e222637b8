#include "app/backend.h"

#include <ostream>

#include "core/error.h"
#include "cpu/cpu_solver.h"

namespace cloth {

std::unique_ptr<Solver> createSolver(const BackendRequest& request, const PreparedCloth& prepared,
                                     std::ostream& notices) {
    const int threads = request.threads.value_or(defaultThreadCount());
    if (request.backend == "gpu") throw Error("--backend gpu: the Vulkan backend is not built yet");
    if (request.backend == "auto")
        notices << "clothsim: no GPU backend in this build, using the CPU reference solver\n";
    return makeCpuSolver(prepared, threads);
}

}  // namespace cloth
