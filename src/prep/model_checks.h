// Whether a prepared cloth's model runs on a backend: core/model_support.h's table with what
// preparation made (phantom vertices included), and each model's own parameter checks (pd's
// relaxation). Every solver's factory calls it, and the viewer before it switches scenes.
#pragma once

#include "core/model_support.h"
#include "prep/prepared.h"

namespace cloth {

// Throws cloth::Error with the table's one message, or a parameter check's.
void refuseWhatTheModelLacks(const PreparedCloth& p, SolverBackend backend);

}  // namespace cloth
