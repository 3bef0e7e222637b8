#include "app/render_stats.h"

namespace cloth {

void RenderStats::add(const std::vector<render::PassTime>& passes) {
    if (passes.empty()) return;
    last_ = passes;
    if (frames_++ == 0) {
        first_ = passes;
        firstMs_ = lastTotalMs();
        return;
    }
    if (sums_.empty())
        for (const render::PassTime& p : passes) sums_.push_back({p.name, 0.0});
    for (std::size_t i = 0; i < passes.size() && i < sums_.size(); ++i) sums_[i].ms += passes[i].ms;
}

double RenderStats::lastTotalMs() const {
    double t = 0.0;
    for (const render::PassTime& p : last_) t += p.ms;
    return t;
}

nlohmann::json RenderStats::json() const {
    nlohmann::json j = nlohmann::json::object();
    double total = 0.0;
    const bool warm = frames_ > 1;
    const int count = warm ? frames_ - 1 : frames_;
    for (const render::PassTime& p : warm ? sums_ : first_) {
        const double mean = count ? p.ms / count : 0.0;
        j[p.name] = mean;
        total += mean;
    }
    j["total"] = total;
    return j;
}

}  // namespace cloth
