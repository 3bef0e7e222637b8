#include "test_util.h"

#include <filesystem>

namespace cloth::test {

std::string scratchDir() {
    const char* build = std::getenv("CLOTH_BUILD_DIR");
    std::filesystem::path base = build ? std::filesystem::path(build) / "tests" / "scratch"
                                       : std::filesystem::temp_directory_path() / "cloth_scratch";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (info) base /= std::string(info->test_suite_name()) + "." + info->name();
    std::filesystem::create_directories(base);
    return base.string();
}

}  // namespace cloth::test
