// How fast each iteration scheme converges (issue 14; clothbench --convergence, the tests).
//
// One measurement: from a common start state (positions and velocities), a solver runs ONE
// substep (of the start's substep length, frameDt / substeps: the frame is cut to that one
// substep) with K iterations, and the frame's XPBD residual r = C + alpha~ lambda
// (app/metrics.h) is read back, with the solve time of the frame (the sum of the solver's stage
// times: wall time on the CPU, device timestamps on the GPU, so the first frame's pipeline
// builds do not count). Residual against K and against time, per scheme; the same nonlinear
// system for every K and every scheme, so nothing but the iteration decides the result.
//
// The initial residual is that of the substep's prediction x~ = x + v dt + g dt^2 with every
// multiplier 0 (what any scheme starts from).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/metrics.h"
#include "core/scene.h"
#include "prep/prepared.h"
#include "sim/solver.h"

namespace cloth {

using SolverFactory = std::function<std::unique_ptr<Solver>(const PreparedCloth&)>;

struct ConvergencePoint {
    int iterations = 0;
    double residual = 0.0;     // 2-norm
    double residualMax = 0.0;  // largest component
};

// `p` with its state (positions, velocities, time) replaced by `solver`'s after it ran from p:
// the start state of the measurements.
PreparedCloth withSolverState(const PreparedCloth& p, Solver& solver);

// `p` after `frames` frames of its own settings on a solver `make` builds (withSolverState).
PreparedCloth settledStart(const PreparedCloth& p, const SolverFactory& make, int frames);

// `start` as a measurement runs it: one substep of start's substep length (frameDt / substeps).
PreparedCloth oneSubstep(const PreparedCloth& start);

// Phantom copies (prepared with phantoms) moved onto their original vertex (xyz, velocities),
// from the state of a cloth prepared without: the same start for both.
void copyStateOntoPhantoms(const PreparedCloth& from, PreparedCloth& to);

// The residual 2-norm of the prediction with multipliers 0 (see above).
double initialResidual(const PreparedCloth& start);

// One measurement: `start`, one substep (of start's length) of `iterations` iterations with
// `scheme`.
ConvergencePoint measureConvergence(const PreparedCloth& start, const SolverFactory& make,
                                    const IterationSettings& scheme, int iterations);

// The fewest iterations (of 1..maxIterations) whose residual is at most `target`, by a doubling
// search then bisection (each probe a measurement from the start), assuming that more
// iterations do not raise the residual above the target again; none if even maxIterations
// does not reach it.
std::optional<ConvergencePoint> iterationsToReach(const PreparedCloth& start,
                                                  const SolverFactory& make,
                                                  const IterationSettings& scheme, double target,
                                                  int maxIterations);

}  // namespace cloth
