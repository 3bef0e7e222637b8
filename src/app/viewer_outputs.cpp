#include "app/viewer_outputs.h"

#include <ostream>

namespace cloth {

ViewerOutputs::ViewerOutputs(const Options& options, ViewerSim& sim)
    : sim_(sim), exporter_(options.exportObjDir, options.exportEvery, sim.prepared()) {
    if (options.metricsFile.empty()) return;
    metrics_.emplace(options.metricsFile);
    // ViewerSim measures each frame before sewing can replace the solver, as the plain run does.
    if (!sim_.metricsOn()) sim_.setMetrics(true);
}

void ViewerOutputs::started() {
    if (sim_.frame() != 0 || !exporter_.wants(0)) return;
    sim_.solver().readPositions(positions_);
    exporter_.write(0, positions_);
}

void ViewerOutputs::stepped(int lastFrame) {
    const int frame = sim_.frame();
    if (metrics_ && !sim_.metrics().empty()) {
        const FrameMetrics& m = sim_.metrics().back();
        metrics_->add(frame, sim_.solver().simTime(), m);
        stretch_.add(frame, m.maxStretch);
    }
    const bool checkStretch = !metrics_ && StretchCheck::due(frame, lastFrame);
    if (!exporter_.wants(frame) && !checkStretch) return;
    sim_.solver().readPositions(positions_);
    if (exporter_.wants(frame)) {
        checkFinite(positions_, sim_.prepared().vertexCount(), frame);
        exporter_.write(frame, positions_);
    }
    if (!metrics_) stretch_.add(frame, edgeStretch(sim_.prepared(), positions_).largest);
}

void ViewerOutputs::finish(std::ostream& notices) const {
    if (metrics_) metrics_->write(sim_.scene().name);
    notices << stretchWarning(stretch_, sim_.prepared().sim.model == ClothModel::MassSpring);
}

}  // namespace cloth
