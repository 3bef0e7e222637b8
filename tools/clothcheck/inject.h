// clothcheck --inject: bugs a shader author makes, put into the GPU side only, to show that a
// verdict means something (docs/backends.md): a check that passes these is blind to them.
#pragma once

#include <optional>
#include <string>

#include "prep/prepared.h"

namespace cloth::check {

// compliance: every XPBD compliance times 1 + scale (in the GPU's data); skip-colour: the first
// colour left out of the first iteration of each frame's first substep (the GPU's recording).
enum class Injection { Compliance, SkipColour };

struct Inject {
    Injection kind = Injection::Compliance;
    double scale = 1e-3;  // compliance: every compliance times 1 + scale
};

Injection parseInjection(const std::string& text);  // cloth::Error for an unknown kind
const char* injectionName(Injection kind);

// The GPU's copy of the prepared data with the bug in it (the kinds that live in the data; the
// others leave it as it is). Throws cloth::Error where the kind does not apply: compliance and
// skip-colour need the XPBD model, skip-colour the Gauss-Seidel iteration.
PreparedCloth injected(PreparedCloth gpu, const Inject& inject);

}  // namespace cloth::check
