// What the command lines of clothsim, clothbench and clothcheck share, on CLI11: the parser's
// setup and help layout, the value validators (integers and their ranges, lists, numbers, choices)
// and the flags the programs have in common (--device, --threads, --validate, --phantoms, --tuning,
// --iteration, --solver, --relaxation, --rho). Each program defines its own flags with these
// (app/options.cpp, tools/bench_options.cpp, tools/clothcheck/main.cpp).
//
// Messages name the flag, then the problem: "--substeps: must be at most 10000, got 20000".
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "app/sim_flags.h"
#include "core/scene.h"
#include "prep/phantoms.h"

namespace cloth {
enum class TeamMode;  // cpu/team.h
}

namespace cloth::cli {

inline constexpr int kMaxThreads = 1024;  // --threads of every program
inline constexpr int kIntMax = std::numeric_limits<int>::max();

// Help groups the programs share.
inline constexpr const char* kGeneral = "General";
inline constexpr const char* kPhantomGroup = "Phantom vertices";

// Sets up `app` as the programs want it: -h,--help in the group kGeneral (new options go there
// too until the program switches with app.option_defaults()->group(...)), the last of repeated
// flags wins, unknown arguments are left for parse() to refuse, and descriptions are wrapped to
// the terminal's usual 100 columns.
void configure(CLI::App& app);

// Parses `args` (without the program's name). Returns true when --help was asked (the flags
// after it are not read, nor any value checked, and the caller prints app.help()); throws cloth::Error with one message for
// bad input: an unknown flag or argument, a missing value, or a value the flag refuses.
bool parse(CLI::App& app, const std::vector<std::string>& args);

// ---- validators: each returns "" for good text, else the problem (CLI11 puts the flag first) ----

// A decimal integer in [min, max]. Rewrites the text to its plain decimal form ("010" -> "10"),
// which CLI11 then converts (CLI11 alone would read "010" as octal): give it to
// Option::transform, as addInt does (Option::check keeps the text as it was).
CLI::Validator integer(long long min, long long max = kIntMax);
// A finite number (strtod's syntax).
CLI::Validator finite();
// A finite number >= 0.
CLI::Validator nonNegative();
// A finite number in [min, max]: "must be at least 0.001, got 0", as integer() words it (CLI11's
// own Range words it otherwise).
CLI::Validator number(double min, double max);
// A finite number above 0 and at most max: "must be above 0, got 0".
CLI::Validator positive(double max);
// A compliance: finite, not negative, at most limits::kMaxCompliance (1e6).
CLI::Validator compliance();
// One of `names`: "expected a, b or c, got 'x'".
CLI::Validator oneOf(std::vector<std::string> names);

// "a, b or c".
std::string alternatives(const std::vector<std::string>& names);

// A comma-separated list of integers in [min, max] ("32,64"): throws cloth::Error with the
// problem ("empty list", "must be at most 1024, got 2000", ...).
std::vector<int> parseIntList(const std::string& text, long long min, long long max = kIntMax);

// ---- options ----

// A flag whose text `parse` turns into the value stored in `target` (which may be a
// std::optional of it). `parse` throws cloth::Error with the problem; the message then names the
// flag first.
template <class T, class Parse>
CLI::Option* addParsed(CLI::App& app, const std::string& name, T& target, Parse parse,
                       const std::string& description) {
    return app.add_option_function<std::string>(
        name,
        [&target, parse, name](const std::string& text) {
            try {
                target = parse(text);
            } catch (const Error& e) {
                throw CLI::ValidationError(name, e.what());
            }
        },
        description);
}

// An integer flag in [min, max], shown as N; `target` is an int or a std::optional<int>.
template <class T>
CLI::Option* addInt(CLI::App& app, const std::string& name, T& target, long long min, long long max,
                    const std::string& description) {
    return app.add_option(name, target, description)->transform(integer(min, max))->type_name("N");
}

// A comma-separated list of integers in [min, max], shown as LIST.
CLI::Option* addIntList(CLI::App& app, const std::string& name, std::vector<int>& target,
                        long long min, long long max, const std::string& description);

// A string flag with a fixed set of values, shown as a|b|c.
CLI::Option* addChoice(CLI::App& app, const std::string& name, std::string& target,
                       const std::vector<std::string>& names, const std::string& description);

// --device N: a Vulkan device index (see clothsim --list-devices).
CLI::Option* addDevice(CLI::App& app, std::optional<int>& target,
                       const std::string& description = "");
// --threads N: CPU worker threads, 1 to kMaxThreads.
CLI::Option* addThreads(CLI::App& app, std::optional<int>& target,
                        const std::string& description = "");
// --team adaptive|fixed: how the CPU reference's thread team picks each frame's threads
// (cpu/team.h).
CLI::Option* addTeam(CLI::App& app, TeamMode& target, const std::string& description = "");
// --validate: the Vulkan validation layer.
CLI::Option* addValidate(CLI::App& app, bool& target, const std::string& description = "");
// --tuning FILE: where --phantoms auto finds its target (app/phantom_tuning.h).
CLI::Option* addTuning(CLI::App& app, std::optional<std::string>& target,
                       const std::string& description = "");

// The shared descriptions of the flags below (programs may add their defaults).
extern const char* const kPhantomsHelp;
extern const char* const kIterationHelp;

// --phantoms off|auto|N (PhantomSetting, or a std::optional of it).
template <class T>
CLI::Option* addPhantoms(CLI::App& app, T& target, const std::string& description = kPhantomsHelp) {
    return addParsed(app, "--phantoms", target, parsePhantomSetting, description)
        ->type_name("off|auto|N");
}

// --iteration gs|jacobi|chebyshev (IterationScheme, or a std::optional of it).
template <class T>
CLI::Option* addIteration(CLI::App& app, T& target,
                          const std::string& description = kIterationHelp) {
    const std::vector<std::string> names = {"gs", "jacobi", "chebyshev"};
    return addParsed(app, "--iteration", target, parseIterationScheme, description)
        ->check(oneOf(names))
        ->type_name("gs|jacobi|chebyshev");
}

// --phantom-method repair|cliques (PhantomMethod, or a std::optional of it).
template <class T>
CLI::Option* addPhantomMethod(CLI::App& app, T& target, const std::string& description) {
    return addParsed(app, "--phantom-method", target, parsePhantomMethod, description)
        ->check(oneOf({"repair", "cliques"}))
        ->type_name("repair|cliques");
}

// --phantom-averaging iteration|color: true for color (bool, or a std::optional of it).
template <class T>
CLI::Option* addPhantomAveraging(CLI::App& app, T& target, const std::string& description) {
    return addParsed(
               app, "--phantom-averaging", target,
               [](const std::string& text) { return text == "color"; }, description)
        ->check(oneOf({"iteration", "color"}))
        ->type_name("iteration|color");
}

// --solver xpbd|pbd (SolverMode, or a std::optional of it).
template <class T>
CLI::Option* addSolver(CLI::App& app, T& target, const std::string& description) {
    return addParsed(app, "--solver", target, parseSolverMode, description)
        ->check(oneOf({"xpbd", "pbd"}))
        ->type_name("xpbd|pbd");
}

// --model xpbd|mass_spring|pd|fem (ClothModel, or a std::optional of it).
template <class T>
CLI::Option* addModel(CLI::App& app, T& target, const std::string& description) {
    return addParsed(app, "--model", target, parseClothModel, description)
        ->check(oneOf({"xpbd", "mass_spring", "pd", "fem"}))
        ->type_name("xpbd|mass_spring|pd|fem");
}

// --integrator explicit|symplectic|verlet|adaptive_verlet (Integrator, or a std::optional of it).
template <class T>
CLI::Option* addIntegrator(CLI::App& app, T& target, const std::string& description) {
    return addParsed(app, "--integrator", target, parseIntegrator, description)
        ->check(oneOf({"explicit", "symplectic", "verlet", "adaptive_verlet"}))
        ->type_name("explicit|symplectic|verlet|adaptive_verlet");
}

// --spring-stiffness K: every spring family's stiffness in N/m, (0, 1e12].
CLI::Option* addSpringStiffness(CLI::App& app, std::optional<float>& target);

// --fps X: the frame rate, 1 to 1000 frames per second (core/frame_rate.h).
CLI::Option* addFps(CLI::App& app, std::optional<float>& target);

// Applies --model, --integrator and --spring-stiffness to a scene.
void applyModelFlags(const std::optional<ClothModel>& model,
                     const std::optional<Integrator>& integrator,
                     const std::optional<float>& stiffness, SimSettings& sim);

// --relaxation X and --rho X: the Jacobi and Chebyshev parameters, checked as scene files check
// them (checkIterationSettings): relaxation in (0, 2), rho in [0, 1). `target` is a float or a
// std::optional<float>.
CLI::Validator relaxationRange();
CLI::Validator rhoRange();
template <class T>
CLI::Option* addRelaxation(CLI::App& app, T& target, const std::string& description) {
    return app.add_option("--relaxation", target, description)
        ->check(relaxationRange())
        ->type_name("X");
}
template <class T>
CLI::Option* addRho(CLI::App& app, T& target, const std::string& description) {
    return app.add_option("--rho", target, description)->check(rhoRange())->type_name("X");
}

}  // namespace cloth::cli
