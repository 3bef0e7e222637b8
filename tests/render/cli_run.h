// Runs the built clothsim program (CLOTH_BUILD_DIR/clothsim) through the shell and collects its
// exit code and output, for end-to-end tests of the command line.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>

namespace cloth::test {

struct RunResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

inline std::filesystem::path buildDir() {
    const char* dir = std::getenv("CLOTH_BUILD_DIR");
    return dir ? std::filesystem::path(dir) : std::filesystem::current_path();
}

inline std::string readText(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A fresh, empty scratch directory for one test.
inline std::filesystem::path scratchDir(const std::string& name) {
    const auto dir = buildDir() / "test_output" / "cli" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// `prefix` goes before the program (e.g. "env -u DISPLAY"); runs in `cwd`.
inline RunResult runClothsim(const std::string& args, const std::filesystem::path& cwd,
                             const std::string& prefix = "") {
    const auto out = cwd / "stdout.txt", err = cwd / "stderr.txt";
    const std::string cmd = "cd '" + cwd.string() + "' && " + prefix + " '" +
                            (buildDir() / "clothsim").string() + "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    RunResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readText(out);
    r.err = readText(err);
    return r;
}

}  // namespace cloth::test
