// clothcheck --inject: bugs a shader author makes, put into the GPU side only, to show that a
// verdict means something (docs/backends.md): a check that passes these is blind to them.
#pragma once

#include <optional>
#include <string>

#include "prep/prepared.h"
#include "vk/gpu_solver_options.h"

namespace cloth::check {

// compliance: every XPBD compliance times 1 + scale (in the GPU's data); skip-colour: the first
// colour left out of the first iteration of each frame's first substep (the GPU's recording);
// gradient-sign: distance constraint 0 moves its second vertex the wrong way (the GPU's colour
// shader, FAULT_GRADIENT_SIGN); drop-contact: the collider contacts of one vertex in 97 left
// unprojected (the GPU's contact shader, FAULT_DROP_CONTACT); missing-barrier: colours 0 and 1
// of that same iteration solved in one workgroup without the barrier between them (the GPU's
// recording and colour-run shader, FAULT_MISSING_BARRIER).
enum class Injection { Compliance, SkipColour, GradientSign, DropContact, MissingBarrier };

struct Inject {
    Injection kind = Injection::Compliance;
    double scale = 1e-3;  // compliance: every compliance times 1 + scale
};

Injection parseInjection(const std::string& text);  // cloth::Error for an unknown kind
const char* injectionName(Injection kind);
// The GPU solver's fault for the kinds that live in its recording or shaders (None for
// compliance, which lives in the data: injected()).
vk::GpuSolverOptions::Fault gpuFault(Injection kind);

// The GPU's copy of the prepared data with the bug in it (the kinds that live in the data; the
// others leave it as it is). Throws cloth::Error where the kind does not apply: every kind needs
// the XPBD model, skip-colour, gradient-sign and missing-barrier the Gauss-Seidel iteration,
// missing-barrier two colours, gradient-sign a
// distance constraint, drop-contact a collider.
PreparedCloth injected(PreparedCloth gpu, const Inject& inject);

}  // namespace cloth::check
