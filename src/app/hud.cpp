#include "app/hud.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <deque>
#include <string>

#include <imgui.h>

#include "core/scene.h"

namespace cloth {

namespace {

// Stages under half a microsecond (those the scene does not run) are left out.
void timesTable(const char* title, const std::vector<std::string>& names,
                const std::vector<double>& ms) {
    double total = 0.0;
    for (double m : ms) total += m;
    ImGui::Text("%s  %.2f ms", title, total);
    for (std::size_t i = 0; i < names.size(); ++i)
        if (ms[i] >= 0.0005) ImGui::TextDisabled("  %-18s %7.3f", names[i].c_str(), ms[i]);
}

// A short name for a device: up to its first parenthesis, '@' or comma, at most 24 characters
// ("llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe").
std::string shortName(const std::string& name) {
    std::string s = name.substr(0, name.find_first_of("(@,"));
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s.size() > 24 ? s.substr(0, 23) + "." : s;
}

// Records where the last widget was drawn under `name` (HudState::buttons).
void remember(HudState& st, const char* name) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    st.buttons[name] = {a.x, a.y, b.x, b.y};
}

bool button(HudState& st, const char* label, const char* name) {
    const bool pressed = ImGui::Button(label);
    remember(st, name);
    return pressed;
}

void statusSection(const HudInput& in) {
    const ViewerSim& sim = *in.sim;
    const PreparedCloth& p = sim.prepared();
    ImGui::Text("%.1f fps  %ux%u  %s", in.fps, in.extent.width, in.extent.height,
                in.vsync ? "vsync" : "no vsync");
    ImGui::Text("scene %s, frame %d (%.2f s)%s", sim.scene().name.c_str(), sim.frame(),
                sim.solver().simTime(), in.paused ? "  PAUSED" : "");
    ImGui::Text("%u vertices, %zu triangles", p.originalVertexCount, p.triangles.size());
    std::string kinds;
    gpu::forEachConstraintType([&](auto t) {
        kinds += std::to_string(p.items<typename decltype(t)::Item>().size()) + " " + t.kName + ", ";
    });
    ImGui::Text("%u constraints (%s%zu attach, %zu tethers)", p.constraintCount(), kinds.c_str(),
                p.attachments.size(), p.tethers.size());
    ImGui::Text("%u colours, %u phantom vertices", p.colorCount, p.stats.phantomVertices);
    if (p.sim.wind)
        ImGui::Text("wind %.1f m/s, C_D %.3g, C_L %.3g, gusts %.0f%%",
                    glm::length(p.sim.wind->velocity), p.sim.wind->drag, p.sim.wind->lift,
                    100.0 * p.sim.wind->gusts.amplitude);
    if (!p.colliders.empty())
        ImGui::Text("%zu colliders, %u vertices in contact", p.colliders.size(),
                    sim.solver().contactCount());
    if (p.sim.selfCollision) {
        const Solver::SelfCounts c = sim.solver().selfCounts();
        ImGui::Text("self-collision: %llu close triangle pairs, %llu contacts",
                    static_cast<unsigned long long>(c.candidatePairs),
                    static_cast<unsigned long long>(c.contacts));
    }
    ImGui::Text("solver: %s on %s", sim.solver().backendName(), sim.solver().deviceName().c_str());
    ImGui::Text("render: %s", in.renderDevice.c_str());
}

// The convergence metrics of the last frames (ViewerSim::metrics) as small live plots.
void convergenceSection(const HudInput& in, HudActions& out) {
    const ViewerSim& sim = *in.sim;
    bool on = sim.metricsOn();
    if (ImGui::Checkbox("plot (reads the state back every frame)", &on)) out.metrics = on;
    const std::deque<FrameMetrics>& m = sim.metrics();
    if (m.empty()) return;
    auto plot = [&](const char* label, auto value, const char* format) {
        std::vector<float> v;
        v.reserve(m.size());
        for (const FrameMetrics& f : m) v.push_back(static_cast<float>(value(f)));
        char overlay[64];
        std::snprintf(overlay, sizeof overlay, format, v.back());
        ImGui::PlotLines(label, v.data(), static_cast<int>(v.size()), 0, overlay, FLT_MAX,
                         FLT_MAX, ImVec2(220, 40));
    };
    plot("log10 residual max", [](const FrameMetrics& f) {
        return std::log10(std::max(f.residualMax, 1e-30));
    }, "%.2f");
    plot("max stretch %", [](const FrameMetrics& f) { return 100.0 * f.maxStretch; }, "%.3g");
    plot("mean stretch %", [](const FrameMetrics& f) { return 100.0 * f.meanStretch; }, "%.3g");
    plot("kinetic energy J", [](const FrameMetrics& f) { return f.kineticEnergy; }, "%.3g");
    if (m.back().elasticEnergy)
        plot("elastic energy J", [](const FrameMetrics& f) { return f.elasticEnergy.value_or(0.0); },
             "%.3g");
}

void timesSection(const HudInput& in) {
    std::vector<std::string> names;
    std::vector<double> ms;
    for (const StageTime& s : in.sim->solver().stageTimes()) {
        names.push_back(s.name);
        ms.push_back(s.ms);
    }
    ImGui::Text("simulation frame (wall) %.2f ms", in.simMsPerFrame);
    timesTable("simulation stages (sampled)", names, ms);
    names.clear();
    ms.clear();
    for (const render::PassTime& t : in.renderPasses) {
        names.push_back(t.name);
        ms.push_back(t.ms);
    }
    timesTable("render passes (GPU)", names, ms);
}

// Marks the settings for application once an edit of the last widget has finished.
void applyAfterEdit(HudActions& out, const SimControls& c) {
    if (ImGui::IsItemDeactivatedAfterEdit()) out.apply = c;
}

void controlsSection(HudState& st, HudActions& out, render::ShadingSettings& shading) {
    SimControls& c = st.editing;
    ImGui::SliderInt("substeps", &c.substeps, 1, 64);
    applyAfterEdit(out, c);
    ImGui::SliderInt("iterations", &c.iterations, 1, 32);
    applyAfterEdit(out, c);
    // The iteration scheme (README, "Iteration schemes and convergence"); applied on choice.
    static const IterationScheme kSchemes[] = {IterationScheme::GaussSeidel,
                                               IterationScheme::Jacobi,
                                               IterationScheme::Chebyshev};
    if (ImGui::BeginCombo("iteration scheme", iterationSchemeName(c.iteration.scheme))) {
        for (IterationScheme scheme : kSchemes) {
            if (ImGui::Selectable(iterationSchemeName(scheme), scheme == c.iteration.scheme) &&
                scheme != c.iteration.scheme) {
                c.iteration.scheme = scheme;
                out.apply = c;
            }
        }
        ImGui::EndCombo();
    }
    if (c.iteration.scheme != IterationScheme::GaussSeidel) {
        ImGui::SliderFloat("relaxation", &c.iteration.relaxation, 0.1f, 1.9f, "%.2f");
        applyAfterEdit(out, c);
    }
    if (c.iteration.scheme == IterationScheme::Chebyshev) {
        ImGui::SliderFloat("rho", &c.iteration.rho, 0.0f, 0.999f, "%.3f");
        applyAfterEdit(out, c);
        ImGui::SliderInt("warm-up", &c.iteration.warmup, 1, 16);
        applyAfterEdit(out, c);
    }
    // The cloth model (docs/models.md); applied on choice, refused with a message when the
    // scene has what the model does not run.
    static const ClothModel kModels[] = {ClothModel::Xpbd, ClothModel::MassSpring,
                                         ClothModel::Projective, ClothModel::Fem};
    if (ImGui::BeginCombo("model", clothModelName(c.model))) {
        for (ClothModel model : kModels)
            if (ImGui::Selectable(clothModelName(model), model == c.model) && model != c.model) {
                c.model = model;
                out.apply = c;
            }
        ImGui::EndCombo();
    }
    const ImGuiSliderFlags log = ImGuiSliderFlags_Logarithmic;
    ImGui::SliderFloat("stretch compliance", &c.stretchCompliance, 1e-10f, 1e-2f, "%.1e", log);
    applyAfterEdit(out, c);
    ImGui::SliderFloat("bend rigidity", &c.bendRigidity, 1e-8f, 1e-2f, "%.1e N m", log);
    applyAfterEdit(out, c);
    ImGui::SliderFloat("linear damping", &c.linearDamping, 0.0f, 5.0f, "%.2f /s");
    applyAfterEdit(out, c);
    ImGui::SliderFloat("rigid damping", &c.rigidDamping, 0.0f, 1.0f, "%.3f");
    applyAfterEdit(out, c);
    ImGui::DragFloat3("gravity", &c.gravity.x, 0.05f, -30.0f, 30.0f, "%.2f");
    applyAfterEdit(out, c);
    ImGui::TextDisabled("(applying re-prepares the scene and keeps the cloth's state)");
    ImGui::Checkbox("check pattern", &shading.pattern);
    ImGui::SameLine();
    ImGui::Checkbox("shadows", &shading.shadows);
    ImGui::SameLine();
    ImGui::Checkbox("SSAO", &shading.ssao);
}

void scenePicker(const HudInput& in, HudState& st, HudActions& out) {
    const std::string current = in.sim->scene().name;
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("multiple_objects").x + 40.0f);
    if (ImGui::BeginCombo("##scene", current.c_str())) {
        for (const std::string& name : builtinSceneNames())
            if (ImGui::Selectable(name.c_str(), name == current)) out.scene = name;
        ImGui::EndCombo();
    }
    remember(st, "scene");
}

// The bar: one row at the top left, and a second for a warning while there is one.
void bar(const HudInput& in, HudState& st, HudActions& out) {
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings;
    ImGui::SetNextWindowPos(ImVec2(6, 6));
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 4));
    ImGui::Begin("clothsim bar", nullptr, flags);
    const bool open = st.details;  // the button looks pressed while the panel is open
    if (open)
        ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (button(st, "details", "details")) st.details = !st.details;
    if (open) ImGui::PopStyleColor();
    const ViewerSim& sim = *in.sim;
    ImGui::SameLine();
    ImGui::Text("%5.1f fps  frame %d  %.2f s  %s %s", in.fps, sim.frame(), sim.solver().simTime(),
                sim.solver().backendName(), shortName(sim.solver().deviceName()).c_str());
    ImGui::SameLine();
    if (button(st, in.paused ? "run###pause" : "pause###pause", "pause")) out.togglePause = true;
    ImGui::SameLine();
    if (button(st, "step", "step")) out.step = true;
    ImGui::SameLine();
    if (button(st, "reset", "reset")) out.reset = true;
    ImGui::SameLine();
    scenePicker(in, st, out);
    if (!in.warning.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.2f, 1.0f), "%s", in.warning.c_str());
    const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
    ImGui::End();
    ImGui::PopStyleVar();
    st.barBottom = bottom;
}

// The details panel under the bar: the backend switch and the view reset, then sections that
// start closed.
void details(const HudInput& in, HudState& st, HudActions& out,
             render::ShadingSettings& shading) {
    ImGui::SetNextWindowPos(ImVec2(6, st.barBottom + 4), ImGuiCond_Appearing);
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("details", &st.details, ImGuiWindowFlags_AlwaysAutoResize);
    if (in.sim->canUseGpu()) {
        const bool gpu = in.sim->backend() == "gpu";
        if (button(st, gpu ? "use CPU###backend" : "use GPU###backend", "backend"))
            out.switchBackend = true;
        ImGui::SameLine();
    }
    if (button(st, "reset view", "view")) out.resetCamera = true;
    if (ImGui::CollapsingHeader("status")) statusSection(in);
    if (ImGui::CollapsingHeader("times")) timesSection(in);
    if (ImGui::CollapsingHeader("settings")) controlsSection(st, out, shading);
    if (in.sim->metricsOn()) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (ImGui::CollapsingHeader("convergence")) convergenceSection(in, out);
    if (ImGui::CollapsingHeader("keys and mouse")) {
        ImGui::TextDisabled("left drag on the cloth: grab it; elsewhere: orbit");
        ImGui::TextDisabled("right or middle drag (or shift + left): pan; wheel: zoom");
        ImGui::TextDisabled("space pause, N step, R reset scene, B switch backend");
        ImGui::TextDisabled("C reset view, H hide the bar and panels, Esc or Q quit");
    }
    ImGui::End();
}

}  // namespace

HudActions drawHud(const HudInput& in, HudState& st, render::ShadingSettings& shading) {
    HudActions out;
    if (st.editingGeneration != in.sim->generation()) {
        st.editing = in.sim->controls();
        st.editingGeneration = in.sim->generation();
    }
    st.buttons.clear();
    if (in.sim->metricsOn() && !st.metricsShown) {  // --metrics, or switched on: show the plots
        st.details = true;
        st.metricsShown = true;
    }
    if (!st.visible) return out;
    bar(in, st, out);
    if (st.details) details(in, st, out, shading);
    return out;
}

}  // namespace cloth
