// Runs one of the project's programs from the build directory (CLOTH_BUILD_DIR, set by ctest)
// through the shell and collects its exit code and output: the one helper of every end-to-end
// test of the command lines.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace cloth::test {

struct ProgramResult {
    int exitCode = -1;
    std::string output;  // stdout and stderr together (runProgram), or out then err (runProgramIn)
    std::string out;     // runProgramIn only: stdout
    std::string err;     // ... and stderr
};

inline std::string buildDir() {
    const char* d = std::getenv("CLOTH_BUILD_DIR");
    return d ? d : ".";
}

inline std::string sourceDir() {
    const char* d = std::getenv("CLOTH_SOURCE_DIR");
    return d ? d : ".";
}

inline std::string readText(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline int exitCodeOf(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// `program args 2>&1`; `args` goes to the shell as is: quote paths with spaces yourself.
inline ProgramResult runProgram(const std::string& program, const std::string& args) {
    const std::string cmd = buildDir() + "/" + program + " " + args + " 2>&1";
    ProgramResult r;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
    r.exitCode = exitCodeOf(pclose(pipe));
    return r;
}

// `program args` run in `cwd` with stdout and stderr kept apart; `prefix` goes before the
// program (e.g. "env -u DISPLAY").
inline ProgramResult runProgramIn(const std::string& program, const std::string& args,
                                  const std::filesystem::path& cwd,
                                  const std::string& prefix = "") {
    const auto out = cwd / "stdout.txt", err = cwd / "stderr.txt";
    const std::string cmd = "cd '" + cwd.string() + "' && " + prefix + " '" + buildDir() + "/" +
                            program + "' " + args + " >'" + out.string() + "' 2>'" +
                            err.string() + "'";
    ProgramResult r;
    r.exitCode = exitCodeOf(std::system(cmd.c_str()));
    r.out = readText(out);
    r.err = readText(err);
    r.output = r.out + r.err;
    return r;
}

// Runs `program args` and expects a refusal: exit code 1, `fragment` in the output, and no
// sanitizer report. Returns the run for further checks.
inline ProgramResult expectRefusal(const std::string& program, const std::string& args,
                                   const std::string& fragment) {
    const auto r = runProgram(program, args);
    EXPECT_EQ(r.exitCode, 1) << program << " " << args << "\n" << r.output;
    EXPECT_NE(r.output.find(fragment), std::string::npos)
        << program << " " << args << ": expected '" << fragment << "' in:\n"
        << r.output;
    EXPECT_EQ(r.output.find("Sanitizer"), std::string::npos) << r.output;
    return r;
}

// A fresh, empty folder for one test: <tmp>/clothsim_<suite>_<name>_<pid>.
inline std::filesystem::path scratchDir(const std::string& suite, const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path d = fs::temp_directory_path() /
                       ("clothsim_" + suite + "_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

}  // namespace cloth::test
