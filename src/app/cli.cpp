#include "app/cli.h"


#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "core/frame_rate.h"
#include "cpu/team.h"
#include "core/limits.h"

namespace cloth::cli {
namespace {

constexpr std::size_t kHelpWidth = 100;  // columns of the generated help
constexpr std::size_t kNameWidth = 30;   // the flags' column

// Words of `text` in lines of at most `width` characters (longer words stand alone); the text's
// own line breaks are kept.
std::string wrap(const std::string& text, std::size_t width) {
    std::string out;
    std::istringstream paragraphs(text);
    std::string paragraph;
    bool firstParagraph = true;
    while (std::getline(paragraphs, paragraph)) {
        if (!firstParagraph) out += '\n';
        firstParagraph = false;
        std::istringstream words(paragraph);
        std::string word;
        std::size_t column = 0;
        while (words >> word) {
            if (column > 0 && column + 1 + word.size() > width) {
                out += '\n';
                column = 0;
            } else if (column > 0) {
                out += ' ';
                ++column;
            }
            out += word;
            column += word.size();
        }
    }
    return out;
}

// CLI11's formatter with the descriptions wrapped to the help's width.
class Formatter : public CLI::Formatter {
  public:
    Formatter() { column_width(kNameWidth); }
    std::string make_option_desc(const CLI::Option* opt) const override {
        return wrap(opt->get_description(), kHelpWidth - kNameWidth);
    }
};

// The text as a finite double, or nothing.
std::optional<double> finiteNumber(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

// The problem checkIterationSettings finds in `s`, or "".
std::string iterationProblem(const IterationSettings& s) {
    try {
        checkIterationSettings(s, "");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

void configure(CLI::App& app) {
    app.formatter(std::make_shared<Formatter>());
    // -h,--help answers as soon as it is read, before any other flag's value is checked (CLI11's
    // own help flag waits for them).
    app.set_help_flag();
    app.add_flag_callback(
           "-h,--help", [] { throw CLI::CallForHelp(); }, "show this help and exit")
        ->trigger_on_parse()
        ->group(kGeneral);
    app.option_defaults()->group(kGeneral)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.allow_extras();  // parse() refuses them, with the old wording
}

bool parse(CLI::App& app, const std::vector<std::string>& args) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // as CLI11 takes them
    try {
        app.parse(reversed);
    } catch (const CLI::CallForHelp&) {
        return true;
    } catch (const CLI::ParseError& e) {
        throw Error(e.what());
    }
    const std::vector<std::string> extra = app.remaining();
    if (!extra.empty()) {
        const std::string& a = extra.front();
        throw Error((a.size() > 1 && a[0] == '-' ? "unknown option '" : "unexpected argument '") +
                    a + "' (see --help)");
    }
    return false;
}

// ---- validators ----------------------------------------------------------------------------

CLI::Validator integer(long long min, long long max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            long long value = 0;
            const char* end = text.data() + text.size();
            auto [ptr, ec] = std::from_chars(text.data(), end, value);
            if (text.empty() || ptr != end ||
                (ec != std::errc() && ec != std::errc::result_out_of_range))
                return "expected an integer, got '" + text + "'";
            const bool negative = text[0] == '-';
            if ((ec == std::errc() && value < min) || (ec != std::errc() && negative))
                return "must be at least " + std::to_string(min) + ", got " + text;
            if (ec != std::errc() || value > max)
                return "must be at most " + std::to_string(max) + ", got " + text;
            text = std::to_string(value);
            return "";
        },
        "");
}

CLI::Validator finite() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            return finiteNumber(text) ? "" : "expected a finite number, got '" + text + "'";
        },
        "");
}

CLI::Validator nonNegative() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const auto v = finiteNumber(text);
            return v && *v >= 0.0 ? "" : "expected a number >= 0, got '" + text + "'";
        },
        "");
}

namespace {

std::string shown(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

}  // namespace

CLI::Validator number(double min, double max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            const auto v = finiteNumber(text);
            if (!v) return "expected a finite number, got '" + text + "'";
            if (*v < min) return "must be at least " + shown(min) + ", got " + text;
            if (*v > max) return "must be at most " + shown(max) + ", got " + text;
            return "";
        },
        "");
}

CLI::Validator positive(double max) {
    return CLI::Validator(
        [max](std::string& text) -> std::string {
            const auto v = finiteNumber(text);
            if (!v) return "expected a finite number, got '" + text + "'";
            if (!(*v > 0.0)) return "must be above 0, got " + text;
            if (*v > max) return "must be at most " + shown(max) + ", got " + text;
            return "";
        },
        "");
}

CLI::Validator compliance() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const auto v = finiteNumber(text);
            if (!v) return "expected a finite number, got '" + text + "'";
            if (*v < 0.0) return "must not be negative, got " + text;
            if (*v > limits::kMaxCompliance)
                return text + " is softer than any material (at most 1e6)";
            return "";
        },
        "");
}

std::string alternatives(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
    }
    return out;
}

CLI::Validator oneOf(std::vector<std::string> names) {
    return CLI::Validator(
        [names](std::string& text) -> std::string {
            if (std::find(names.begin(), names.end(), text) != names.end()) return "";
            return "expected " + alternatives(names) + ", got '" + text + "'";
        },
        "");
}

CLI::Validator relaxationRange() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const auto v = finiteNumber(text);
            if (!v) return "expected a finite number, got '" + text + "'";
            IterationSettings s;
            s.relaxation = static_cast<float>(*v);
            return iterationProblem(s);
        },
        "");
}

CLI::Validator rhoRange() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const auto v = finiteNumber(text);
            if (!v) return "expected a finite number, got '" + text + "'";
            IterationSettings s;
            s.rho = static_cast<float>(*v);
            return iterationProblem(s);
        },
        "");
}

std::vector<int> parseIntList(const std::string& text, long long min, long long max) {
    std::vector<int> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        long long v = 0;
        const char* end = item.data() + item.size();
        auto [ptr, ec] = std::from_chars(item.data(), end, v);
        const bool tooLarge = ec == std::errc::result_out_of_range && item[0] != '-';
        if (item.empty() || ptr != end || (ec != std::errc() && !tooLarge) || v < min)
            throw Error("expected a comma-separated list of integers >= " + std::to_string(min) +
                        ", got '" + text + "'");
        if (tooLarge || v > max)
            throw Error("must be at most " + std::to_string(max) + ", got " + item);
        out.push_back(static_cast<int>(v));
    }
    if (out.empty()) throw Error("empty list");
    return out;
}

// ---- options -------------------------------------------------------------------------------

CLI::Option* addIntList(CLI::App& app, const std::string& name, std::vector<int>& target,
                        long long min, long long max, const std::string& description) {
    return addParsed(
               app, name, target,
               [min, max](const std::string& text) { return parseIntList(text, min, max); },
               description)
        ->type_name("LIST");
}

CLI::Option* addChoice(CLI::App& app, const std::string& name, std::string& target,
                       const std::vector<std::string>& names, const std::string& description) {
    std::string shown;
    for (const std::string& n : names) shown += (shown.empty() ? "" : "|") + n;
    return app.add_option(name, target, description)->check(oneOf(names))->type_name(shown);
}

CLI::Option* addDevice(CLI::App& app, std::optional<int>& target, const std::string& description) {
    return addInt(app, "--device", target, 0, kIntMax,
                  description.empty()
                      ? "Vulkan device index (see clothsim --list-devices; default: the "
                        "preferred device: discrete, else integrated, else virtual, else CPU)"
                      : description);
}

CLI::Option* addThreads(CLI::App& app, std::optional<int>& target, const std::string& description) {
    return addInt(app, "--threads", target, 1, kMaxThreads,
                  description.empty() ? "CPU worker threads, at most 1024 (default: all hardware "
                                        "threads)"
                                      : description);
}

CLI::Option* addTeam(CLI::App& app, TeamMode& target, const std::string& description) {
    return addParsed(app, "--team", target, parseTeamMode,
                     description.empty()
                         ? "CPU thread team: adaptive (default) runs each frame on the threads "
                           "the cloth and the machine's load allow, fewer while other processes "
                           "use the cores; fixed runs every frame on all of --threads "
                           "(benchmarks)"
                         : description)
        ->type_name("adaptive|fixed");
}

CLI::Option* addValidate(CLI::App& app, bool& target, const std::string& description) {
    return app.add_flag("--validate", target,
                        description.empty() ? "enable the Vulkan validation layer" : description);
}

CLI::Option* addTuning(CLI::App& app, std::optional<std::string>& target,
                       const std::string& description) {
    return app
        .add_option("--tuning", target,
                    description.empty()
                        ? "where --phantoms auto finds the fastest target per device, as measured "
                          "by clothbench --tune-phantoms (default: $CLOTHSIM_TUNING, else "
                          "$XDG_CONFIG_HOME/clothsim/tuning.json, else "
                          "~/.config/clothsim/tuning.json; without an entry: 8 colours)"
                        : description)
        ->type_name("FILE");
}

const char* const kPhantomsHelp =
    "phantom vertices for fewer colours: off, auto (the tuning file's target for this device, "
    "see --tuning) or N (a target colour count)";
const char* const kIterationHelp =
    "how the iterations update positions: gs (Gauss-Seidel by colours), jacobi (all constraints "
    "from the same positions, mass splitting) or chebyshev (Chebyshev-accelerated Jacobi)";

CLI::Option* addSpringStiffness(CLI::App& app, std::optional<float>& target) {
    return app
        .add_option("--spring-stiffness", target,
                    "model mass_spring: every spring's stiffness in N/m (default: the scene's, "
                    "else 1 / each material's stretch compliance)")
        ->check(positive(1e12))
        ->type_name("K");
}

CLI::Option* addFps(CLI::App& app, std::optional<float>& target) {
    const auto parse = [](const std::string& text) {
        std::string copy = text;
        if (std::string problem = finite()(copy); !problem.empty()) throw Error(problem);
        const double fps = std::strtod(text.c_str(), nullptr);
        if (auto problem = fpsProblem(fps)) throw Error(*problem);
        return float(fps);
    };
    return addParsed(app, "--fps", target, parse,
                     "frames per simulated second, 1 to 1000, e.g. 24, 25, 30 (default: the "
                     "scene's, else 60); substeps stay per 1/60 s")
        ->type_name("X");
}

void applyModelFlags(const std::optional<ClothModel>& model,
                     const std::optional<Integrator>& integrator,
                     const std::optional<float>& stiffness, SimSettings& sim) {
    if (model) sim.model = *model;
    if (integrator) sim.massSpring.integrator = *integrator;
    if (stiffness) sim.massSpring.structural = sim.massSpring.shear = sim.massSpring.flexion = *stiffness;
}

void applySimFlags(const SimFlags& f, SimSettings& sim) {
    if (f.substeps) sim.substeps = *f.substeps;
    if (f.fps) sim.fps = *f.fps;
    if (f.iterations) sim.iterations = *f.iterations;
    applyModelFlags(f.model, f.integrator, f.springStiffness, sim);
    IterationSettings& it = sim.iteration;
    if (f.iterationScheme) it.scheme = *f.iterationScheme;
    if (f.relaxation) it.relaxation = *f.relaxation;
    if (f.rho) it.rho = *f.rho;
    if (f.warmup) it.warmup = *f.warmup;
    if (f.relaxation || f.rho || f.warmup) checkIterationSettings(it, "--relaxation/--rho/--warmup");
}

}  // namespace cloth::cli
