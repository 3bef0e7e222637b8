// What the rendered runs (headless with --screenshot or --record, and the window) write and check
// for each simulated frame besides images, as the plain headless run does (app/simulation.h):
// the exports (app/exporters.h: OBJ frames and the glTF file, frame 0, the initial state, and
// every --export-every-th frame, numbered by the simulation's frame), the --metrics file, and the
// stretch check (app/stretch_check.h).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "app/exporters.h"
#include "app/metrics.h"
#include "app/options.h"
#include "app/simulation.h"
#include "app/stretch_check.h"
#include "app/viewer_sim.h"

namespace cloth {

class ViewerOutputs {
  public:
    // Creates the export directory and checks the metrics file's name before the run (cloth::Error
    // when they are bad); turns the simulation's metrics on for --metrics. `frames`: the run's
    // length, when known.
    ViewerOutputs(const Options& options, ViewerSim& sim, std::optional<int> frames);

    // The simulation is at frame 0 (started, reset or a new scene): writes export frame 0 (the
    // glTF file starts again: it holds the last run).
    void started();
    // After each ViewerSim::step(). `lastFrame`: the run's last frame (--frames), or -1.
    void stepped(int lastFrame);

    bool wantsMetrics() const { return metrics_.has_value(); }
    const StretchCheck& stretch() const { return stretch_; }

    // Writes the --metrics file and the glTF file (saying so on `out`) and prints the stretch
    // warning, if any, on `notices`.
    void finish(std::ostream& out, std::ostream& notices);

  private:
    ViewerSim& sim_;
    Exporters exporters_;  // reads sim_.prepared(), which sewing and scene changes replace in place
    std::optional<MetricsWriter> metrics_;
    StretchCheck stretch_;
    std::vector<glm::vec4> positions_;
};

}  // namespace cloth
