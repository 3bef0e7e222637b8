// The load-time data the solvers read beside the prepared items, built once here, in the
// preparation (prepareScene, sewing's merges), never by a solver: the Jacobi layout of XPBD's
// Jacobi and Chebyshev iterations, projective dynamics' Jacobi layout (its terms' incidence and
// diagonal), the mass-spring model's step plan, the other models' per-vertex tables and
// incidences, the implicit FEM's rows and block pattern, and self-collision's rest data. Both
// backends read the same block, and a scene checked on both (clothcheck) builds it once.
//
// A caller that changes a prepared scene's settings or arrays after the preparation (the
// convergence study's iteration schemes, a test's hand-built scene) calls prepareSolverData
// again; a solver made from a scene whose data was built for other settings or sizes stops with
// an error saying so, rather than reading a layout of another scene.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "prep/fem_plan.h"
#include "prep/jacobi_layout.h"
#include "prep/model_damping.h"
#include "prep/pd_jacobi.h"
#include "prep/prepared.h"
#include "prep/self_collision_data.h"
#include "prep/springs.h"

namespace cloth {

// Self-collision's rest data (prep/self_collision_data.h), under sim.selfCollision.
struct SelfRestData {
    std::vector<float> triangleThickness;  // per triangle, its cloth's
    float leastThickness = 0.0f;           // the least of them (0 without triangles)
    RestNeighbours neighbours;
    RestPairs pairs;
    SelfVertexColours vertexColours;
};

// The per-vertex tables and incidences of the models other than XPBD (mass_spring, pd, fem),
// over the original vertices, that both backends' solvers read.
struct ModelTables {
    std::vector<float> damping;  // 1/s: mass_spring's springDamping, pd's and fem's implicitDamping
    std::vector<float> thickness;             // m: springThickness
    std::vector<std::uint32_t> attachmentOf;  // springAttachmentOf
    ModelRigidTable rigid;                    // Mueller's damping's runs and segments
    SpringIncidence springs;                  // mass_spring: each vertex's springs
    SpringIncidence angles;  // mass_spring and fem: each vertex's angle springs' corners
    SpringIncidence bends;   // fem: each vertex's bends' corners
};

// What the data was built from: the settings it depends on and the sizes and masses of the
// arrays it indexes. A solver compares it with its scene's (solverData below).
struct SolverDataKey {
    ClothModel model = ClothModel::Xpbd;
    IterationScheme scheme = IterationScheme::GaussSeidel;
    Integrator integrator = Integrator::Symplectic;
    float springStep = 0.0f;  // mass_spring.step
    float airDamping = 0.0f;  // mass_spring.air_damping
    float substep = 0.0f;     // s
    bool self = false;
    float selfMargin = 0.0f;
    std::uint64_t sizes = 0;   // a hash of the arrays' sizes
    // A hash of the inverse masses, the attachments and the cloth segments (their damping and
    // thickness).
    std::uint64_t values = 0;
    bool operator==(const SolverDataKey&) const = default;
};
SolverDataKey solverDataKey(const PreparedCloth& p);

struct SolverData {
    SolverDataKey key;
    // XPBD under the Jacobi or Chebyshev iteration (sim.iteration.scheme not Gauss-Seidel).
    std::optional<JacobiLayout> jacobi;
    // Projective dynamics: its terms' incidence, and under the Jacobi iteration the per-vertex
    // diagonal for the substep's length.
    std::optional<PdJacobiLayout> pd;
    // The mass-spring model (and its refusals of an unstable step: prep/springs.h).
    std::optional<SpringPlan> springPlan;
    // Every model but XPBD.
    std::optional<ModelTables> model;
    // The implicit FEM's rows, incidences, diagonal and block pattern (model fem; with model).
    std::optional<FemPlan> fem;
    std::optional<SelfRestData> self;
};

// (Re)builds p.solverData for p's settings and arrays.
void prepareSolverData(PreparedCloth& p);

// p's solver data, checked against p: an Error naming the mismatch when it is missing or was
// built for other settings or sizes. `what` names the solver asking (for the message).
const SolverData& solverData(const PreparedCloth& p, const char* what);

// One block of p's solver data (checked as above), or an Error when p's settings did not ask for
// it (a solver made for another model or iteration).
const JacobiLayout& jacobiLayout(const PreparedCloth& p, const char* what);
const PdJacobiLayout& pdLayout(const PreparedCloth& p, const char* what);
const SpringPlan& springPlan(const PreparedCloth& p, const char* what);
const ModelTables& modelTables(const PreparedCloth& p, const char* what);
const SelfRestData& selfRestData(const PreparedCloth& p, const char* what);

}  // namespace cloth
