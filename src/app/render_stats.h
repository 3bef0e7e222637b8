// GPU times of the render passes over a run, for the HUD and the stats JSON ("render_ms": the
// mean per rendered frame of each pass and of their total). The first rendered frame pays for
// the driver's shader compilation (lavapipe compiles at first use), so when more than one frame
// was rendered it is left out of the means and reported alone ("render_first_frame_ms").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render/gpu_timer.h"

namespace cloth {

class RenderStats {
  public:
    void add(const std::vector<render::PassTime>& passes);  // one frame; ignores an empty list
    int frames() const { return frames_; }
    const std::vector<render::PassTime>& last() const { return last_; }
    double lastTotalMs() const;
    nlohmann::json json() const;  // {"shadow": ms, ..., "total": ms}
    double firstFrameMs() const { return firstMs_; }

  private:
    int frames_ = 0;
    double firstMs_ = 0.0;
    std::vector<render::PassTime> first_;
    std::vector<render::PassTime> sums_;  // frames after the first
    std::vector<render::PassTime> last_;
};

}  // namespace cloth
