// Runs one of the project's programs (from the build directory) and captures its output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace cloth::test {

struct ProgramResult {
    int exitCode = -1;
    std::string output;  // stdout and stderr together
};

inline std::string buildDir() {
    const char* d = std::getenv("CLOTH_BUILD_DIR");
    return d ? d : ".";
}

inline std::string sourceDir() {
    const char* d = std::getenv("CLOTH_SOURCE_DIR");
    return d ? d : ".";
}

// `args` is passed to the shell as is: quote paths with spaces yourself.
inline ProgramResult runProgram(const std::string& program, const std::string& args) {
    const std::string cmd = buildDir() + "/" + program + " " + args + " 2>&1";
    ProgramResult r;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
    const int status = pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
