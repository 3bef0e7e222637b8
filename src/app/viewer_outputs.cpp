#include "app/viewer_outputs.h"

#include <ostream>

namespace cloth {

ViewerOutputs::ViewerOutputs(const Options& options, ViewerSim& sim, std::optional<int> frames)
    : sim_(sim), exporters_(options, sim.prepared(), frames) {
    if (options.metricsFile.empty()) return;
    metrics_.emplace(options.metricsFile);
    // ViewerSim measures each frame before sewing can replace the solver, as the plain run does.
    if (!sim_.metricsOn()) sim_.setMetrics(true);
}

void ViewerOutputs::started() {
    if (sim_.frame() != 0 || !exporters_.wants(0)) return;
    sim_.solver().readPositions(positions_);
    exporters_.write(0, positions_, sim_.solver().simTime());
}

void ViewerOutputs::stepped(int lastFrame) {
    const int frame = sim_.frame();
    if (metrics_ && !sim_.metrics().empty()) {
        const FrameMetrics& m = sim_.metrics().back();
        metrics_->add(frame, sim_.solver().simTime(), m);
        stretch_.add(frame, m.maxStretch);
    }
    const bool checkStretch = !metrics_ && StretchCheck::due(frame, lastFrame);
    if (!exporters_.wants(frame) && !checkStretch) return;
    sim_.solver().readPositions(positions_);
    if (exporters_.wants(frame)) {
        checkFinite(positions_, sim_.prepared().vertexCount(), frame);
        exporters_.write(frame, positions_, sim_.solver().simTime());
    }
    if (!metrics_) stretch_.add(frame, edgeStretch(sim_.prepared(), positions_).largest);
}

void ViewerOutputs::finish(std::ostream& out, std::ostream& notices) {
    if (metrics_) metrics_->write(sim_.scene().name);
    exporters_.finish(out);
    notices << stretchWarning(stretch_, sim_.prepared().sim.model == ClothModel::MassSpring,
                              !sim_.prepared().tethers.empty())
            << modelWarnings(sim_.solver());
}

}  // namespace cloth
