include(GoogleTest)

# cloth_add_test(<name> SOURCES ... LIBS ... [LAUNCHER cmd args...] [RESOURCE_LOCK name]): a
# GoogleTest executable registered with ctest. LAUNCHER runs the tests through a command (e.g.
# xvfb-run for a display); RESOURCE_LOCK keeps tests sharing a resource from running together.
# Sanitizer options are set here so plain `ctest` behaves like tools/test.sh.
set(CLOTH_TEST_ENV
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1"
    "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tools/lsan.supp:print_suppressions=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
    "CLOTH_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
    "CLOTH_BUILD_DIR=${CMAKE_BINARY_DIR}"
    # --phantoms auto in tests never reads the user's tuning file (app/phantom_tuning.h).
    "CLOTHSIM_TUNING=${CMAKE_BINARY_DIR}/test-config/no-tuning.json")

function(cloth_add_test name)
    cmake_parse_arguments(ARG "" "RESOURCE_LOCK" "SOURCES;LIBS;LAUNCHER" ${ARGN})
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main cloth_common)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
    # The environment goes through `env` as the tests' launcher: gtest_discover_tests (CMake 3.25)
    # flattens a list given as PROPERTIES ENVIRONMENT, so only its first entry reached the tests.
    set(launcher /usr/bin/env ${CLOTH_TEST_ENV})
    if(ARG_LAUNCHER)
        set(launcher ${ARG_LAUNCHER} ${launcher})
    endif()
    set_target_properties(${name} PROPERTIES CROSSCOMPILING_EMULATOR "${launcher}")
    if(ARG_RESOURCE_LOCK)
        gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 DISCOVERY_MODE PRE_TEST
                             PROPERTIES RESOURCE_LOCK ${ARG_RESOURCE_LOCK})
    else()
        gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 DISCOVERY_MODE PRE_TEST)
    endif()
endfunction()
