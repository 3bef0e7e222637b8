// The flags that change a scene's simulation settings, one struct for the programs that take them
// (clothsim's app/options.h, clothcheck), so that each applies them the same way. The flags
// themselves are defined by app/cli.h's add* functions.
#pragma once

#include <optional>

#include "core/scene.h"

namespace cloth::cli {

struct SimFlags {
    std::optional<int> substeps, iterations;         // --substeps, --iterations
    std::optional<float> fps;                        // --fps X (core/frame_rate.h)
    std::optional<ClothModel> model;                 // --model
    std::optional<Integrator> integrator;            // --integrator
    std::optional<float> springStiffness;            // --spring-stiffness
    std::optional<IterationScheme> iterationScheme;  // --iteration
    std::optional<float> relaxation, rho;            // --relaxation, --rho
    std::optional<int> warmup;                       // --warmup
};

// Sets in `sim` what the flags give; a --relaxation, --rho or --warmup has the iteration settings
// checked (throws cloth::Error naming the flags). Defined in app/cli.cpp.
void applySimFlags(const SimFlags& flags, SimSettings& sim);

}  // namespace cloth::cli
