// The non-XPBD models as the model tests run them (docs/models.md): mass_spring, PD with its
// direct step, PD with its Jacobi-type step, and the FEM. Each test sets its scene for a variant.
#pragma once

#include <memory>

#include "cpu/fem.h"
#include "cpu/mass_spring.h"
#include "cpu/projective.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth::test {

enum class Variant { MassSpring, PdDirect, PdJacobi, Fem };

inline const char* name(Variant v) {
    switch (v) {
        case Variant::MassSpring: return "mass_spring";
        case Variant::PdDirect: return "pd direct";
        case Variant::PdJacobi: return "pd jacobi";
        case Variant::Fem: return "fem";
    }
    return "";
}

inline constexpr Variant kVariants[] = {Variant::MassSpring, Variant::PdDirect,
                                        Variant::PdJacobi, Variant::Fem};

// The solver of the scene's model, every thread used however small the cloth.
inline std::unique_ptr<Solver> makeModelSolver(const PreparedCloth& p, int threads) {
    switch (p.sim.model) {
        case ClothModel::MassSpring: return makeMassSpringSolver(p, threads, 0);
        case ClothModel::Fem: return makeFemSolver(p, threads, 0);
        default: return makeProjectiveSolver(p, threads, 0);
    }
}

}  // namespace cloth::test
