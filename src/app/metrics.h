// Convergence metrics of a frame (issue 14; Cheng 2023's three, with its residual's sign and scale derived anew, and
// ours), computed in double precision from what a solver reads back: positions, velocities and
// the XPBD multipliers of the last iteration of the frame's last substep.
//
// - residual: per constraint component r = C(x) + alpha~ lambda (XPBD; alpha~ = alpha / dt^2,
//   dt the substep; StVK's alpha a symmetric 3x3) or r = C(x) (PBD), C as each type defines it
//   (src/kernels/constraint/*.h): its 2-norm and its largest magnitude over every component
//   of every constraint;
// - residual strain: sum over the stretch (distance) constraints of (|x_i - x_j| - rest)^2 (m^2);
// - elastic energy: sum of C^T alpha^-1 C / 2 over the constraints with compliance (J); XPBD
//   only (PBD's parameters are stiffnesses per iteration, not compliances);
// - edge stretch: |x_i - x_j| / rest - 1 over the distance constraints and the StVK
//   triangles' edges, largest and mean;
// - kinetic energy: sum of m |v|^2 / 2 over the vertices with mass, phantom copies included
//   (their masses are shares of the original's).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "prep/edge_stretch.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

struct FrameMetrics {
    double residualNorm = 0.0;  // 2-norm over every component
    double residualMax = 0.0;   // largest magnitude
    std::size_t residualComponents = 0;
    double residualStrain = 0.0;  // m^2
    std::optional<double> elasticEnergy;  // J; none in PBD mode; the springs' for mass_spring
    double maxStretch = 0.0, meanStretch = 0.0;
    double kineticEnergy = 0.0;  // J
};

// Multipliers per constraint type (Solver::readMultipliers), per item.
using TypeMultipliers = std::array<std::vector<glm::vec4>, gpu::kConstraintTypeCount>;

// Edge stretch: prep/edge_stretch.h.

// x, v: every vertex (PreparedCloth order); lambdas: per type, one per item (ignored in PBD).
FrameMetrics computeMetrics(const PreparedCloth& p, const std::vector<glm::vec4>& x,
                            const std::vector<glm::vec4>& v, const TypeMultipliers& lambdas);

// Reads the solver's state and computes the metrics (the solver must keep its multipliers:
// Solver::keepMultipliers(true) before the frame).
// `positions`, if given, receives the positions read (every vertex).
FrameMetrics measureFrame(const PreparedCloth& p, Solver& solver,
                          std::vector<glm::vec4>* positions = nullptr);

// The --metrics file: one row per frame, CSV or JSON by the path's extension (.csv, .json;
// anything else is refused when the writer is made, before the run).
class MetricsWriter {
public:
    explicit MetricsWriter(std::string path);
    void add(int frame, double time, const FrameMetrics& m);
    void write(const std::string& sceneName) const;  // throws Error when it cannot

private:
    struct Row {
        int frame;
        double time;
        FrameMetrics m;
    };
    std::string path_;
    bool json_ = false;
    std::vector<Row> rows_;
};

}  // namespace cloth
